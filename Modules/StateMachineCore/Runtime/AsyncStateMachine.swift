import StateMachineSupport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A running state machine: an `AsyncSequence` of its states.
///
/// Commands run independently from observation. Events are processed one at a time, in the
/// order they were accepted; outputs run concurrently and the events they produce join the
/// same queue. You may send events before anyone observes: the initial state and every
/// committed state are buffered for the single observer, so it sees them all, in order.
///
/// ```swift
/// let machine = AsyncStateMachine(stateMachine: definition)
/// machine.send(event: DidRequestLoading(id: "42"))
/// for await state in machine { print(state) }
/// ```
///
/// Observation is unicast: one live iterator at a time. A second iterator created while
/// another is live finishes at once (it yields nothing) and the misuse is reported in the
/// package's log (the system log; `STATE_MACHINE_LOG=stderr` prints it); once the first iterator is released, returns nil or has its task
/// cancelled, a new one carries on with the states not yet consumed. Cancelling the
/// observing task ends only the observation, never the machine or its outputs.
///
/// Releasing the machine finishes it: accepted events are still processed, outputs are
/// cancelled, then `onDeinit` handlers run.
public final class AsyncStateMachine<SuperState, SuperEvent>: AsyncSequence, Sendable {
    /// Any state of the machine.
    public typealias AnyState = any State<SuperState>
    /// Any event of the machine.
    public typealias AnyEvent = any Event<SuperEvent>
    /// The states the machine goes through, starting with the initial one.
    public typealias Element = AnyState
    /// Observation never fails.
    public typealias Failure = Never

    /// A unique id, handed to lifecycle callbacks.
    public var id: UUID { core.id }
    /// The definition this machine runs.
    public var stateMachine: StateMachine<SuperState, SuperEvent> { core.definition }
    /// The last committed state the machine has published (the initial state before any
    /// transition). It may be ahead of what the observer has consumed. It is up to date
    /// whenever states are handed to the observer (after each pass over the queued events,
    /// and every 256 transitions within one), when a `sendAndWait` returns, and when an
    /// output starts; in between, during a long burst, it may lag the drainer by up to 256
    /// transitions.
    public var lastKnownState: AnyState { core.shared.withLock { $0.lastKnownState } }

    @usableFromInline let core: MachineCore<SuperState, SuperEvent>

    /// A machine that runs `stateMachine`. It starts lazily, on the first event, observation
    /// or `finish`.
    public init(stateMachine: StateMachine<SuperState, SuperEvent>) {
        self.core = MachineCore(id: UUID(), definition: stateMachine)
    }

    /// A machine declared with the DSL.
    public convenience init(
        initial: some State<SuperState>,
        @StateMachineBuilder<SuperState, SuperEvent> builder: () -> [When<SuperState, SuperEvent>]
    ) {
        self.init(stateMachine: StateMachine(initial: initial, builder: builder))
    }

    deinit {
        core.abort()
    }

    // MARK: Sending events

    /// Queues `event` and returns at once. An event sent after `finish()` is dropped.
    @inlinable
    public func send(event: any Event<SuperEvent>) {
        core.enqueue(event)
    }

    /// Queues `event` and returns once it is processed, the output it started (if any) has
    /// ended, and the events that output produced have been processed. Returns at once when
    /// the machine is finished.
    public func sendAndWait(event: any Event<SuperEvent>) async {
        await sendAndWait(event: event, until: .outputFinished)
    }

    /// Queues `event` and returns once `until` is reached. Cancelling the caller ends only
    /// the caller's wait: the event stays queued and its output runs as usual.
    @inlinable
    public func sendAndWait(event: any Event<SuperEvent>, until: SendCompletion) async {
        let completion = Latch()
        core.enqueue(event, completion: completion, until: until)
        await completion.wait()
    }

    // MARK: Finishing

    /// Stops accepting events. Events already accepted are still processed in order; then
    /// every output is cancelled and the state sequence ends after its buffered states.
    public func finish() {
        core.finish()
    }

    /// ``finish()``, then waits until the machine has shut down: every output task has
    /// exited (even one that ignores cancellation) and lifecycle callbacks are delivered.
    public func finishAndWait() async {
        core.finish()
        await core.waitForTermination()
    }

    // MARK: Observing

    /// A unicast iterator over the machine's states; it also starts the machine.
    @inlinable
    public func makeAsyncIterator() -> Iterator {
        core.start()
        let lease = core.acquireLease()
        if lease == nil { reportSecondIterator() }
        return Iterator(machine: self, lease: lease.map { Lease(core: core, id: $0) })
    }

