/// Runs an ``SCXMLDocument`` with W3C SCXML semantics (the algorithm of the
/// specification's Appendix D, null data model): event-name prefix matching and `*`,
/// eventless transitions taken until the configuration is stable, an internal queue for
/// events raised during a step (processed before the next external event), SCXML
/// conflict resolution between parallel regions (document order; a transition whose
/// source is a descendant preempts), shallow and deep history, final states and
/// `done.state.<id>` events, and `<send>`/`<cancel>` with delays on an injected
/// ``StatechartClock``.
///
/// These semantics differ from ``Statechart``'s TBStateMachine semantics on purpose:
/// regions are exited in reverse document order, and transitions selected in several
/// regions are resolved by exit-set conflicts rather than "inner region handles first".
///
/// **Threads.** The interpreter is a thread-safe reference: any thread (and the clock's
/// timers) may call ``send(_:)``. Events go to one external queue and are processed one
/// macrostep at a time, in arrival order, by whichever caller finds the machine idle: that
/// caller runs every macrostep queued until the queue is empty, then returns. A caller that
/// finds another thread running macrosteps queues its event and returns at once; the
/// running thread processes it. So events are never dropped or reordered (while the
/// machine runs), and each thread's events keep their order.
///
/// **Delayed sends.** `<send delay="2s">` arms a timer on the clock; when it fires, the
/// event joins the external queue and is processed as its own macrostep. `<cancel>` and
/// the machine stopping (a top-level `<final>`, a failed macrostep) cancel it; a timer
/// that fires anyway is recognised as stale (its send is no longer pending) and delivers
/// nothing.
///
/// ```swift
/// let clock = ManualStatechartClock()
/// let machine = SCXMLInterpreter(document: try SCXMLDocument(xml: text), clock: clock)
/// try machine.start()
/// try machine.send("t")
/// clock.advance(by: .seconds(2))        // delayed sends due by then are processed
/// print(machine.activeAtomicStates)
/// ```
public final class SCXMLInterpreter: Sendable {
    /// Per-machine settings.
    public struct Options: Sendable, Equatable {
        /// The most microsteps one macrostep may take before it fails with
        /// ``SCXMLError/microstepLimit(limit:cycle:)`` (the loop guard against eventless
        /// transitions or raised events that never settle). Default 1000; at least 1.
        public var maxMicrosteps: Int

        /// Options with the given loop guard (values below 1 count as 1).
        public init(maxMicrosteps: Int = 1000) {
            self.maxMicrosteps = max(1, maxMicrosteps)
        }
    }

    /// Called after every macrostep with its trace (as in ``trace``), on the thread that
    /// ran it, outside the machine's lock and in macrostep order. It may read the machine
    /// and send it events (they are queued behind the current work).
    public typealias MacrostepObserver = @Sendable (_ trace: [String]) -> Void

    /// The chart being run.
    public let document: SCXMLDocument
    /// The settings given at creation.
    public let options: Options
    /// The clock delayed sends are timed by.
    public let clock: any StatechartClock

    private let onMacrostep: MacrostepObserver?
    /// The machine, and whether a thread is currently running its macrosteps.
    private let state: PumpLock<Guarded>

    private struct Guarded {
        var machine: SCXMLMachine
        /// True while one thread runs macrosteps; only that thread may run them.
        var isPumping = false
    }

    /// A machine for `document`, not started.
    /// - Parameters:
    ///   - options: the loop guard.
    ///   - clock: times delayed `<send>`s; `.continuous` (real time) by default, a
    ///     ``ManualStatechartClock`` in tests.
    ///   - onMacrostep: called after each macrostep with its trace.
    public convenience init(
        document: SCXMLDocument,
        options: Options = Options(),
        clock: some StatechartClock = .continuous,
        onMacrostep: MacrostepObserver? = nil
    ) {
        self.init(machine: SCXMLMachine(document: document, options: options, clock: clock), onMacrostep: onMacrostep)
    }

