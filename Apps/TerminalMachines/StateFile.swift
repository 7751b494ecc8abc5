import Observation
import StateMachineCore
import StateMachineDurable
import Terminal

/// Where an app keeps a value between runs (its `--state FILE` option): one durable Core
/// machine, in an SQLite store at `path`, whose one state holds the value last saved.
///
/// The app reads what it had saved (``stored``) to start there, then ``follow(_:report:)``s
/// the value as its screens show it: each change is sent to the durable machine, and
/// ``isSaved`` turns true once its commit returned (SQLite's FULL synchronous mode: a
/// saved value survives the process being killed, and a power loss). Changes made while a
/// commit runs are saved by the next one, the latest value first. As the runner's
/// ``KeptState``, it holds frames back until what they show is saved.
///
/// ```swift
/// let file = try await StateFile<Location>.open(path: "nav.sqlite", key: "navigation")
/// start(at: file.stored)
/// file.follow({ model.location }, report: console.write)
/// ...
/// await file.close()
/// ```
@MainActor
@Observable
public final class StateFile<Value: Codable & Equatable & Sendable>: KeptState {
    /// The durable form of the machine that holds the value.
    typealias Form = DurableCore<Value?, KeptValueEvent<Value>>

    /// The store's file.
    @ObservationIgnored public let path: String
    /// What the file held when it was opened; nil for a new file (or a new key in it).
    @ObservationIgnored public let stored: Value?
    @ObservationIgnored private let machine: DurableMachine<Form>
    /// Reads the value as the screens show it; nil until ``follow(_:report:)``.
    @ObservationIgnored private var current: (@MainActor () -> Value)?
    @ObservationIgnored private var report: (@MainActor (String) -> Void)?
    @ObservationIgnored private var isSaving = false
    @ObservationIgnored private var isClosed = false
    /// Called on the main actor with each value once it is committed.
    @ObservationIgnored public var onSave: (@MainActor (Value) -> Void)?
    /// The value last committed.
    public private(set) var saved: Value?
    /// Why saving stopped (a commit failed); nil while it works.
    public private(set) var failure: String?

    private init(path: String, machine: DurableMachine<Form>, stored: Value?) {
        self.path = path
        self.machine = machine
        self.stored = stored
        self.saved = stored
    }

    /// Opens (creating it when missing) the store at `path` and its machine `key`, claimed
    /// by this process until ``close()``.
    /// - Throws: ``StateFileError`` naming the file: a path that cannot be opened, a file
    ///   that is not a store, a machine `key` of another definition or open in another
    ///   live process.
    public static func open(path: String, key: String) async throws(StateFileError) -> StateFile {
        do {
            let store = try SQLiteStore(path: path)
            let machine = try await store.open(key, form)
            let stored = (await machine.state as? KeptValue<Value>)?.value
            return StateFile(path: path, machine: machine, stored: stored)
        } catch {
            throw StateFileError(path: path, reason: "\(error)")
        }
    }

    /// The durable form: one state type and one event type, both `Codable`, registered by name.
    static var form: Form {
        var types = DurableTypes<Value?, KeptValueEvent<Value>>()
        types.state(KeptValue<Value>.self, named: "kept")
        types.event(DidChangeKeptValue<Value>.self, named: "changed")
        return DurableCore(makeKeptValueStateMachine(), version: "1", types: types)
    }

    /// Saves the value `current` reads now, and again whenever it changes (it is read under
    /// observation tracking: it must read `@Observable` state). A failed commit is told to
    /// `report`, once, and saving stops (the app goes on, and no longer holds frames back).
    public func follow(_ current: @escaping @MainActor () -> Value, report: @escaping @MainActor (String) -> Void) {
        self.current = current
        self.report = report
        observe()
    }

    private func observe() {
        guard let current, !isClosed else { return }
        withObservationTracking {
            _ = current()
        } onChange: {
            Task { @MainActor [weak self] in self?.observe() }
        }
        saveLatest()
    }

    /// Commits the latest value until the saved one is the current one; one loop at a time.
    private func saveLatest() {
        guard !isSaving, failure == nil, !isClosed, let current, current() != saved else { return }
        isSaving = true
        Task { @MainActor in
            while failure == nil, !isClosed, current() != saved {
                let value = current()
                do {
                    try await machine.send(DidChangeKeptValue(value: value))
                    saved = value
                    onSave?(value)
                } catch {
                    failure = "\(error)"
                    report?("Could not save to \(path): \(error); what changes from now on is not kept.")
                }
            }
            isSaving = false
        }
    }

    /// Whether the value the screens show is the one saved (true before ``follow(_:report:)``,
    /// after a failure and after ``close()``).
    public var isSaved: Bool {
        guard let current, failure == nil, !isClosed else { return true }
        return current() == saved
    }

    /// Returns once ``isSaved`` holds (saving the current value if no save runs).
    public func waitUntilSaved() async {
        saveLatest()
        while !isSaved {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                withObservationTracking {
                    _ = isSaved
                } onChange: {
                    continuation.resume()
                }
            }
            // The change is announced before it is made: let it land.
            await Task.yield()
        }
    }

    /// Waits for the commit under way, stops following and gives up the claim on the
    /// machine (another process may open it).
    public func close() async {
        guard !isClosed else { return }
        await waitUntilSaved()
        isClosed = true
        await machine.close()
    }
}

/// Why a state file could not be used: one line naming the file.
public struct StateFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file.
    public let path: String
    /// What went wrong.
    public let reason: String

    /// `cannot keep the state in 'x.sqlite': x.sqlite is not a valid store (...)`.
    public var description: String { "cannot keep the state in '\(path)': \(reason)" }
}

// MARK: The machine

/// The events of a kept value's machine.
public enum KeptValueEvent<Value> {}

/// The one state of a kept value's machine: the value last saved, nil before the first.
public struct KeptValue<Value: Codable & Equatable & Sendable>: State, Codable, Equatable {
    /// The value; nil before the first save.
    public let value: Value?
    /// The value.
    public var superState: Value? { value }
    /// `KeptValue (…)`.
    public var description: String { "KeptValue (\(value.map { "\($0)" } ?? "none"))" }
}

/// The value changed to `value`.
public struct DidChangeKeptValue<Value: Codable & Equatable & Sendable>: Event, Codable {
    /// A kept value's event.
    public typealias SuperEvent = KeptValueEvent<Value>
    /// The new value.
    public let value: Value
}

/// Starts with no value; each change makes its value the state.
func makeKeptValueStateMachine<Value: Codable & Equatable & Sendable>() -> StateMachine<Value?, KeptValueEvent<Value>> {
    StateMachine<Value?, KeptValueEvent<Value>>(initial: KeptValue<Value>(value: nil)) {
        When(state: KeptValue<Value>.self) {
            On(event: DidChangeKeptValue<Value>.self) { _, event in
                Transition(state: KeptValue<Value>(value: event.value))
            }
        }
    }
}