    @usableFromInline
    func reportSecondIterator() {
        Diagnostics.report(
            "AsyncStateMachine<\(SuperState.self), \(SuperEvent.self)> \(id) already has a live iterator; "
                + "this second iterator finishes at once. Share the machine with `share(replayCount:)` "
                + "or `AsyncStateMachineFactory(lifecycle: .singleton)` to observe it more than once."
        )
    }

    /// The iterator of an ``AsyncStateMachine``; it keeps the machine alive while it lives.
    public struct Iterator: AsyncIteratorProtocol {
        @usableFromInline let machine: AsyncStateMachine
        @usableFromInline let lease: Lease?

        @inlinable
        init(machine: AsyncStateMachine, lease: Lease?) {
            self.machine = machine
            self.lease = lease
        }

        /// The next state, or nil once the machine has finished and every state has been
        /// consumed, or when the observing task is cancelled.
        @inlinable
        public nonisolated(nonsending) mutating func next() async -> AnyState? {
            guard let lease else { return nil }
            return await lease.next()
        }

        /// The next state, on the caller's actor: what `for await` calls. Without it the
        /// loop would reach ``next()`` through the protocol's default, which hops to the
        /// global executor and back for every state.
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async -> AnyState? {
            guard let lease else { return nil }
            return await lease.next()
        }
    }

    /// The right to observe, released when the iterator that holds it is released.
    ///
    /// It takes every buffered state in one go and hands them out without locking; states
    /// it holds when its observation ends early (its task is cancelled, its iterator is
    /// released) go back to the front of the buffer, so the next iterator carries on
    /// exactly where this one stopped. Only the iterating task touches it.
    @usableFromInline
    final class Lease {
        @usableFromInline let core: MachineCore<SuperState, SuperEvent>
        @usableFromInline let id: Int
        @usableFromInline var taken: [AnyState] = []
        @usableFromInline var position = 0

        @inlinable
        init(core: MachineCore<SuperState, SuperEvent>, id: Int) {
            self.core = core
            self.id = id
        }

        @inlinable
        nonisolated(nonsending) func next() async -> AnyState? {
            if Task.isCancelled {
                giveBack()
                return nil
            }
            if position < taken.count {
                defer { position += 1 }
                return taken[position]
            }
            taken.removeAll(keepingCapacity: true)
            position = 0
            if core.takeStates(lease: id, into: &taken) {
                position = 1
                return taken[0]
            }
            return await core.nextState(lease: id)
        }

        /// Returns the states not handed out yet and ends the lease.
        @inlinable
        func giveBack() {
            core.releaseLease(id, returning: taken[position...])
            taken.removeAll()
            position = 0
        }

        @inlinable
        deinit { giveBack() }
    }
}

extension AsyncStateMachine {
    /// Registers a handler for every lifecycle event (the initial state, then each
    /// transition). Events are delivered in lifecycle order; handlers registered for the
    /// same event run concurrently. The machine does not wait for handlers.
    @discardableResult
    public func onLifecycleEvent(
        block: @escaping @Sendable (LifecycleEvent<SuperState, SuperEvent>) async -> Void
    ) -> Self {
        onInitialState { id, state in await block(.initialState(id: id, state: state)) }
        onTransition { id, state, event, newState in
            await block(.transition(id: id, state: state, event: event, newState: newState))
        }
        return self
    }

    /// Registers a handler for the initial state, delivered before any transition.
    @discardableResult
    public func onInitialState(_ block: @escaping @Sendable (UUID, AnyState) async -> Void) -> Self {
        core.addHooks { $0.initialState.append(block) }
        return self
    }

    /// Registers a handler for every transition: `(id, currentState, event, newState)`.
    @discardableResult
    public func onTransition(_ block: @escaping @Sendable (UUID, AnyState, AnyEvent, AnyState) async -> Void) -> Self {
        core.addHooks { $0.transition.append(block) }
        return self
    }

    /// Registers a handler called once, after every other lifecycle callback, when the
    /// machine is released.
    @discardableResult
    public func onDeinit(_ block: @escaping @Sendable (UUID) async -> Void) -> Self {
        core.addHooks { $0.deinitialization.append(block) }
        return self
    }

    /// Returns once the lifecycle callbacks (``onInitialState(_:)``, ``onTransition(_:)``)
    /// of every state the machine committed before the call have run, so that what they
    /// record (a dump's records, for instance) is there. The machine never waits for its
    /// callbacks; this is for a caller that must see their effect, such as a piped run that
    /// prints a dump after each command. Returns at once when no callback is registered.
    public func lifecycleCallbacksDelivered() async {
        await core.lifecycleCallbacksDelivered()
    }

    /// Turns transition logging off for this machine.
    @discardableResult
    public func disableLog() -> Self {
        core.isLogEnabled.store(false, ordering: .relaxed)
        return self
    }
}
