import Observation
import StateMachineCore
import StateMachineSupport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The view model of a machine for a user interface: the machine's super state mapped to
/// a `UIState`, observable with the Observation framework, plus the means to send events.
///
/// ```swift
/// let uiStateMachine = UIStateMachine(asyncStateMachine: machine) { superState in
///     CounterUIState(label: "\(superState.value)")
/// }
/// uiStateMachine.start()
/// uiStateMachine.send(DidRequestIncrease())
/// ```
///
/// Isolation: the main actor, as in the original. A UI reads `state`, builds bindings
/// and renders on the main actor; a terminal app runs its render loop there (see
/// ``StateMachineView``). `send` and `sendAndWait` are nonisolated: any task can send.
///
/// `state` starts as the mapped `AsyncStateMachine.lastKnownState`, so
/// the first render shows the machine's current state. ``start()`` then observes the
/// machine and assigns each mapped state **only when it differs** from the current one
/// (`Equatable` deduplication): observers of `state` (`withObservationTracking`, a
/// ``StateMachineView``) are notified of real changes only. Releasing the UI machine
/// cancels its observation; the machine itself keeps running as long as someone else
/// holds it (a `.singleton` factory does).
///
/// A machine's own observation is unicast: give a machine to one started UI machine
/// only. A second one observing the same machine directly gets no states, and the
/// machine reports the misuse in the package's log (see `setLogger`). To show one machine in several places,
/// build the UI machines from an `AsyncStateMachineFactory(lifecycle: .singleton)`.
@MainActor
@Observable
public final class UIStateMachine<UIState: Equatable, SuperEvent> {
    /// The machine's current state, mapped; changes only when the mapped value changes.
    public private(set) var state: UIState

    /// Sends an event to the machine and returns at once:
    /// `uiStateMachine.send(DidRequestLoading(id: "1"))`.
    @ObservationIgnored
    public nonisolated let send: @Sendable (any Event<SuperEvent>) -> Void

    /// Sends an event and returns once it is processed and its output (if any) has ended:
    /// `await uiStateMachine.sendAndWait(DidRequestLoading(id: "1"))`.
    @ObservationIgnored
    public nonisolated let sendAndWait: @Sendable (any Event<SuperEvent>) async -> Void

    /// The id of the machine this UI machine drives.
    @ObservationIgnored
    public nonisolated let stateMachineId: UUID

    /// Iterates the machine's states, maps them and hands them to `receive` until it
    /// returns false or the iteration ends.
    @ObservationIgnored
    private let observeStates: @MainActor (_ receive: @MainActor (UIState) -> Bool) async -> Void

    /// The machine's last known state, mapped (what `state` becomes once it caught up).
    @ObservationIgnored
    private let mappedLastKnownState: @MainActor () -> UIState

    /// Describes the machine's last known state.
    @ObservationIgnored
    private let describeLastKnownState: @MainActor () -> String

    /// Waits for the machine's lifecycle callbacks (see ``waitUntilCaughtUp()``).
    @ObservationIgnored
    private let lifecycleCallbacksDelivered: @Sendable () async -> Void

    /// The description of the state the machine is in (its `lastKnownState`, not mapped:
    /// `ElevatorIsClosed (persons: 2)`), for messages that name the state, such as why a
    /// command is refused. Not observable: read it when needed.
    public var machineStateDescription: String { describeLastKnownState() }

    /// The observing task, and the one being stopped (a new observation waits for it:
    /// a machine's own observation is unicast). Under a lock so that `deinit`, which is
    /// nonisolated, can cancel it.
    @ObservationIgnored
    private let observation = Lock(Observing())

    private struct Observing: Sendable {
        var task: Task<Void, Never>?
        var stopped: Task<Void, Never>?
        /// Identifies the current task, so that a stopped task that ends late does not
        /// clear its successor.
        var generation = 0
    }

    /// A UI machine over `asyncStateMachine`, whose UI state is its super state.
    public convenience init(asyncStateMachine: AsyncStateMachine<UIState, SuperEvent>) {
        self.init(asyncStateMachine: asyncStateMachine, mapping: { $0 })
    }

