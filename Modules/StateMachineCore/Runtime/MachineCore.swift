import StateMachineSupport
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The runtime behind an ``AsyncStateMachine``: the command queue, the single command
/// drainer, the supervised outputs and the observation buffer.
///
/// It holds no reference to its `AsyncStateMachine`, so a running machine does not keep its
/// owner alive. Commands are processed one at a time, in acceptance order, by a drainer
/// task that exists only while commands are queued and takes every queued command in one
/// pass. Everything other tasks touch lives under one lock (a machine costs one lock and
/// one allocation for it). The hot paths are `@inlinable` so that they are specialised for
/// the user's state and event types in the user's module.
@usableFromInline
final class MachineCore<SuperState, SuperEvent>: @unchecked Sendable {
    // @unchecked Sendable: every stored property is immutable and Sendable, or protected by
    // the `shared` lock, except the drainer-owned properties (`currentState`, `spareQueue`,
    // `pendingStates`, `midPassWakeInterval`, `lastMidPassWake`, `isObserverBehind`), which only
    // the holder of the drainer role touches. At most one holds it at a time: whoever claims
    // it in the lifecycle under the `shared` lock (a `MachineLifecycle` move that returns
    // `startDrainer` or `emitInitialState`; it then starts the drainer task, or, in `start()`,
    // emits the initial state itself, or, in the task of an output whose side effect
    // returned the event that claimed it, drains there once the side effect has ended), and
    // it gives it back under the same lock when done, so successive holders are ordered by
    // that lock.

    @usableFromInline typealias AnyState = any State<SuperState>
    @usableFromInline typealias AnyEvent = any Event<SuperEvent>

    @usableFromInline
    enum Command: Sendable {
        case start
        case event(AnyEvent, completion: Latch?, until: SendCompletion)
        /// Opens a latch once every command queued before it has been processed.
        case signal(Latch)
        case finish
    }

    /// A running output: its task, and the policy that may cancel it.
    @usableFromInline
    struct OutputRecord: Sendable {
        @usableFromInline let task: Task<Void, Never>
        @usableFromInline let cancellationPolicy: Cancel<SuperState, SuperEvent>?

        @inlinable
        init(task: Task<Void, Never>, cancellationPolicy: Cancel<SuperState, SuperEvent>?) {
            self.task = task
            self.cancellationPolicy = cancellationPolicy
        }
    }

    /// Everything other tasks read or write, under one lock.
    @usableFromInline
    struct Shared: Sendable {
        // Commands
        @usableFromInline var queue: [Command] = []
        @usableFromInline var lastKnownState: AnyState
        // Lifecycle: the phase and the drainer role, moved only by its transitions.
        @usableFromInline var lifecycle = MachineLifecycle()
        @usableFromInline var hooks: Hooks?
        @usableFromInline var terminal: Latch?
        // Observation: every committed state, unbounded, until the observer consumes it.
        @usableFromInline var states: [AnyState] = []
        @usableFromInline var statesHead = 0
        @usableFromInline var observer: UnsafeContinuation<AnyState?, Never>?
        /// Not a phase of the lifecycle: a composite ends its child's observation before it
        /// starts the child.
        @usableFromInline var isObservationFinished = false
        @usableFromInline var leaseHolder: Int?
        @usableFromInline var nextLease = 0
        // Outputs, until their side effect has really ended.
        @usableFromInline var outputs: [Int: OutputRecord] = [:]
        @usableFromInline var nextOutputID = 0

        @usableFromInline
        init(lastKnownState: AnyState) {
            self.lastKnownState = lastKnownState
        }

        /// Queues `command` as the lifecycle's move `action` says (behind a `.start` when the
        /// machine had not started); true when the caller claimed the drainer role and must
        /// start the drainer.
        @inlinable
        mutating func append(_ command: Command, as action: MachineLifecycle.CommandAction) -> Bool {
            guard case .queue(let startFirst, let startDrainer) = action else { return false }
            if startFirst { queue.append(.start) }
            queue.append(command)
            return startDrainer
        }
    }

