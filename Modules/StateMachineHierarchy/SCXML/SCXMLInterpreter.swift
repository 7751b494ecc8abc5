/// Runs an ``SCXMLDocument`` on ``Statechart``'s engine with SCXML semantics
/// (``StatechartOptions/scxml``, the algorithm of the W3C specification's Appendix D with
/// the null data model): event-name prefix matching and `*`, eventless transitions taken
/// until the configuration is stable, an internal queue for events raised during a step
/// (processed before the next external event), SCXML's transition selection between
/// parallel regions (document order; a transition whose source is a descendant preempts),
/// shallow and deep history, final states and `done.state.<id>` events, and
/// `<send>`/`<cancel>` with delays on an injected ``StatechartClock``.
///
/// A thin wrapper: the document compiles to the same model as typed and JSON charts and
/// runs on the same engine, queue, clock and snapshots (``StatechartSnapshot``). What it
/// adds is SCXML's view of a session: a trace of each macrostep, a machine that stops at a
/// top-level `<final>` or on a failure, and events ignored while it is stopped. Pass other
/// ``StatechartOptions`` to run a document with TBStateMachine's semantics instead.
///
/// **Threads.** The interpreter is a thread-safe reference: any thread (and the clock's
/// timers) may call ``send(_:)``. Events go to the chart's one queue and are processed one
/// macrostep at a time, in arrival order, by whichever caller finds the chart idle: that
/// caller runs every macrostep queued until the queue is empty, then returns. A caller that
/// finds another thread running macrosteps queues its event and returns at once; the
/// running thread processes it. So events are never dropped or reordered (while the
/// machine runs), and each thread's events keep their order.
///
/// **Delayed sends.** `<send delay="2s">` arms a timer on the clock; when it fires, the
/// event joins the queue and is processed as its own macrostep. `<cancel>` and the machine
/// stopping (a top-level `<final>`, a failed macrostep) cancel it; a timer that fires
/// anyway is recognised as stale (its send is no longer pending) and delivers nothing.
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
    /// Called after every macrostep with its trace (as in ``trace``), on the thread that
    /// ran it, outside the machine's lock and in macrostep order. It may read the machine
    /// and send it events (they are queued behind the current work).
    public typealias MacrostepObserver = @Sendable (_ trace: [String]) -> Void

    /// The chart being run.
    public let document: SCXMLDocument
    /// The semantics given at creation (``StatechartOptions/scxml`` by default).
    public let options: StatechartOptions
    /// The clock delayed sends are timed by.
    public let clock: any StatechartClock

    private let onMacrostep: MacrostepObserver?
    /// The chart (replaced by ``restore(_:)``) and what its steps recorded.
    private let state: PumpLock<Session>

    private struct Session {
        var chart: SCXMLChart?
        /// The entries of the macrostep being run, then of the last one.
        var recording: [String] = []
        var trace: [String] = []
        var failure: StatechartError?
        /// Bumped on every failure, so a call can tell whether a step it ran failed.
        var failures = 0
    }

    /// A machine for `document`, not started.
    /// - Parameters:
    ///   - options: the semantics; SCXML's by default (its `maxMicrosteps` is the loop guard).
    ///   - clock: times delayed `<send>`s; `.continuous` (real time) by default, a
    ///     ``ManualStatechartClock`` in tests.
    ///   - onMacrostep: called after each macrostep with its trace.
    public init(
        document: SCXMLDocument,
        options: StatechartOptions = .scxml,
        clock: some StatechartClock = .continuous,
        onMacrostep: MacrostepObserver? = nil
    ) {
        self.document = document
        self.options = options
        self.clock = clock
        self.onMacrostep = onMacrostep
        state = PumpLock(Session())
        let chart = makeChart()
        state.withLock { $0.chart = chart }
    }

    /// A machine for `document` that resumes from `snapshot` (taken from a machine running
    /// the same document): the same configuration, history values and `idlocation` slots,
    /// no `<onentry>` run again, and every pending delayed send rescheduled on `clock` with
    /// the delay it had left.
    /// - Throws: ``StatechartError/invalidSnapshot(reason:)`` naming the state, history or
    ///   send at fault when the snapshot does not fit `document`.
    public convenience init(
        document: SCXMLDocument,
        restoring snapshot: StatechartSnapshot,
        options: StatechartOptions = .scxml,
        clock: some StatechartClock = .continuous,
        onMacrostep: MacrostepObserver? = nil
    ) throws {
        self.init(document: document, options: options, clock: clock, onMacrostep: onMacrostep)
        try restore(snapshot)
    }

    deinit {
        state.withLock { $0.chart }?.engine.submitHalt()
    }

    /// A new chart for the document whose steps report to this interpreter.
    private func makeChart() -> SCXMLChart {
        let observer = SCXMLChart.StepObserver(
            eventStarted: { [weak self] name in self?.state.withLock { $0.recording.append("event:\(name)") } },
            stepFinished: { [weak self] result in self?.stepFinished(result) },
            note: { [weak self] entry in self?.state.withLock { $0.recording.append(entry) } }
        )
        do {
            return try SCXMLChart(document.definition, options: options, clock: clock, stepObserver: observer)
        } catch {
            // The definition was compiled once already, when the document was loaded.
            preconditionFailure("an SCXML document's definition compiles: \(error)")
        }
    }

    /// Called on the draining thread after every step.
    private func stepFinished(_ result: Result<StatechartStepOutcome, StatechartError>) {
        let (trace, chart) = state.withLock { session -> ([String]?, SCXMLChart?) in
            // A stale timer ran no macrostep.
            if session.recording.isEmpty, case .success(.discarded) = result { return (nil, nil) }
            session.trace = session.recording
            session.recording = []
            if case .failure(let error) = result {
                session.failure = error
                session.failures += 1
                return (session.trace, session.chart)
            }
            return (session.trace, nil)
        }
        // A failed macrostep stops the machine: its timers and queued events go.
        chart?.engine.halt()
        if let trace { onMacrostep?(trace) }
    }

    private var chart: SCXMLChart { state.withLock { $0.chart! } }

    // MARK: Configuration

    /// Ids of every active state (atomic and compound), in document order.
    public var activeStates: [String] {
        let active = Set(chart.activeStates)
        return document.stateIDs.filter(active.contains)
    }

    /// Ids of the active atomic states (`<state>` without children and `<final>`).
    public var activeAtomicStates: Set<String> {
        Set(chart.activeStates.filter { id in document.index(of: id).map(document.isAtomic) ?? false })
    }

    /// Whether the state with `id` is active.
    public func isActive(_ id: String) -> Bool { chart.isActive(id) }

    /// True between `start()` and reaching a top-level `<final>` (or a failed macrostep).
    public var isRunning: Bool {
        let chart = chart
        return chart.isRunning && !chart.isFinished
    }

    /// True once the machine reached a top-level `<final>` state.
    public var isDone: Bool { chart.isFinished }

    /// What the last macrostep did, in order: `event:<name>` for each event processed
    /// (the external one first, then raised and `done.state` events), `exit:<id>` and
    /// `enter:<id>` for each state left and entered.
    public var trace: [String] { state.withLock { $0.trace } }

    /// The error that stopped the machine (``StatechartError/eventlessLoop(limit:cycle:)``),
    /// also when the failing macrostep ran on a timer's thread; nil while it runs.
    public var failure: StatechartError? { state.withLock { $0.failure } }

    // MARK: Running

    /// Enters the initial configuration and settles it (eventless transitions and raised
    /// events), then processes the events its `<send>`s queued. Does nothing if the
    /// machine is already running or done; after a failure it starts afresh, from an empty
    /// configuration and no history.
    /// - Throws: ``StatechartError/eventlessLoop(limit:cycle:)`` if a macrostep this call
    ///   ran never settles; the machine then stops.
    public func start() throws {
        let (chart, failures) = state.withLock { session -> (SCXMLChart, Int) in
            if session.failure != nil { session.failure = nil }
            return (session.chart!, session.failures)
        }
        try run(failuresBefore: failures) {
            chart.engine.submit { QueueItem(request: .start, payload: nil, completion: $0 ? .inline : nil) }
        }
    }

    /// Queues the external event `name` and, unless another thread is running macrosteps,
    /// processes the queue: this event's macrostep (its transitions, then every eventless
    /// transition and raised event until the configuration is stable) and those queued
    /// behind it. Ignored when the machine is not running.
    /// - Throws: ``StatechartError/eventlessLoop(limit:cycle:)`` if a macrostep this call
    ///   ran never settles; the machine then stops.
    public func send(_ name: String) throws {
        let (chart, failures) = state.withLock { ($0.chart!, $0.failures) }
        guard chart.isRunning, !chart.isFinished else { return }
        try run(failuresBefore: failures) {
            let request = try chart.hooks.request(for: SCXMLChart.Event(name))
            return chart.engine.submit { QueueItem(request: request, payload: nil, completion: $0 ? .inline : nil) }
        }
    }

    /// Runs `submit`; throws the failure of a macrostep it ran: its own, or one queued
    /// behind it and run on this thread.
    private func run(
        failuresBefore: Int,
        _ submit: () throws -> Result<StatechartStepOutcome, StatechartError>?
    ) throws {
        guard let result = try submit() else { return }
        try result.get()
        let failure = state.withLock { $0.failures != failuresBefore ? $0.failure : nil }
        if let failure { throw failure }
    }

    /// The state to save: configuration, history values, `idlocation` slots and the
    /// pending delayed sends with the delay each has left on ``clock``. Taken between
    /// macrosteps; encode it with `JSONEncoder`.
    public func snapshot() -> StatechartSnapshot {
        chart.snapshot()
    }

    /// Replaces this machine's state with `snapshot`'s, as
    /// ``init(document:restoring:options:clock:onMacrostep:)`` would, keeping the clock and
    /// the observer. The current pending delayed sends are cancelled; should one of their
    /// timers fire anyway, it delivers nothing.
    /// - Throws: ``StatechartError/invalidSnapshot(reason:)`` when the snapshot does not
    ///   fit the document; the machine is then left as it was.
    public func restore(_ snapshot: StatechartSnapshot) throws {
        let restored = makeChart()
        try restored.restore(snapshot)
        let previous = state.withLock { session -> SCXMLChart? in
            let previous = session.chart
            session.chart = restored
            session.failure = nil
            session.trace = []
            return previous
        }
        previous?.engine.submitHalt()
    }
}
