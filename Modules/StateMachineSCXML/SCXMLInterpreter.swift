import StateMachineHierarchy
import StateMachineSupport
import Synchronization

/// Runs an ``SCXMLDocument`` on `Statechart`'s engine with SCXML semantics
/// (`StatechartOptions/scxml`, the algorithm of the W3C specification's Appendix D, with
/// the document's data model: the null one, or ECMAScript's from `StateMachineECMAScript`,
/// whose variables ``variables()`` reads and ``send(_:data:)`` feeds): event-name prefix matching and `*`, eventless transitions taken
/// until the configuration is stable, an internal queue for events raised during a step
/// (processed before the next external event), SCXML's transition selection between
/// parallel regions (document order; a transition whose source is a descendant preempts),
/// shallow and deep history, final states and `done.state.<id>` events, and
/// `<send>`/`<cancel>` with delays on an injected `StatechartClock`.
///
/// A thin wrapper: the document compiles to the same model as typed and JSON charts and
/// runs on the same engine, queue, clock and snapshots (`StatechartSnapshot`). What it
/// adds is SCXML's view of a session: a trace of each macrostep, a machine that stops at a
/// top-level `<final>` or on a failure, and events ignored while it is stopped. Pass other
/// `StatechartOptions` to run a document with TBStateMachine's semantics instead.
///
/// **Threads.** The interpreter is a thread-safe reference: any thread (and the clock's
/// timers) may call ``send(_:)``. Events go to the chart's one queue and are processed one
/// macrostep at a time, in arrival order, by whichever caller finds the chart idle: that
/// caller runs every macrostep queued until the queue is empty, then returns. A caller that
/// finds another thread running macrosteps queues its event and returns at once; the
/// running thread processes it. So events are never dropped or reordered (while the
/// machine runs), and each thread's events keep their order. ``restore(_:)`` may run while
/// other threads send: each call works on the chart it found, which the session keeps
/// alive until the call returns; events still queued on the replaced chart run none of
/// their content and reach neither the trace nor the data.
///
/// **Invocations.** A state's `<invoke>`s start, each as a child interpreter on the same
/// clock, once the macrostep that entered the state is over, and are cancelled when it
/// exits (or the machine stops). `<send target="#_parent">` in the child and
/// `<send target="#_<invokeid>">` in the parent cross between them; a child that reaches
/// a top-level `<final>` sends `done.invoke.<invokeid>`; `<finalize>` runs when an event
/// from the child is about to be processed, and `autoforward` passes every external
/// event on to the child. Children are not part of snapshots.
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
public final class SCXMLInterpreter: StatechartStepObserver {
    /// Called after every macrostep with its trace (as in ``trace``), on the thread that
    /// ran it, outside the machine's lock and in macrostep order. It may read the machine
    /// and send it events (they are queued behind the current work).
    public typealias MacrostepObserver = @Sendable (_ trace: [String]) -> Void

    /// Called with the text of every `<log>` the session runs (`label: value`, as the trace
    /// shows it after `log:`), on the thread running the step, in order, whether or not the
    /// session records its trace.
    public typealias LogSink = @Sendable (_ text: String) -> Void

    /// The chart being run.
    public let document: SCXMLDocument
    /// The semantics given at creation (`StatechartOptions/scxml` by default).
    public let options: StatechartOptions
    /// The clock delayed sends are timed by.
    public let clock: any StatechartClock