    /// Lifecycle handlers, and the queue that delivers them in order (allocated with the
    /// first handler, so that machines without handlers do not pay for them).
    @usableFromInline
    struct Hooks: Sendable {
        @usableFromInline let delivery = SerialJobQueue()
        @usableFromInline var initialState: [@Sendable (UUID, AnyState) async -> Void] = []
        @usableFromInline var transition: [@Sendable (UUID, AnyState, AnyEvent, AnyState) async -> Void] = []
        @usableFromInline var deinitialization: [@Sendable (UUID) async -> Void] = []

        @usableFromInline init() {}
    }

    @usableFromInline let id: UUID
    @usableFromInline let definition: StateMachine<SuperState, SuperEvent>
    @usableFromInline let shared: Lock<Shared>
    @usableFromInline let isLogEnabled = Atomic(true)
    /// Whether lifecycle handlers were registered: until then a transition takes no lock
    /// to look for them.
    @usableFromInline let hasHooks = Atomic(false)
    /// How many running outputs have a cancellation policy: while there are none, an event
    /// takes no lock to look for outputs to cancel. Only the drainer increments it (when it
    /// starts such an output), so the drainer never reads it too low.
    @usableFromInline let cancellableOutputCount = Atomic(0)
    /// The composites' runtime; nil when the definition declares none.
    @usableFromInline let composites: CompositeCoordinator<SuperState, SuperEvent>?

    // Drainer-owned (see the type's invariant): only the one drainer touches these, so
    // Swift's run-time exclusivity checks (a runtime call per access) are switched off.

    /// Drainer-owned: the state of the machine.
    @usableFromInline @exclusivity(unchecked) var currentState: AnyState
    /// Drainer-owned: the array the queue is swapped with, so batches reuse their storage.
    @usableFromInline @exclusivity(unchecked) var spareQueue: [Command] = []
    /// Drainer-owned: states committed in the current pass, not yet handed to the observer.
    /// A pass publishes its states together: one hand-over, one wake-up of the observer.
    @usableFromInline @exclusivity(unchecked) var pendingStates: [AnyState] = []
    /// How long a publication within a pass waits after the previous one that woke the
    /// observer before it wakes the observer again. Drainer-owned; tests change it before the
    /// machine's first command.
    @usableFromInline @exclusivity(unchecked) var midPassWakeInterval = Duration.milliseconds(1)
    /// Drainer-owned: when a publication within a pass last woke the observer.
    @usableFromInline @exclusivity(unchecked) var lastMidPassWake = ContinuousClock.Instant.now
    /// Drainer-owned: a publication within the pass left states in the buffer without
    /// waking the observer; the end of the pass must publish even if nothing else is pending.
    @usableFromInline @exclusivity(unchecked) var isObserverBehind = false
    /// Drainer-owned: the pass started an output whose side effect returns one event
    /// (`Output.Body.emitsOnlyAtEnd`). Its task processes that event itself if it finds the
    /// machine idle, so the pass gives the role up at once instead of yielding for it.
    @usableFromInline @exclusivity(unchecked) var startedReturningOutput = false

    @usableFromInline
    init(id: UUID, definition: StateMachine<SuperState, SuperEvent>) {
        self.id = id
        self.definition = definition
        self.currentState = definition.initial
        let shared = Lock(Shared(lastKnownState: definition.initial))
        self.shared = shared
        if definition.composites.isEmpty {
            self.composites = nil
        } else {
            // Raising goes through a weak reference: the coordinator must not keep its
            // parent alive, and after shutdown the parent rejects events anyway.
            let box = WeakBox<MachineCore>()
            self.composites = CompositeCoordinator(definitions: definition.composites) { event in
                box.value?.enqueue(event)
            }
            box.value = self
        }
    }

    // MARK: Accepting commands

    /// Queues an event. Returns false, and opens `completion`, when the machine no longer
    /// accepts events.
    @inlinable
    @discardableResult
    func enqueue(_ event: AnyEvent, completion: Latch? = nil, until: SendCompletion = .outputFinished) -> Bool {
        let (accepted, claimedDrainer) = accept(event, completion: completion, until: until)
        if claimedDrainer { spawnDrainer() }
        if !accepted { completion?.open() }
        return accepted
    }

