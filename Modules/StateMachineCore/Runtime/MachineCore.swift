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
/// pass.
final class MachineCore<SuperState, SuperEvent>: @unchecked Sendable {
    // @unchecked Sendable: every stored property is immutable and Sendable, or protected by
    // a Mutex, except `currentState` and `spareQueue`, which only the drainer touches. At
    // most one drainer exists at a time: it is started by whoever flips `isDraining` from
    // false to true under the `mailbox` lock and it flips it back under the same lock
    // before it exits, so successive drainers are ordered by that lock.

    typealias AnyState = any State<SuperState>
    typealias AnyEvent = any Event<SuperEvent>

    enum Command {
        case start
        case event(AnyEvent, completion: Latch?, until: SendCompletion)
        case finish
    }

    struct Mailbox {
        var queue: [Command] = []
        var isDraining = false
        var isStarted = false
        var isClosed = false
    }

    struct Hooks {
        var initialState: [@Sendable (UUID, AnyState) async -> Void] = []
        var transition: [@Sendable (UUID, AnyState, AnyEvent, AnyState) async -> Void] = []
        var deinitialization: [@Sendable (UUID) async -> Void] = []
    }

    let id: UUID
    let definition: StateMachine<SuperState, SuperEvent>
    let mailbox = Lock(Mailbox())
    let hooks = Lock(Hooks())
    let lastKnownState: Lock<AnyState>
    let isLogEnabled = Atomic(true)
    let states = StateChannel<AnyState>()
    let outputs = OutputSupervisor<SuperState, SuperEvent>()
    let lifecycle = SerialJobQueue()
    let terminal = Latch()

    /// Drainer-owned: the state of the machine.
    private var currentState: AnyState
    /// Drainer-owned: the array the queue is swapped with, so batches reuse their storage.
    private var spareQueue: [Command] = []

    init(id: UUID, definition: StateMachine<SuperState, SuperEvent>) {
        self.id = id
        self.definition = definition
        self.currentState = definition.initial
        self.lastKnownState = Lock(definition.initial)
    }

    // MARK: Accepting commands

    /// Queues an event. Returns false, and opens `completion`, when the machine no longer
    /// accepts events.
    @discardableResult
    func enqueue(_ event: AnyEvent, completion: Latch? = nil, until: SendCompletion = .outputFinished) -> Bool {
        let (accepted, startDrainer) = mailbox.withLock { mailbox -> (Bool, Bool) in
            guard !mailbox.isClosed else { return (false, false) }
            if !mailbox.isStarted {
                mailbox.isStarted = true
                mailbox.queue.append(.start)
            }
            mailbox.queue.append(.event(event, completion: completion, until: until))
            return (true, Self.claimDrainer(&mailbox))
        }
        if startDrainer { spawnDrainer() }
        if !accepted { completion?.open() }
        return accepted
    }

    /// Starts the machine (emits the initial state) if it has not started yet.
    func start() {
        let startDrainer = mailbox.withLock { mailbox -> Bool in
            guard !mailbox.isStarted else { return false }
            mailbox.isStarted = true
            mailbox.queue.append(.start)
            return Self.claimDrainer(&mailbox)
        }
        if startDrainer { spawnDrainer() }
    }

    /// Stops accepting events; the events already accepted are still processed, then the
    /// machine shuts down.
    func finish() {
        let startDrainer = mailbox.withLock { mailbox -> Bool in
            guard !mailbox.isClosed else { return false }
            mailbox.isClosed = true
            if !mailbox.isStarted {
                mailbox.isStarted = true
                mailbox.queue.append(.start)
            }
            mailbox.queue.append(.finish)
            return Self.claimDrainer(&mailbox)
        }
        if startDrainer { spawnDrainer() }
    }

    /// Called when the owning `AsyncStateMachine` is released: finishes the machine (so
    /// hooks still see the initial state) and delivers `onDeinit` after everything else.
    func abort() {
        let (hasHooks, deinitHooks) = hooks.withLock { hooks in
            (!hooks.initialState.isEmpty || !hooks.transition.isEmpty, hooks.deinitialization)
        }
        let isStarted = mailbox.withLock { $0.isStarted }
        if isStarted || hasHooks || !deinitHooks.isEmpty {
            finish()
        }
        guard !deinitHooks.isEmpty else { return }
        let (id, terminal, lifecycle) = (self.id, self.terminal, self.lifecycle)
        Task {
            await terminal.wait()
            lifecycle.enqueue { await Self.runConcurrently(deinitHooks) { await $0(id) } }
            await lifecycle.drained()
        }
    }

    private static func claimDrainer(_ mailbox: inout Mailbox) -> Bool {
        guard !mailbox.isDraining else { return false }
        mailbox.isDraining = true
        return true
    }

    private func spawnDrainer() {
        Task { await self.drain() }
    }

    // MARK: Processing commands

    private func drain() async {
        while true {
            var batch = spareQueue
            let isEmpty = mailbox.withLock { mailbox -> Bool in
                if mailbox.queue.isEmpty {
                    mailbox.isDraining = false
                    return true
                }
                swap(&batch, &mailbox.queue)
                return false
            }
            if isEmpty { return }
            for command in batch {
                await process(command)
            }
            batch.removeAll(keepingCapacity: true)
            spareQueue = batch
        }
    }

    private func process(_ command: Command) async {
        switch command {
        case .start:
            let initial = currentState
            states.push(initial)
            let hooks = self.hooks.withLock { $0.initialState }
            if !hooks.isEmpty {
                let id = self.id
                lifecycle.enqueue { await Self.runConcurrently(hooks) { await $0(id, initial) } }
            }
        case .event(let event, let completion, let until):
            await process(event, completion: completion, until: until)
        case .finish:
            await outputs.cancelAllAndWait()
            states.finish()
            await lifecycle.drained()
            terminal.open()
        }
    }

    private func process(_ event: AnyEvent, completion: Latch?, until: SendCompletion) async {
        let current = currentState
        let mealyTransition = await definition.resolve(state: current, event: event)
        let newState = await mealyTransition?.transition?.makeState()
        await outputs.cancel(matching: current, event, newState)
        if let newState {
            currentState = newState
            lastKnownState.withLock { $0 = newState }
            states.push(newState)
            await log(current, event, newState)
            let hooks = self.hooks.withLock { $0.transition }
            if !hooks.isEmpty {
                let id = self.id
                lifecycle.enqueue {
                    await Self.runConcurrently(hooks) { await $0(id, current, event, newState) }
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

    private func log(_ current: AnyState, _ event: AnyEvent, _ new: AnyState) async {
        guard isLogEnabled.load(ordering: .relaxed), let logger = Logging.logger.withLock({ $0 }) else { return }
        await logger(String(describing: SuperState.self), current, event, new)
    }

    /// Runs `body` for every handler, concurrently, and returns when all have finished.
    static func runConcurrently<Handler: Sendable>(
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
}