    /// Whether macrosteps record their ``trace`` (for ``trace`` and `onMacrostep`). Without
    /// it a macrostep builds no strings and takes fewer locks.
    public let recordsTrace: Bool
    /// Whether the trace also records the executable content each macrostep ran (see
    /// ``trace``); only with ``recordsTrace``.
    public let recordsContent: Bool
    /// Whether the document has an `<invoke>` anywhere (else no step starts or cancels one).
    let invokes: Bool
    /// See `StatechartStepObserver`: `<finalize>`, `autoforward`, `_event` and the trace
    /// need the events' names; a document without them does not.
    package var wantsEventStarts: Bool { recordsTrace || invokes || document.usesData }
    /// See `StatechartStepObserver`: after a step that did not fail, only the trace,
    /// invocations, a parent and `onMacrostep` need anything done.
    package var wantsEveryStepEnd: Bool { recordsTrace || invokes || invokeID != nil || onMacrostep != nil }
    /// See `StatechartStepObserver`: the trace's `enter:` and `exit:` entries come from the
    /// chart's step, so that the document's states need no blocks to record them.
    package var wantsStateTraces: Bool { recordsTrace }
    let onMacrostep: MacrostepObserver?
    /// Where `<log>` texts go besides the trace.
    let onLog: LogSink?
    /// The chart (replaced by ``restore(_:)``) and what its steps recorded.
    let state: Lock<Session>
    /// `Session.chart`, unretained (its address; a pointer is not `Sendable`), and the
    /// readers that may hold it or a chart it replaced: see `withCurrentChart(_:)` (in
    /// `SCXMLInterpreter+CurrentChart.swift`).
    let currentChart = Atomic<UInt>(0)
    let chartReaders = Atomic<Int>(0)
    /// `Session.retired` holds a chart.
    let hasRetiredCharts = Atomic<Bool>(false)
    /// Bumped on every failure (with the session's `failure` set first, under its lock), so
    /// that a call can tell without the lock whether a step it ran failed.
    let failures = Atomic<Int>(0)
    /// Where `<send>`s to targets outside the process go (and `<cancel>`s of them); nil
    /// raises `error.execution` / `error.communication` for them, as SCXML says. Invoked
    /// sessions share their parent's.
    let outside: SCXMLOutside?
    /// The session that invoked this one, and the id it knows this one by.
    weak let parent: SCXMLInterpreter?
    let invokeID: String?
    /// The session's id (`_sessionid`), unique in the process.
    let sessionID: String
    /// The values an invoking session gave (`<param>`, `namelist`) for this session's
    /// `<data>` of the same names.
    let initialValues: [String: SCXMLValue]
    /// The session's data model (its variables), and which states' `<data>` are bound.
    /// Used by the chart's draining thread inside steps, and by snapshots and restores;
    /// every call is one short critical section (see `SCXMLDataModelSession`).
    let data: Lock<DataState>

    struct DataState {
        var session: (any SCXMLDataModelSession)?
        /// Why the data model could not make the session, if it could not.
        var failure: SCXMLScriptFailure?
        /// The nodes whose `<data>` are declared.
        var bound: Set<Int> = []
    }

    struct Session {
        /// The chart being run (see `withCurrentChart(_:)`).
        var chart: SCXMLChart?
        /// Charts ``restore(_:)`` replaced, kept while a reader may still use one.
        var retired: [SCXMLChart] = []
        /// The entries of the macrostep being run, then of the last one.
        var recording: [String] = []
        var trace: [String] = []
        var failure: StatechartError?
        /// States with `<invoke>`s entered in the running macrostep (and not left since).
        var statesToInvoke: [String] = []
        /// Running child sessions, in the order they started.
        var invocations: [Invocation] = []
        var generatedInvokeIDs = 0
        /// Set when the session is cancelled by its parent: it reports nothing any more.
        var cancelled = false
        var reportedDone = false
        /// `<donedata>` values waiting for their `done.state.<id>` events, in order.
        var doneData: [(state: String, value: SCXMLValue?)] = []
        /// The `<donedata>` of the top-level final reached, for `done.invoke`.
        var finalDoneData: SCXMLValue?
    }

    /// A running child session.
    struct Invocation {
        let id: String
        /// The invoking state.
        let state: String
        let autoforward: Bool
        let finalize: [SCXMLDocument.Action]
        /// Which of the state's `<invoke>`s it is (from 0), and the `srcexpr` or
        /// `<content expr>` text its document was made from: what reopens it from a
        /// ``SCXMLSessionTree``.
        let invoke: Int
        let source: String?
        let child: SCXMLInterpreter
    }

    /// Every session by its id, for `#_scxml_<sessionid>` targets.
    static let sessions = Lock<[String: WeakSession]>([:])
    static let sessionCount = Atomic<Int>(0)

    struct WeakSession {
        weak var session: SCXMLInterpreter?
    }

    /// The running session with `id`, if any.
    static func session(withID id: String) -> SCXMLInterpreter? {
        sessions.withLock { $0[id]?.session }
    }