    /// Queues an event, starting nothing: whether the machine accepted it, and whether the
    /// caller claimed the drainer role (no drainer was running), which it must then use,
    /// with ``drain()`` or ``spawnDrainer()``.
    @inlinable
    func accept(_ event: AnyEvent, completion: Latch?, until: SendCompletion) -> (accepted: Bool, claimedDrainer: Bool)
    {
        shared.withLock { shared -> (Bool, Bool) in
            let action = shared.lifecycle.acceptEvent()
            let claimedDrainer = shared.append(.event(event, completion: completion, until: until), as: action)
            return (action != .reject, claimedDrainer)
        }
    }

    /// Opens `latch` once every command queued so far has been processed (at once when the
    /// machine no longer accepts commands).
    @inlinable
    func signalWhenProcessed(_ latch: Latch) {
        let (accepted, startDrainer) = shared.withLock { shared -> (Bool, Bool) in
            let action = shared.lifecycle.acceptSignal()
            return (action != .reject, shared.append(.signal(latch), as: action))
        }
        if startDrainer { spawnDrainer() }
        if !accepted { latch.open() }
    }

    /// Starts the machine (emits the initial state) if it has not started yet.
    ///
    /// When no drainer is running, the caller emits the initial state itself, holding the
    /// drainer role for that moment (claimed and given back under the lock, like a drainer):
    /// starting a machine by observing it then starts no task. A drainer task is started
    /// only if commands arrived meanwhile. The drainer task this saves is what an observed
    /// machine's memory grew by: every observer starting its machine started one, and the
    /// frames of the tasks that had exited stayed in the allocator's arenas as free fragments
    /// (see the "Speed and memory" article).
    @inlinable
    func start() {
        let action = shared.withLock { shared -> MachineLifecycle.StartAction in
            let action = shared.lifecycle.start()
            if action == .queueStart { shared.queue.append(.start) }
            return action
        }
        guard action == .emitInitialState else { return }
        emitInitialState()
        publishPendingStates()
        let startDrainer = shared.withLock { shared -> Bool in
            guard shared.queue.isEmpty else { return true }
            shared.lifecycle.drainerFoundQueueEmpty()
            return false
        }
        if startDrainer { spawnDrainer() }
    }

    /// Stops accepting events; the events already accepted are still processed, then the
    /// machine shuts down.
    @inlinable
    func finish() {
        let startDrainer = shared.withLock { shared -> Bool in
            shared.append(.finish, as: shared.lifecycle.finish())
        }
        if startDrainer { spawnDrainer() }
    }

    /// Waits until the machine has shut down.
    @usableFromInline
    func waitForTermination() async {
        let latch = shared.withLock { shared -> Latch? in
            if shared.lifecycle.isTerminated { return nil }
            if let terminal = shared.terminal { return terminal }
            let terminal = Latch()
            shared.terminal = terminal
            return terminal
        }
        await latch?.wait()
    }

    /// Called when the owning `AsyncStateMachine` is released: finishes the machine (so
    /// hooks still see the initial state) and delivers `onDeinit` after everything else.
    @usableFromInline
    func abort() {
        let (isStarted, hooks) = shared.withLock { ($0.lifecycle.isStarted, $0.hooks) }
        if isStarted || hooks != nil { finish() }
        guard let hooks, !hooks.deinitialization.isEmpty else { return }
        let id = self.id
        Task {
            await self.waitForTermination()
            hooks.delivery.enqueue { await runConcurrently(hooks.deinitialization) { await $0(id) } }
            await hooks.delivery.drained()
        }
    }

    /// Returns once the lifecycle callbacks of everything committed before the call have
    /// run (they are delivered in order, on a queue of their own); at once without any.
    func lifecycleCallbacksDelivered() async {
        guard let hooks = shared.withLock({ $0.hooks }) else { return }
        await hooks.delivery.drained()
    }

    /// Registers lifecycle handlers.
    @usableFromInline
    func addHooks(_ add: (inout Hooks) -> Void) {
        shared.withLock { shared in
            var hooks = shared.hooks ?? Hooks()
            add(&hooks)
            shared.hooks = hooks
        }
        hasHooks.store(true, ordering: .relaxed)
    }

    @inlinable
    func spawnDrainer() {
        Task { await self.drain() }
    }

    // MARK: Processing commands

