#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// The runtime behind an ``AsyncStateMachine``: the command queue, the single command
/// drainer, the output supervisor and the observation channel.
///
/// It holds no reference to its `AsyncStateMachine`, so a running machine does not keep its
/// owner alive. Commands are processed one at a time, in acceptance order, by a drainer
/// task that exists only while commands are queued and takes every queued command in one
/// pass. The hot paths are `@inlinable` so that they are specialised for the user's state
/// and event types in the user's module.
@usableFromInline
final class MachineCore<SuperState, SuperEvent>: @unchecked Sendable {
    // @unchecked Sendable: every stored property is immutable and Sendable, or protected by
    // a Lock, except `currentState` and `spareQueue`, which only the drainer touches. At
    // most one drainer exists at a time: it is started by whoever flips `isDraining` from
    // false to true under the `shared` lock, and it flips it back under the same lock
    // before it exits, so successive drainers are ordered by that lock.

    @usableFromInline typealias AnyState = any State<SuperState>
    @usableFromInline typealias AnyEvent = any Event<SuperEvent>

    @usableFromInline
    enum Command: Sendable {
        case start
        case event(AnyEvent, completion: Latch?, until: SendCompletion)
        case finish
    }

    /// Everything other threads read or write, under one lock.
    @usableFromInline
    struct Shared: Sendable {
        @usableFromInline var queue: [Command] = []
        @usableFromInline var isDraining = false
        @usableFromInline var isStarted = false
        @usableFromInline var isClosed = false
        @usableFromInline var lastKnownState: AnyState
        @usableFromInline var initialStateHooks: [@Sendable (UUID, AnyState) async -> Void] = []
        @usableFromInline var transitionHooks: [@Sendable (UUID, AnyState, AnyEvent, AnyState) async -> Void] = []
        @usableFromInline var deinitHooks: [@Sendable (UUID) async -> Void] = []

        @usableFromInline
        init(lastKnownState: AnyState) {
            self.lastKnownState = lastKnownState
        }

        /// Claims the right to start the drainer; true when the caller must start it.
        @inlinable
        mutating func claimDrainer() -> Bool {
            guard !isDraining else { return false }
            isDraining = true
            return true
        }
    }

    @usableFromInline let id: UUID
    @usableFromInline let definition: StateMachine<SuperState, SuperEvent>
    @usableFromInline let shared: Lock<Shared>
    @usableFromInline let isLogEnabled = Atomic(true)
    @usableFromInline let states = StateChannel<AnyState>()
    @usableFromInline let outputs = OutputSupervisor<SuperState, SuperEvent>()
    @usableFromInline let lifecycle = SerialJobQueue()
    @usableFromInline let terminal = Latch()

    /// Drainer-owned: the state of the machine.
    @usableFromInline var currentState: AnyState
    /// Drainer-owned: the array the queue is swapped with, so batches reuse their storage.
    @usableFromInline var spareQueue: [Command] = []
    /// Drainer-owned: states committed in the current pass, not yet handed to the observer.
    /// A pass publishes its states together: one hand-over, one wake-up of the observer.
    @usableFromInline var pendingStates: [AnyState] = []

    @usableFromInline
    init(id: UUID, definition: StateMachine<SuperState, SuperEvent>) {
        self.id = id
        self.definition = definition
        self.currentState = definition.initial
        self.shared = Lock(Shared(lastKnownState: definition.initial))
    }

    // MARK: Accepting commands

    /// Queues an event. Returns false, and opens `completion`, when the machine no longer
    /// accepts events.
    @inlinable
    @discardableResult
    func enqueue(_ event: AnyEvent, completion: Latch? = nil, until: SendCompletion = .outputFinished) -> Bool {
        let (accepted, startDrainer) = shared.withLock { shared -> (Bool, Bool) in
            guard !shared.isClosed else { return (false, false) }
            if !shared.isStarted {
                shared.isStarted = true
                shared.queue.append(.start)
            }
            shared.queue.append(.event(event, completion: completion, until: until))
            return (true, shared.claimDrainer())
        }
        if startDrainer { spawnDrainer() }
        if !accepted { completion?.open() }
        return accepted
    }

    /// Starts the machine (emits the initial state) if it has not started yet.
    @inlinable
    func start() {
        let startDrainer = shared.withLock { shared -> Bool in
            guard !shared.isStarted else { return false }
            shared.isStarted = true
            shared.queue.append(.start)
            return shared.claimDrainer()
        }
        if startDrainer { spawnDrainer() }
    }