    /// A machine for `document`, not started.
    /// - Parameters:
    ///   - document: the loaded document to run.
    ///   - options: the semantics; SCXML's by default (its `maxMicrosteps` is the loop guard).
    ///   - clock: times delayed `<send>`s; `.continuous` (real time) by default, a
    ///     `ManualStatechartClock` in tests.
    ///   - recordsTrace: whether macrosteps record their ``trace``; turn it off when nobody
    ///     reads it, which makes every macrostep cheaper (no strings, fewer locks).
    ///   - recordsContent: whether the trace also records the executable content that ran
    ///     (`assign:`, `script:`, `send:`, `raise:`, `cancel:` entries; see ``trace``), as a
    ///     debugger shows it; off by default, which keeps the trace to states and events.
    ///   - onMacrostep: called after each macrostep with its trace (empty without
    ///     `recordsTrace`).
    ///   - onLog: called with the text of every `<log>`, traced or not (see ``LogSink``).
    public convenience init(
        document: SCXMLDocument,
        options: StatechartOptions = .scxml,
        clock: some StatechartClock = .continuous,
        recordsTrace: Bool = true,
        recordsContent: Bool = false,
        onMacrostep: MacrostepObserver? = nil,
        onLog: LogSink? = nil
    ) {
        self.init(
            document: document,
            options: options,
            clock: clock,
            recordsTrace: recordsTrace,
            recordsContent: recordsContent,
            onMacrostep: onMacrostep,
            onLog: onLog,
            parent: nil
        )
    }

    /// A top-level machine for `document`, not started, whose `<send>`s to targets outside
    /// the process go to `outside` (see ``SCXMLOutside``), and without a trace.
    package convenience init(
        document: SCXMLDocument,
        options: StatechartOptions,
        clock: some StatechartClock,
        outside: SCXMLOutside?
    ) {
        self.init(
            document: document,
            options: options,
            clock: clock,
            recordsTrace: false,
            onMacrostep: nil,
            onLog: nil,
            parent: nil,
            outside: outside
        )
    }

    /// A session invoked by `parent` as `invokeID` (or a top-level one when nil), whose
    /// `<data>` start with `initialValues` where the names match.
    init(
        document: SCXMLDocument,
        options: StatechartOptions,
        clock: any StatechartClock,
        recordsTrace: Bool,
        recordsContent: Bool = false,
        onMacrostep: MacrostepObserver?,
        onLog: LogSink? = nil,
        parent: (session: SCXMLInterpreter, invokeID: String)?,
        initialValues: [String: SCXMLValue] = [:],
        outside: SCXMLOutside? = nil
    ) {
        self.outside = outside
        self.document = document
        self.recordsTrace = recordsTrace
        self.recordsContent = recordsTrace && recordsContent
        invokes = document.nodes.contains { !$0.invokes.isEmpty }
        self.options = options
        self.clock = clock
        self.onMacrostep = onMacrostep
        self.onLog = onLog
        self.parent = parent?.session
        invokeID = parent?.invokeID
        self.initialValues = initialValues
        sessionID = "\(Self.sessionCount.add(1, ordering: .relaxed).newValue)"
        state = Lock(Session())
        data = Lock(DataState())
        let chart = makeChart()
        state.withLock { makeCurrent(chart, in: &$0) }
        resetData()
        Self.sessions.withLock { $0[sessionID] = WeakSession(session: self) }
    }

    /// `#_scxml_<sessionid>`: where other sessions send events for this one.
    var location: String { "#_scxml_\(sessionID)" }

    /// A fresh data model session (no variables): at creation, and for a restore.
    func freshData() -> DataState {
        let host = SCXMLDataModelHost(
            sessionID: sessionID,
            name: document.name,
            ioProcessors: .object([
                Self.scxmlProcessorType: .object(["location": .string(location)]),
                "scxml": .object(["location": .string(location)]),
            ]),
            isActive: { [weak self] id in self?.isActiveInStep(id) ?? false }
        )
        do {
            return DataState(session: try document.compiledScripts.makeSession(host))
        } catch {
            return DataState(session: nil, failure: error)
        }
    }

    func resetData() {
        let fresh = freshData()
        data.withLock { $0 = fresh }
    }

    /// Runs `body` with the session's data model (one critical section).
    func withData<Value>(
        _ body: (any SCXMLDataModelSession) throws(SCXMLScriptFailure) -> Value
    ) throws(SCXMLScriptFailure) -> Value {
        let result: Result<Value, SCXMLScriptFailure> = data.withLock { state in
            guard let session = state.session else {
                return .failure(state.failure ?? SCXMLScriptFailure(message: "the session has no data model"))
            }
            return Result { () throws(SCXMLScriptFailure) in try body(session) }
        }
        return try result.get()
    }