    @inlinable
    func drain() async {
        var mayYield = true
        while true {
            var batch = spareQueue
            // Before giving the drainer up, a pass lets a sender that is still producing
            // catch up once (restarting a drainer per event is what a burst must avoid);
            // not when it started outputs that return an event, which process it themselves.
            let yields = mayYield && !startedReturningOutput
            startedReturningOutput = false
            let isEmpty = shared.withLock { shared -> Bool in
                if shared.queue.isEmpty {
                    if !yields { shared.lifecycle.drainerFoundQueueEmpty() }
                    return true
                }
                swap(&batch, &shared.queue)
                return false
            }
            if isEmpty {
                guard yields else { return }
                mayYield = false
                await Task.yield()
                continue
            }
            mayYield = true
            for index in batch.indices {
                // Moved out, not copied: the batch keeps a payload-free command in its place.
                var command = Command.start
                swap(&command, &batch[index])
                switch consume command {
                case .event(let event, let completion, let until):
                    switch processWithoutSuspending(event, completion: completion, until: until) {
                    case .nothing:
                        break
                    case .commit(let mealyTransition):
                        await commit(mealyTransition, from: currentState, event, completion: completion, until: until)
                    case .everything:
                        await process(event, completion: completion, until: until)
                    }
                case .start:
                    emitInitialState()
                case .signal(let latch):
                    open(latch)
                case .finish:
                    await shutDown()
                }
            }
            publishPendingStates()
            batch.removeAll(keepingCapacity: true)
            spareQueue = batch
        }
    }

    /// Buffers the initial state for the observer, starts the composites it owns and hands
    /// it to the lifecycle hooks.
    @usableFromInline
    func emitInitialState() {
        let initial = currentState
        pendingStates.append(initial)
        composites?.activate(for: initial, isLogEnabled: isLogEnabled.load(ordering: .relaxed))
        if let hooks = shared.withLock({ $0.hooks }), !hooks.initialState.isEmpty {
            let id = self.id
            hooks.delivery.enqueue { await runConcurrently(hooks.initialState) { await $0(id, initial) } }
        }
    }

    /// Resumes whoever waits on `latch` (a `sendAndWait`); the waiter may read
    /// `lastKnownState` as soon as it resumes, so that is brought up to date first.
    @inlinable
    func open(_ latch: Latch) {
        publishLastKnownState()
        latch.open()
    }

    @inlinable
    nonisolated(nonsending) func process(_ event: AnyEvent, completion: Latch?, until: SendCompletion) async {
        let current = currentState
        let mealyTransition = await definition.firstPassingRoute(state: current, event: event)?.transition
        await commit(mealyTransition, from: current, event, completion: completion, until: until)
    }

    /// Processes an event without suspending when nothing it involves can suspend: its
    /// routes are synchronous, its target is a value, no running output has a cancellation
    /// policy, the machine has no composites and logs nothing. Otherwise it does as much as
    /// it can without suspending and returns what is left for ``commit(_:from:_:completion:until:)``
    /// (or, when a route is asynchronous, nothing at all: the event then goes through
    /// ``process(_:completion:until:)``). The same steps, in the same order, as the
    /// asynchronous path: this is the burst's hot loop.
    @inlinable
    func processWithoutSuspending(_ event: AnyEvent, completion: Latch?, until: SendCompletion) -> Remainder {
        guard composites == nil else { return .everything }
        let current = currentState
        guard case .resolved(let mealyTransition) = definition.resolveWithoutSuspending(state: current, event: event)
        else { return .everything }
        var newState: AnyState?
        switch mealyTransition?.transition?.target {
        case .value(let state): newState = state
        case .factory: return .commit(mealyTransition)
        case nil: newState = nil
        }
        if cancellableOutputCount.load(ordering: .relaxed) > 0 { return .commit(mealyTransition) }
        if let newState {
            if isLogging { return .commit(mealyTransition) }
            adopt(newState)
            deliverTransition(from: current, event, to: newState)
        }
        endEvent(starting: mealyTransition?.output, completion: completion, until: until)
        return .nothing
    }