    /// Stops accepting events; the events already accepted are still processed, then the
    /// machine shuts down.
    @inlinable
    func finish() {
        let startDrainer = shared.withLock { shared -> Bool in
            guard !shared.isClosed else { return false }
            shared.isClosed = true
            if !shared.isStarted {
                shared.isStarted = true
                shared.queue.append(.start)
            }
            shared.queue.append(.finish)
            return shared.claimDrainer()
        }
        if startDrainer { spawnDrainer() }
    }

    /// Called when the owning `AsyncStateMachine` is released: finishes the machine (so
    /// hooks still see the initial state) and delivers `onDeinit` after everything else.
    @inlinable
    func abort() {
        let (mustFinish, deinitHooks) = shared.withLock { shared in
            let hasHooks = !shared.initialStateHooks.isEmpty || !shared.transitionHooks.isEmpty
            return (shared.isStarted || hasHooks || !shared.deinitHooks.isEmpty, shared.deinitHooks)
        }
        if mustFinish { finish() }
        guard !deinitHooks.isEmpty else { return }
        let (id, terminal, lifecycle) = (self.id, self.terminal, self.lifecycle)
        Task {
            await terminal.wait()
            lifecycle.enqueue { await runConcurrently(deinitHooks) { await $0(id) } }
            await lifecycle.drained()
        }
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
            let isEmpty = shared.withLock { shared -> Bool in
                if shared.queue.isEmpty {
                    if !mayYield { shared.isDraining = false }
                    return true
                }
                swap(&batch, &shared.queue)
                return false
            }
            if isEmpty {
                // Before giving the drainer up, let a sender that is still producing catch
                // up once: restarting a drainer per event is what a burst must avoid.
                guard mayYield else { return }
                mayYield = false
                await Task.yield()
                continue
            }
            mayYield = true
            for command in batch {
                await process(command)
            }
            publishPendingStates()
            batch.removeAll(keepingCapacity: true)
            spareQueue = batch
        }
    }

    @inlinable
    func process(_ command: Command) async {
        switch command {
        case .event(let event, let completion, let until):
            await process(event, completion: completion, until: until)
        case .start:
            let initial = currentState
            pendingStates.append(initial)
            let hooks = shared.withLock { $0.initialStateHooks }
            if !hooks.isEmpty {
                let id = self.id
                lifecycle.enqueue { await runConcurrently(hooks) { await $0(id, initial) } }
            }
        case .finish:
            publishPendingStates()
            await outputs.cancelAllAndWait()
            states.finish()
            await lifecycle.drained()
            terminal.open()
        }
    }

    @inlinable
    func process(_ event: AnyEvent, completion: Latch?, until: SendCompletion) async {
        let current = currentState
        let mealyTransition = await definition.resolve(state: current, event: event)
        let newState = await mealyTransition?.transition?.makeState()
        await outputs.cancel(matching: current, event, newState)
        if let newState {
            currentState = newState
            let hooks = shared.withLock { shared in
                shared.lastKnownState = newState
                return shared.transitionHooks
            }
            pendingStates.append(newState)
            if pendingStates.count >= 256 { publishPendingStates() }
            if isLogEnabled.load(ordering: .relaxed) {
                await log(current, event, newState)
            }
            if !hooks.isEmpty {
                let id = self.id
                lifecycle.enqueue {
                    await runConcurrently(hooks) { await $0(id, current, event, newState) }
                }
            }
        }
        guard let output = mealyTransition?.output else {
            completion?.open()
            return
        }
        if until == .transitionCommitted { completion?.open() }
        outputs.start(
            output,
            feed: { [weak self] event in self?.enqueue(event) ?? false },
            completion: until == .outputFinished ? completion : nil
        )
    }

    @inlinable
    func publishPendingStates() {
        guard !pendingStates.isEmpty else { return }
        states.push(contentsOf: pendingStates)
        pendingStates.removeAll(keepingCapacity: true)
    }

    @usableFromInline
    func log(_ current: AnyState, _ event: AnyEvent, _ new: AnyState) async {
        guard let logger = Logging.logger.withLock({ $0 }) else { return }
        await logger(String(describing: SuperState.self), current, event, new)
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
