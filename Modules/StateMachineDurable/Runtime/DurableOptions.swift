import FoundationEssentials
import StateMachineSupport

/// How a machine is opened: ``DurableStore/open(_:_:options:)``.
public struct DurableOptions: Sendable {
    /// What happens to a timer that fell due while the machine was closed.
    public var timerPolicy: DurableTimerPolicy
    /// How to bring a machine stored by another definition to this one; nil refuses it
    /// with ``DurableError/definitionChanged(key:stored:opening:)``.
    public var migration: DurableMigration?

    /// Options: overdue timers fire, no migration.
    public init(timerPolicy: DurableTimerPolicy = .fire, migration: DurableMigration? = nil) {
        self.timerPolicy = timerPolicy
        self.migration = migration
    }
}

/// What happens, when a machine is opened, to each of its timers whose due time passed
/// while it was closed.
public enum DurableTimerPolicy: Sendable, Equatable {
    /// The timer fires as the machine opens, at its due time, in due order (the default):
    /// the machine ends where it would have been had it stayed open.
    case fire
    /// The timer is removed without firing.
    case drop
    /// The timer is armed again for its whole delay, from the time the machine opens.
    case restart
}

/// Brings a machine stored by one definition to another: given the stored identity and
/// state, returns the state in the new definition's encoding (or throws to refuse).
public struct DurableMigration: Sendable {
    let migrate: @Sendable (_ stored: DefinitionIdentity, _ state: Data) throws -> Data

    /// A migration that runs `migrate` on the stored state.
    public init(_ migrate: @escaping @Sendable (_ stored: DefinitionIdentity, _ state: Data) throws -> Data) {
        self.migrate = migrate
    }

    /// Keeps the stored state as it is: for a definition whose change leaves the state's
    /// encoding valid (a renamed version, an added transition).
    public static let keepState = DurableMigration { _, state in state }
}

/// What ``DurableMachine/send(_:idempotencyKey:)`` and ``DurableMachine/post(_:idempotencyKey:)`` report.
public struct DurableReceipt: Sendable, Equatable {
    /// The event's position in the machine's journal; nil for a duplicate or a posted event.
    public let sequence: Int64?
    /// Whether the idempotency key had been seen: the event was not applied again.
    public let isDuplicate: Bool
}

/// The machines a program has open on one store, whose timers the store's clock fires.
/// A store holds one (``DurableStore/openMachines``); machines add and remove themselves.
public final class DurableMachineRegistry: Sendable {
    private let machines = Lock<[ObjectIdentifier: any DurableClockListener]>([:])

    /// An empty registry.
    public init() {}

    func add(_ machine: any DurableClockListener) {
        machines.withLock { $0[ObjectIdentifier(machine)] = machine }
    }

    func remove(_ machine: any DurableClockListener) {
        let removed = machines.withLock { $0.removeValue(forKey: ObjectIdentifier(machine)) }
        _ = removed  // Released outside the lock.
    }

    var all: [any DurableClockListener] { machines.withLock { Array($0.values) } }
}

/// An open machine, told when its store's manual clock moves.
protocol DurableClockListener: AnyObject, Sendable {
    /// Fires the machine's timers due by `time`, in order; returns once they are committed.
    func clockAdvanced(to time: DurableInstant) async
}

extension DurableStore {
    /// Opens machine `key` as `form`: claims it, reopens it at its last committed state
    /// (or starts it), applies what its inbox holds and, as `options` say, the timers that
    /// fell due while it was closed, and starts delivering its undelivered effects.
    ///
    /// Close it with ``DurableMachine/close()`` so that another process may open it.
    /// - Throws: ``DurableError/machineInUse(key:owner:)``,
    ///   ``DurableError/definitionChanged(key:stored:opening:)`` or a storage error; the
    ///   stored machine is left as it was.
    public func open<Form: DurableForm>(
        _ key: String,
        _ form: Form,
        options: DurableOptions = DurableOptions()
    ) async throws -> DurableMachine<Form> {
        let stored = try await claim(key, identity: form.identity)
        do {
            let machine = try await DurableMachine(key: key, store: self, form: form, stored: stored, options: options)
            openMachines.add(machine)
            try await machine.catchUp()
            return machine
        } catch {
            await release(key)
            throw error
        }
    }

    /// Moves a ``DurableClock/manual`` clock forward by `duration` and fires, in due order,
    /// the timers of the machines open on the store that fall due; returns once their steps
    /// are committed. Machines that are closed fire theirs when next opened.
    public func advanceClock(by duration: Duration) async throws {
        try await advanceClock(to: try await now() + duration.nanoseconds)
    }

    /// Moves a ``DurableClock/manual`` clock to `time` (never backwards: an earlier time
    /// leaves it where it is) and fires the open machines' timers due by then.
    public func advanceClock(to time: DurableInstant) async throws {
        try await setManualTime(time)
        let time = try await now()
        for machine in openMachines.all { await machine.clockAdvanced(to: time) }
    }
}

extension Duration {
    /// The duration in whole nanoseconds.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// The duration in whole nanoseconds, for the stores of other modules.
    package var durableNanoseconds: Int64 { nanoseconds }
}