    /// A machine for `document` that resumes from `snapshot`, exactly as if the machine
    /// that took it had not stopped: same configuration, history values and `idlocation`
    /// slots, no `<onentry>` run again, and every pending delayed send rescheduled on
    /// `clock` with the delay it had left. Events that were waiting in the snapshot's
    /// queues are processed before this initialiser returns (a failure there is reported
    /// by ``failure``).
    /// - Throws: ``SCXMLError/invalidSnapshot(id:reason:)`` naming the state, history or
    ///   send at fault when the snapshot does not fit `document`.
    public convenience init(
        document: SCXMLDocument,
        restoring snapshot: SCXMLSnapshot,
        options: Options = Options(),
        clock: some StatechartClock = .continuous,
        onMacrostep: MacrostepObserver? = nil
    ) throws(SCXMLError) {
        var machine = SCXMLMachine(document: document, options: options, clock: clock)
        try machine.restore(snapshot)
        self.init(machine: machine, onMacrostep: onMacrostep)
        armTimersAndPump()
    }

    private init(machine: SCXMLMachine, onMacrostep: MacrostepObserver?) {
        document = machine.document
        options = machine.options
        clock = machine.clock
        self.onMacrostep = onMacrostep
        state = PumpLock(Guarded(machine: machine))
    }

    deinit {
        state.withLock { $0.machine.cancelPendingSends { _ in true } }
    }

    // MARK: Configuration

    /// Ids of every active state (atomic and compound), in document order.
    public var activeStates: [String] {
        state.withLock { guarded in
            document.nodes.indices.filter { $0 > 0 && guarded.machine.active[$0] }.map { document.nodes[$0].id }
        }
    }

    /// Ids of the active atomic states (`<state>` without children and `<final>`).
    public var activeAtomicStates: Set<String> {
        state.withLock { guarded in
            Set(
                document.nodes.indices.filter { $0 > 0 && guarded.machine.active[$0] && document.isAtomic($0) }.map {
                    document.nodes[$0].id
                }
            )
        }
    }

    /// Whether the state with `id` is active.
    public func isActive(_ id: String) -> Bool {
        guard let index = document.index(of: id) else { return false }
        return state.withLock { $0.machine.active[index] }
    }

    /// True between `start()` and reaching a top-level `<final>` (or a failed macrostep).
    public var isRunning: Bool { state.withLock { $0.machine.isRunning } }

    /// True once the machine reached a top-level `<final>` state.
    public var isDone: Bool { state.withLock { $0.machine.isDone } }

    /// What the last macrostep did, in order: `event:<name>` for each event processed
    /// (the external one first, then raised and `done.state` events), `exit:<id>` and
    /// `enter:<id>` for each state left and entered.
    public var trace: [String] { state.withLock { $0.machine.trace } }

    /// The error that stopped the machine (``SCXMLError/microstepLimit(limit:cycle:)``),
    /// also when the failing macrostep ran on a timer's thread; nil while it runs.
    public var failure: SCXMLError? { state.withLock { $0.machine.failure } }

    // MARK: Running

    /// Enters the initial configuration and settles it (eventless transitions and raised
    /// events), then processes the events its `<send>`s queued. Does nothing if the
    /// machine is already running or done; after a failure it starts afresh, from an empty
    /// configuration and no history.
    /// - Throws: ``SCXMLError/microstepLimit(limit:cycle:)`` if a macrostep this call ran
    ///   never settles; the machine then stops.
    public func start() throws(SCXMLError) {
        let claimed = state.withLock { guarded -> Bool in
            guard !guarded.machine.isRunning, !guarded.machine.isDone, !guarded.machine.startRequested else {
                return false
            }
            guarded.machine.startRequested = true
            return Self.claim(&guarded)
        }
        if claimed { try pump() }
    }

    /// Queues the external event `name` and, unless another thread is running macrosteps,
    /// processes the queue: this event's macrostep (its transitions, then every eventless
    /// transition and raised event until the configuration is stable) and those queued
    /// behind it. Ignored when the machine is not running.
    /// - Throws: ``SCXMLError/microstepLimit(limit:cycle:)`` if a macrostep this call ran
    ///   never settles; the machine then stops.
    public func send(_ name: String) throws(SCXMLError) {
        let claimed = state.withLock { guarded -> Bool in
            guard guarded.machine.enqueue(name) else { return false }
            return Self.claim(&guarded)
        }
        if claimed { try pump() }
    }