    /// Marks the `<data>` of `node` as declared; false when they already were.
    func markBound(_ node: Int) -> Bool {
        data.withLock { $0.bound.insert(node).inserted }
    }

    /// `In(id)`: whether the state `id` is active in the running step.
    func isActiveInStep(_ id: String) -> Bool {
        let chart = chart
        guard let engine = chart.hooks.engine,
            let index = chart.hooks.sessionStateIndex(id)
        else { return false }
        return engine.isActiveInStep(index)
    }

    /// Keeps the value of a `<donedata>` for the `done.state.<parent>` event (or, for a
    /// top-level final, `done.invoke`).
    func storeDoneData(_ value: SCXMLValue?, forParent parent: String?) {
        state.withLock { session in
            if let parent {
                session.doneData.append((parent, value))
            } else {
                session.finalDoneData = value
            }
        }
    }

    /// The session that invoked this one, if any.
    var parentSession: SCXMLInterpreter? { parent }

    /// Whether the invoking session cancelled this one.
    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// A machine for `document` that resumes from `snapshot` (taken from a machine running
    /// the same document): the same configuration, history values and `idlocation` slots,
    /// no `<onentry>` run again, and every pending delayed send rescheduled on `clock` with
    /// the delay it had left.
    /// - Throws: `StatechartError/invalidSnapshot(reason:)` naming the state, history or
    ///   send at fault when the snapshot does not fit `document`.
    public convenience init(
        document: SCXMLDocument,
        restoring snapshot: StatechartSnapshot,
        options: StatechartOptions = .scxml,
        clock: some StatechartClock = .continuous,
        recordsTrace: Bool = true,
        onMacrostep: MacrostepObserver? = nil,
        onLog: LogSink? = nil
    ) throws {
        self.init(
            document: document,
            options: options,
            clock: clock,
            recordsTrace: recordsTrace,
            onMacrostep: onMacrostep,
            onLog: onLog
        )
        try restore(snapshot)
    }

    deinit {
        let id = sessionID
        Self.sessions.withLock { sessions in
            if sessions[id]?.session == nil { sessions[id] = nil }
        }
        let (chart, invocations) = state.withLock { ($0.chart, $0.invocations) }
        for invocation in invocations { invocation.child.cancel() }
        chart?.engine.submitHalt()
    }

    /// A new chart for the document whose steps report to this interpreter.
    func makeChart() -> SCXMLChart {
        do {
            return try SCXMLChart(
                document.definition,
                options: options,
                clock: clock,
                stepObserver: self,
                callBlock: SCXMLChart.Hooks.callBlocks()
            )
        } catch {
            // The definition was compiled once already, when the document was loaded.
            preconditionFailure("an SCXML document's definition compiles: \(error)")
        }
    }

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

    /// Writes the machine's debug log to `sink` (see `Statechart/attachDebugger(_:)`)
    /// from the next macrostep on, until ``detachDebugger()`` or ``restore(_:)``. What the
    /// machine does is the same with a sink as without.
    public func attachDebugger(_ sink: StatechartDebugSink = .standardError) {
        chart.attachDebugger(sink)
    }

    /// Stops writing the debug log.
    public func detachDebugger() {
        chart.detachDebugger()
    }

    /// What the last macrostep did, in order: `event:<name>` for each event processed
    /// (the external one first, then raised and `done.state` events), `exit:<id>` and
    /// `enter:<id>` for each state left and entered (at a top-level `<final>`, `exit:<id>`
    /// for each state of the final configuration, whose `<onexit>` runs then),
    /// `log:<text>` for each `<log>` and `error:<event>: <message>` for each error raised;
    /// with `recordsContent`, also `assign:<location>`, `script:line <n>`, `send:<event>`,
    /// `raise:<event>` and `cancel:<sendid>` for the executable content that ran. Always
    /// empty when the interpreter was created without `recordsTrace`.
    public var trace: [String] { state.withLock { $0.trace } }

    /// The error that stopped the machine (`StatechartError/eventlessLoop(limit:cycle:)`),
    /// also when the failing macrostep ran on a timer's thread; nil while it runs.
    public var failure: StatechartError? { state.withLock { $0.failure } }

}