    /// A UI machine over `asyncStateMachine`, whose UI state is `mapping(superState)`.
    /// The mapping runs on the main actor, once at init and once per observed state.
    public convenience init<SuperState>(
        asyncStateMachine: AsyncStateMachine<SuperState, SuperEvent>,
        mapping: @escaping (SuperState) -> UIState
    ) {
        self.init(machine: asyncStateMachine, states: AnyStateSequence(asyncStateMachine), mapping: mapping)
    }

    /// A UI machine over a machine built by `asyncStateMachineFactory`, whose UI state is
    /// its super state. With a `.singleton` factory every UI machine shares one machine:
    /// all stay in sync, and one made later starts from the last state.
    public convenience init(asyncStateMachineFactory: AsyncStateMachineFactory<UIState, SuperEvent>) {
        self.init(asyncStateMachineFactory: asyncStateMachineFactory, mapping: { $0 })
    }

    /// A UI machine over a machine built by `asyncStateMachineFactory`, whose UI state is
    /// `mapping(superState)`.
    public convenience init<SuperState>(
        asyncStateMachineFactory: AsyncStateMachineFactory<SuperState, SuperEvent>,
        mapping: @escaping (SuperState) -> UIState
    ) {
        let built = asyncStateMachineFactory.build()
        self.init(machine: built.asyncStateMachine, states: built.erasedAsyncStateMachine, mapping: mapping)
    }

    private init<SuperState>(
        machine: AsyncStateMachine<SuperState, SuperEvent>,
        states: AnyStateSequence<SuperState>,
        mapping: @escaping (SuperState) -> UIState
    ) {
        self.state = mapping(machine.lastKnownState.superState)
        self.stateMachineId = machine.id
        self.send = { machine.send(event: $0) }
        self.sendAndWait = { await machine.sendAndWait(event: $0) }
        self.mappedLastKnownState = { mapping(machine.lastKnownState.superState) }
        self.describeLastKnownState = { "\(machine.lastKnownState)" }
        self.lifecycleCallbacksDelivered = { await machine.lifecycleCallbacksDelivered() }
        self.observeStates = { receive in
            for await state in states {
                guard receive(mapping(state.superState)) else { return }
            }
        }
    }

    deinit {
        observation.withLock { $0.task?.cancel() }
    }

    /// Whether the UI machine is observing its machine (``start()`` was called, and
    /// neither ``stop()`` nor the end of the machine ended the observation since).
    public var isObserving: Bool {
        observation.withLock { $0.task != nil }
    }

    /// Starts observing the machine. Calling it while observing does nothing. The machine
    /// starts too (its initial state is committed), if it had not started yet.
    public func start() {
        observation.withLock { observing in
            guard observing.task == nil else { return }
            let stopped = observing.stopped
            observing.stopped = nil
            observing.generation += 1
            let generation = observing.generation
            observing.task = Task { [weak self, observeStates] in
                await stopped?.value
                await observeStates { [weak self] value in
                    // A stopped observation assigns nothing more, even a state in flight.
                    guard let self, !Task.isCancelled else { return false }
                    self.apply(value)
                    return true
                }
                self?.observationEnded(generation: generation)
            }
        }
    }

    /// Stops observing; ``start()`` carries on from where observation stopped. The machine
    /// keeps running and events can still be sent.
    public func stop() {
        observation.withLock { observing in
            guard let task = observing.task else { return }
            task.cancel()
            observing.task = nil
            observing.stopped = task
        }
    }

    /// Whether `state` shows the machine's last known state (mapped). Not observable by
    /// itself: read it together with `state`, as ``waitUntilCaughtUp()`` does.
    public var isCaughtUp: Bool { state == mappedLastKnownState() }

    /// Returns once `state` shows the machine's last known state (at once when the UI
    /// machine is not observing: nothing would catch up) and the machine's lifecycle
    /// callbacks for it have run (what they record, such as a dump's records, is there).
    /// Use it after `sendAndWait` to know that what the machine did is what `state` shows.
    public func waitUntilCaughtUp() async {
        await waitUntil { [self] in !isObserving || isCaughtUp }
        await lifecycleCallbacksDelivered()
    }

    /// Assigns `value` when it differs from the current state.
    func apply(_ value: UIState) {
        if value != state { state = value }
    }

    /// The observation of `generation` ended (the machine finished, or it was stopped).
    private func observationEnded(generation: Int) {
        observation.withLock { observing in
            if observing.generation == generation { observing.task = nil }
        }
    }
}