    /// The state to save: configuration, history values, queued events, `idlocation`
    /// slots and the pending delayed sends with the delay each has left on ``clock``.
    /// Taken between macrosteps; encode it with `JSONEncoder`.
    public func snapshot() -> SCXMLSnapshot {
        state.withLock { $0.machine.snapshot() }
    }

    /// Replaces this machine's state with `snapshot`'s, as
    /// ``init(document:restoring:options:clock:onMacrostep:)`` would, keeping the clock and
    /// the observer. The current pending delayed sends are cancelled; should one of their
    /// timers fire anyway, it delivers nothing. Events waiting in the snapshot's queues are
    /// processed before this returns unless another thread is running macrosteps (then
    /// that thread does); a failure there is reported by ``failure``.
    /// - Throws: ``SCXMLError/invalidSnapshot(id:reason:)`` when the snapshot does not fit
    ///   the document; the machine is then left as it was.
    public func restore(_ snapshot: SCXMLSnapshot) throws(SCXMLError) {
        let outcome = state.withLock { guarded -> Result<Bool, SCXMLError> in
            var restored = SCXMLMachine(document: document, options: options, clock: clock)
            // Sequences are never reused, so the old sends' timers stay recognisably stale.
            restored.nextSequence = guarded.machine.nextSequence
            do throws(SCXMLError) {
                try restored.restore(snapshot)
            } catch {
                return .failure(error)
            }
            guarded.machine.cancelPendingSends { _ in true }
            guarded.machine = restored
            armTimers(&guarded.machine)
            return .success(guarded.machine.hasWork && Self.claim(&guarded))
        }
        if try outcome.get() { try? pump() }
    }

    // MARK: Pumping

    /// Takes the right to run macrosteps if nobody holds it.
    private static func claim(_ guarded: inout Guarded) -> Bool {
        if guarded.isPumping { return false }
        guarded.isPumping = true
        return true
    }

    /// Runs macrosteps until there is no work left, then gives up the right to run them.
    /// Only the thread that claimed that right calls it.
    /// - Throws: the first failure of a macrostep it ran.
    private func pump() throws(SCXMLError) {
        var firstError: SCXMLError?
        while true {
            let step = state.withLock { guarded -> (trace: [String], failure: SCXMLError?)? in
                let failure: SCXMLError?
                switch guarded.machine.runNextMacrostep() {
                case .idle:
                    guarded.isPumping = false
                    return nil
                case .ran: failure = nil
                case let .failed(error): failure = error
                }
                armTimers(&guarded.machine)
                return (guarded.machine.trace, failure)
            }
            guard let step else { break }
            if firstError == nil { firstError = step.failure }
            onMacrostep?(step.trace)
        }
        if let firstError { throw firstError }
    }

    /// Arms a clock timer for every new delayed send. Called under the lock: the clock's
    /// `schedule` only registers the callback and never calls it synchronously.
    private func armTimers(_ machine: inout SCXMLMachine) {
        for (sequence, delay) in machine.takeUnarmedSends() {
            let timer = clock.schedule(after: delay) { [weak self] in self?.timerFired(sequence) }
            machine.pendingSends[sequence]?.timer = timer
        }
    }

    /// A timer fired: delivers its event unless the send is stale, and runs it if idle.
    private func timerFired(_ sequence: UInt64) {
        let claimed = state.withLock { guarded -> Bool in
            guard guarded.machine.deliver(sequence) else { return false }
            return Self.claim(&guarded)
        }
        // No caller to report to: a failure stays readable through `failure`.
        if claimed { try? pump() }
    }

    /// After a restore: arms the rescheduled sends and runs the queued events, if any.
    private func armTimersAndPump() {
        let claimed = state.withLock { guarded -> Bool in
            armTimers(&guarded.machine)
            return guarded.machine.hasWork && Self.claim(&guarded)
        }
        if claimed { try? pump() }
    }
}