    /// What ``processWithoutSuspending(_:completion:until:)`` left to do.
    @usableFromInline
    enum Remainder {
        case nothing
        /// The route resolved to this transition; committing it needs to suspend.
        case commit(MealyTransition<SuperState, SuperEvent>?)
        /// Nothing ran.
        case everything
    }

    /// Performs a resolved transition: the new state, the outputs it cancels, the
    /// composites, the log, the lifecycle hooks, then its own output.
    @inlinable
    nonisolated(nonsending) func commit(
        _ mealyTransition: MealyTransition<SuperState, SuperEvent>?,
        from current: AnyState,
        _ event: AnyEvent,
        completion: Latch?,
        until: SendCompletion
    ) async {
        var newState: AnyState?
        switch mealyTransition?.transition?.target {
        case .value(let state): newState = state
        case .factory(let factory): newState = await factory()
        case nil: newState = nil
        }
        if cancellableOutputCount.load(ordering: .relaxed) > 0 {
            let cancellable = shared.withLock { Self.outputsWithCancellationPolicy(in: $0) }
            await cancel(cancellable, matching: current, event, newState)
        }
        if let composites { await composites.routeParentEvent(current, event) }
        if let newState {
            adopt(newState)
            if let composites {
                await composites.parentDidCommit(newState, isLogEnabled: isLogEnabled.load(ordering: .relaxed))
            }
            if isLogging {
                await log(current, event, newState)
            }
            deliverTransition(from: current, event, to: newState)
        }
        endEvent(starting: mealyTransition?.output, completion: completion, until: until)
    }

    /// Whether this machine logs its transitions: its log is on and a logger is installed.
    @inlinable
    var isLogging: Bool {
        isLogEnabled.load(ordering: .relaxed) && Logging.isInstalled.load(ordering: .relaxed)
    }

    /// Makes `newState` the current state; it joins the states the pass publishes.
    @inlinable
    func adopt(_ newState: AnyState) {
        currentState = newState
        pendingStates.append(newState)
        if pendingStates.count >= 256 { publishPendingStates(midPass: true) }
    }

    /// Hands a transition to the lifecycle hooks, if any.
    @inlinable
    func deliverTransition(from current: AnyState, _ event: AnyEvent, to newState: AnyState) {
        if hasHooks.load(ordering: .relaxed), let hooks = shared.withLock({ $0.hooks }), !hooks.transition.isEmpty {
            let id = self.id
            hooks.delivery.enqueue {
                await runConcurrently(hooks.transition) { await $0(id, current, event, newState) }
            }
        }
    }

    /// Ends an event's processing: starts its output, and opens its completion when the
    /// caller waits for no more (or when the output finishes).
    @inlinable
    func endEvent(starting output: Output<SuperState, SuperEvent>?, completion: Latch?, until: SendCompletion) {
        guard let output else {
            if let completion { open(completion) }
            return
        }
        if let completion, until == .transitionCommitted { open(completion) }
        startOutput(output, completion: until == .outputFinished ? completion : nil)
    }

    /// Shuts the machine down: every output is cancelled and awaited, observation ends
    /// after the buffered states, lifecycle callbacks are delivered, then waiters resume.
    @usableFromInline
    func shutDown() async {
        publishPendingStates()
        await composites?.deactivateAll()
        await cancelAllOutputsAndWait()
        finishObservation()
        if let hooks = shared.withLock({ $0.hooks }) {
            await hooks.delivery.drained()
        }
        let terminal = shared.withLock { shared -> Latch? in
            shared.lifecycle.didTerminate()
            return shared.terminal
        }
        terminal?.open()
    }

    @usableFromInline
    func log(_ current: AnyState, _ event: AnyEvent, _ new: AnyState) async {
        guard let logger = Logging.logger.withLock({ $0 }) else { return }
        await logger.log(String(describing: SuperState.self), current, event, new)
    }
}

/// Runs `body` for every handler, concurrently, and returns when all have finished.
@usableFromInline
func runConcurrently<Handler: Sendable>(
    _ handlers: [Handler],
    _ body: @escaping @Sendable (Handler) async -> Void
) async {
    if handlers.count == 1 {
        await body(handlers[0])
        return
    }
    await withTaskGroup(of: Void.self) { group in
        for handler in handlers {
            group.addTask { await body(handler) }
        }
    }
}
