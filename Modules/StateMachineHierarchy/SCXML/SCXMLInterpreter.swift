import StateMachineSupport
import Synchronization

/// Runs an ``SCXMLDocument`` on ``Statechart``'s engine with SCXML semantics
/// (``StatechartOptions/scxml``, the algorithm of the W3C specification's Appendix D, with
/// the document's data model: the null one, or ECMAScript's from `StateMachineECMAScript`,
/// whose variables ``variables()`` reads and ``send(_:data:)`` feeds): event-name prefix matching and `*`, eventless transitions taken
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
    /// The semantics given at creation (``StatechartOptions/scxml`` by default).
    public let options: StatechartOptions
    /// The clock delayed sends are timed by.
    public let clock: any StatechartClock

    /// Whether macrosteps record their ``trace`` (for ``trace`` and `onMacrostep`). Without
    /// it a macrostep builds no strings and takes fewer locks.
    public let recordsTrace: Bool
    /// Whether the document has an `<invoke>` anywhere (else no step starts or cancels one).
    private let invokes: Bool
    /// See `StatechartStepObserver`: `<finalize>`, `autoforward`, `_event` and the trace
    /// need the events' names; a document without them does not.
    var wantsEventStarts: Bool { recordsTrace || invokes || document.usesData }
    /// See `StatechartStepObserver`: after a step that did not fail, only the trace,
    /// invocations, a parent and `onMacrostep` need anything done.
    var wantsEveryStepEnd: Bool { recordsTrace || invokes || invokeID != nil || onMacrostep != nil }
    private let onMacrostep: MacrostepObserver?
    /// Where `<log>` texts go besides the trace.
    let onLog: LogSink?
    /// The chart (replaced by ``restore(_:)``) and what its steps recorded.
    private let state: Lock<Session>
    /// Bumped on every failure (with the session's `failure` set first, under its lock), so
    /// that a call can tell without the lock whether a step it ran failed.
    private let failures = Atomic<Int>(0)
    /// The session that invoked this one, and the id it knows this one by.
    private weak let parent: SCXMLInterpreter?
    let invokeID: String?
    /// The session's id (`_sessionid`), unique in the process.
    let sessionID: String
    /// The values an invoking session gave (`<param>`, `namelist`) for this session's
    /// `<data>` of the same names.
    let initialValues: [String: SCXMLValue]
    /// The session's data model (its variables), and which states' `<data>` are bound.
    /// Used by the chart's draining thread inside steps, and by snapshots and restores;
    /// every call is one short critical section (see `SCXMLDataModelSession`).
    private let data: Lock<DataState>

    private struct DataState {
        var session: (any SCXMLDataModelSession)?
        /// Why the data model could not make the session, if it could not.
        var failure: SCXMLScriptFailure?
        /// The nodes whose `<data>` are declared.
        var bound: Set<Int> = []
    }

    private struct Session {
        var chart: SCXMLChart?
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
    private struct Invocation {
        let id: String
        /// The invoking state.
        let state: String
        let autoforward: Bool
        let finalize: [SCXMLDocument.Action]
        let child: SCXMLInterpreter
    }

    /// Every session by its id, for `#_scxml_<sessionid>` targets.
    private static let sessions = Lock<[String: WeakSession]>([:])
    private static let sessionCount = Atomic<Int>(0)

    private struct WeakSession {
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
    ///     ``ManualStatechartClock`` in tests.
    ///   - recordsTrace: whether macrosteps record their ``trace``; turn it off when nobody
    ///     reads it, which makes every macrostep cheaper (no strings, fewer locks).
    ///   - onMacrostep: called after each macrostep with its trace (empty without
    ///     `recordsTrace`).
    ///   - onLog: called with the text of every `<log>`, traced or not (see ``LogSink``).
    public convenience init(
        document: SCXMLDocument,
        options: StatechartOptions = .scxml,
        clock: some StatechartClock = .continuous,
        recordsTrace: Bool = true,
        onMacrostep: MacrostepObserver? = nil,
        onLog: LogSink? = nil
    ) {
        self.init(
            document: document,
            options: options,
            clock: clock,
            recordsTrace: recordsTrace,
            onMacrostep: onMacrostep,
            onLog: onLog,
            parent: nil
        )
    }

    /// A session invoked by `parent` as `invokeID` (or a top-level one when nil), whose
    /// `<data>` start with `initialValues` where the names match.
    private init(
        document: SCXMLDocument,
        options: StatechartOptions,
        clock: any StatechartClock,
        recordsTrace: Bool,
        onMacrostep: MacrostepObserver?,
        onLog: LogSink? = nil,
        parent: (session: SCXMLInterpreter, invokeID: String)?,
        initialValues: [String: SCXMLValue] = [:]
    ) {
        self.document = document
        self.recordsTrace = recordsTrace
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
        state.withLock { $0.chart = chart }
        resetData()
        Self.sessions.withLock { $0[sessionID] = WeakSession(session: self) }
    }

    /// `#_scxml_<sessionid>`: where other sessions send events for this one.
    var location: String { "#_scxml_\(sessionID)" }

    /// A fresh data model session (no variables): at creation, and for a restore.
    private func freshData() -> DataState {
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

    private func resetData() {
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
    private func isActiveInStep(_ id: String) -> Bool {
        guard let chart = state.withLock({ $0.chart }), let engine = chart.hooks.engine,
            let index = chart.hooks.model.stateIndex[id]
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
    /// - Throws: ``StatechartError/invalidSnapshot(reason:)`` naming the state, history or
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
    private func makeChart() -> SCXMLChart {
        do {
            return try SCXMLChart(
                document.definition(tracing: recordsTrace),
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

    // MARK: Following the chart's steps (on its draining thread)

    /// Records an entry of the running macrostep's trace.
    func note(_ entry: @autoclosure () -> String) {
        guard recordsTrace else { return }
        let entry = entry()
        state.withLock { $0.recording.append(entry) }
    }

    /// Before an event's transitions are selected: binds `_event`, runs the `<finalize>`
    /// of the invocation it came from, and forwards an external event to the children that
    /// `autoforward`.
    func eventStarted(_ name: String, payload: (any Sendable)?, external: Bool) {
        let payload = payload as? SCXMLEventFields
        let isDone = !external && payload == nil && name.hasPrefix("done.state.")
        let (invocations, chart, doneData) = state.withLock { session -> ([Invocation], SCXMLChart?, SCXMLValue?) in
            if recordsTrace { session.recording.append("event:\(name)") }
            var doneData: SCXMLValue?
            if isDone, let position = session.doneData.firstIndex(where: { "done.state." + $0.state == name }) {
                doneData = session.doneData.remove(at: position).value
            }
            return (external ? session.invocations : [], session.chart, doneData)
        }
        if document.usesData {
            // The queue's name is the one processed (a prefix match may have renamed it).
            var fields =
                payload
                ?? SCXMLEventFields(name: name, type: external ? "external" : (isDone ? "platform" : "internal"))
            fields.name = name
            if fields.data == nil { fields.data = doneData }
            try? withData { data throws(SCXMLScriptFailure) in data.setEvent(fields) }
        }
        guard !invocations.isEmpty, let chart else { return }
        let context = SCXMLChart.Context(payload: payload, event: nil, hooks: chart.hooks)
        for invocation in invocations {
            if invocation.id == payload?.invokeID { run(invocation.finalize, context) }
            if invocation.autoforward {
                invocation.child.deliver(name, payload ?? SCXMLEventFields(name: name, type: "external"))
            }
        }
    }

    /// After every step: publishes the trace, stops the machine on a failure, starts the
    /// invocations of the states the macrostep entered, reports a child's completion.
    func stepFinished(_ result: Result<StatechartStepOutcome, StatechartError>) {
        let (trace, chart, failed) = state.withLock { session -> ([String]?, SCXMLChart?, Bool) in
            // A stale timer ran no macrostep.
            if session.recording.isEmpty, case .success(.discarded) = result { return (nil, session.chart, false) }
            if recordsTrace {
                session.trace = session.recording
                session.recording = []
            }
            if case .failure(let error) = result {
                session.failure = error
                failures.add(1, ordering: .releasing)
                return (session.trace, session.chart, true)
            }
            return (session.trace, session.chart, false)
        }
        guard let chart else { return }
        if failed {
            // A failed macrostep stops the machine: its timers, queued events and children go.
            chart.engine.halt()
            cancelAllInvocations()
        } else if chart.engine.isFinishedInStep {
            if invokes { cancelAllInvocations() }
            reportDoneToParent()
        } else if invokes {
            startInvocations(chart)
        }
        if let trace { onMacrostep?(trace) }
    }

    // MARK: Invocations

    /// A state with `<invoke>`s was entered: its invocations start after the macrostep.
    func willInvoke(in state: String) {
        self.state.withLock { $0.statesToInvoke.append(state) }
    }

    /// The state `stateID` exits: its pending and running invocations are cancelled.
    func cancelInvocations(of stateID: String) {
        let cancelled = state.withLock { session -> [Invocation] in
            session.statesToInvoke.removeAll { $0 == stateID }
            let cancelled = session.invocations.filter { $0.state == stateID }
            session.invocations.removeAll { $0.state == stateID }
            return cancelled
        }
        for invocation in cancelled { invocation.child.cancel() }
    }

    private func cancelAllInvocations() {
        let cancelled = state.withLock { session -> [Invocation] in
            session.statesToInvoke = []
            defer { session.invocations = [] }
            return session.invocations
        }
        for invocation in cancelled { invocation.child.cancel() }
    }

    /// Starts, in document order, the invocations of the states the macrostep entered.
    private func startInvocations(_ chart: SCXMLChart) {
        let states = state.withLock { session -> [String] in
            defer { session.statesToInvoke = [] }
            return session.statesToInvoke
        }
        guard !states.isEmpty else { return }
        let ordered = states.compactMap { id in document.index(of: id).map { (id, $0) } }.sorted { $0.1 < $1.1 }
        for (stateID, index) in ordered where chart.isActive(stateID) {
            for invoke in document.nodes[index].invokes {
                start(invoke, in: stateID, chart)
            }
        }
    }

    /// Starts one `<invoke>` of the state `stateID`. What cannot be evaluated (its type,
    /// document, params or idlocation) raises `error.execution` and starts nothing.
    private func start(_ invoke: SCXMLDocument.Invoke, in stateID: String, _ chart: SCXMLChart) {
        let id = state.withLock { session -> String in
            if let id = invoke.id { return id }
            session.generatedInvokeIDs += 1
            return "\(stateID).\(session.generatedInvokeIDs)"
        }
        // Outside a step: errors go to the queue as events of their own.
        let fail = { (message: String) in
            self.note("error:error.execution: \(message)")
            guard let request = try? chart.hooks.request(for: SCXMLChart.Event("error.execution")) else { return }
            _ = chart.engine.submit { _ in
                QueueItem(
                    request: request,
                    payload: SCXMLEventFields(name: "error.execution", type: "platform", data: .string(message)),
                    completion: nil
                )
            }
        }
        func evaluate(_ script: SCXMLDocument.Script) -> SCXMLValue? {
            do {
                return try withData { data throws(SCXMLScriptFailure) in try data.evaluate(script.index) }
            } catch {
                fail("\(document.scripts[script.index].location): \(error.message)")
                return nil
            }
        }
        if let location = invoke.idLocation {
            do {
                try withData { data throws(SCXMLScriptFailure) in try data.assign(location.index, value: .string(id)) }
            } catch {
                return fail("\(document.scripts[location.index].location): \(error.message)")
            }
        }
        if let type = invoke.typeExpression {
            guard let value = evaluate(type) else { return }
            guard SCXMLBuilder.scxmlInvokeTypes.contains(value.description) else {
                return fail(
                    "line \(invoke.line): <invoke> of type '\(value.description)': only SCXML sessions can be invoked"
                )
            }
        }
        let childDocument: SCXMLDocument
        switch invoke.source {
        case .document(let given):
            childDocument = given
        case .sourceExpression(let script):
            guard let src = evaluate(script)?.description else { return }
            do {
                childDocument = try SCXMLDocument.load(
                    contentsOf: SCXMLDocument.fileURL(ofSource: src, relativeTo: document.baseURL),
                    depth: 1,
                    dataModel: document.dataModel
                )
            } catch {
                return fail("line \(invoke.line): <invoke srcexpr> '\(src)': \(error)")
            }
        case .contentExpression(let script):
            guard let text = evaluate(script)?.description else { return }
            do {
                childDocument = try SCXMLDocument(xml: text, dataModel: document.dataModel)
            } catch {
                return fail("line \(invoke.line): <invoke> <content expr>: \(error)")
            }
        }
        var values: [String: SCXMLValue] = [:]
        for param in invoke.params {
            guard let value = evaluate(param.value) else { return }
            values[param.name] = value
        }
        let child = SCXMLInterpreter(
            document: childDocument,
            options: options,
            clock: clock,
            recordsTrace: false,
            onMacrostep: nil,
            parent: (self, id),
            initialValues: values
        )
        state.withLock {
            $0.invocations.append(
                Invocation(
                    id: id,
                    state: stateID,
                    autoforward: invoke.autoforward,
                    finalize: invoke.finalize,
                    child: child
                )
            )
        }
        try? child.start()  // a child's failure is the child's (see its `failure`)
    }

    /// The running child session invoked as `id`, if any.
    func invokedSession(_ id: String) -> SCXMLInterpreter? {
        state.withLock { $0.invocations.first { $0.id == id }?.child }
    }

    /// An event from the child invoked as `invokeID`, for the external queue; dropped
    /// when that invocation was cancelled or this machine does not run.
    func receive(_ event: String, _ payload: SCXMLEventFields, fromInvocation invokeID: String) {
        guard state.withLock({ session in session.invocations.contains { $0.id == invokeID } }) else { return }
        deliver(event, payload)
    }

    /// An event for the external queue (from another session, or forwarded); dropped when
    /// this machine does not run.
    func deliver(_ event: String, _ payload: SCXMLEventFields) {
        guard let chart = state.withLock({ $0.chart }), chart.isRunning, !chart.isFinished,
            let request = try? chart.hooks.request(for: SCXMLChart.Event(event))
        else { return }
        _ = chart.engine.submit { _ in QueueItem(request: request, payload: payload, completion: nil) }
    }

    /// Sends `done.invoke.<invokeid>` to the parent, once, with the `<donedata>` of the
    /// final state reached.
    private func reportDoneToParent() {
        guard let parent, let invokeID else { return }
        let (report, data) = state.withLock { session -> (Bool, SCXMLValue?) in
            guard !session.cancelled, !session.reportedDone else { return (false, nil) }
            session.reportedDone = true
            return (true, session.finalDoneData)
        }
        if report {
            parent.receive(
                "done.invoke.\(invokeID)",
                SCXMLEventFields(
                    name: "done.invoke.\(invokeID)",
                    type: "external",
                    origin: location,
                    originType: Self.scxmlProcessorType,
                    invokeID: invokeID,
                    data: data
                ),
                fromInvocation: invokeID
            )
        }
    }

    /// Stops this invoked session for good: no more events to its parent, its own
    /// invocations cancelled, its chart halted.
    private func cancel() {
        let chart = state.withLock { session -> SCXMLChart? in
            session.cancelled = true
            return session.chart
        }
        cancelAllInvocations()
        chart?.engine.submitHalt()
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

    /// Writes the machine's debug log to `sink` (see ``Statechart/attachDebugger(_:)``)
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
    /// for each state of the final configuration, whose `<onexit>` runs then), and
    /// `log:<text>` for each `<log>`. Always empty when the interpreter was created without
    /// `recordsTrace`.
    public var trace: [String] { state.withLock { $0.trace } }

    /// The error that stopped the machine (``StatechartError/eventlessLoop(limit:cycle:)``),
    /// also when the failing macrostep ran on a timer's thread; nil while it runs.
    public var failure: StatechartError? { state.withLock { $0.failure } }

    // MARK: Running

    /// Enters the initial configuration and settles it (eventless transitions and raised
    /// events), then processes the events its `<send>`s queued. Does nothing if the
    /// machine is already running or done; after a failure it starts afresh, from an empty
    /// configuration, no history and new data.
    /// - Throws: ``StatechartError/eventlessLoop(limit:cycle:)`` if a macrostep this call
    ///   ran never settles; the machine then stops.
    public func start() throws {
        let (chart, restarts) = state.withLock { session -> (SCXMLChart, Bool) in
            let restarts = session.failure != nil
            session.failure = nil
            return (session.chart!, restarts)
        }
        // Afresh after a failure: its data too, which the start declares again.
        if restarts { resetData() }
        try run(failuresBefore: failures.load(ordering: .acquiring)) {
            try chart.engine.submit { QueueItem(request: .start, payload: nil, completion: $0 ? .inline : nil) }?.get()
        }
    }

    /// Queues the external event `name` and, unless another thread is running macrosteps,
    /// processes the queue: this event's macrostep (its transitions, then every eventless
    /// transition and raised event until the configuration is stable) and those queued
    /// behind it. Ignored when the machine is not running.
    /// - Throws: ``StatechartError/eventlessLoop(limit:cycle:)`` if a macrostep this call
    ///   ran never settles; the machine then stops.
    public func send(_ name: String) throws {
        try send(name, payload: nil)
    }

    /// Sends the external event `name` with `data` as its `_event.data`, as ``send(_:)``
    /// does. The null data model has no `_event`: its documents ignore the data.
    /// - Throws: ``StatechartError/eventlessLoop(limit:cycle:)`` if a macrostep this call
    ///   ran never settles; the machine then stops.
    public func send(_ name: String, data: SCXMLValue) throws {
        try send(name, payload: SCXMLEventFields(name: name, type: "external", data: data))
    }

    // Inlined into both public forms, so that `send(_:)` knows its payload is nil and
    // neither copies nor releases one.
    @inline(__always)
    private func send(_ name: String, payload: SCXMLEventFields?) throws {
        let failuresBefore = failures.load(ordering: .acquiring)
        let chart = self.chart
        guard chart.isRunning, !chart.isFinished else { return }
        try run(failuresBefore: failuresBefore) {
            let (index, unlisted) = try chart.hooks.lookUp(name)
            // A pattern, not `== nil`: the comparison would copy the payload to compare it.
            if unlisted == nil, case .none = payload {
                if let idle = try chart.engine.runIfIdle(event: index) { return idle }
            } else if let idle = try chart.engine.runIfIdle(event: index, name: unlisted, payload: payload) {
                return idle
            }
            let request = StepRequest.event(index: index, name: unlisted)
            return try chart.engine.submit {
                QueueItem(request: request, payload: payload, completion: $0 ? .inline : nil)
            }?.get()
        }
    }

    /// The session's variables as JSON values: those its `<data>` declared and its
    /// scripts made (empty for the null data model, whose only data are `idlocation`
    /// slots). Read between macrosteps, as ``snapshot()`` is.
    /// - Throws: ``SCXMLDataError`` naming a variable whose value JSON cannot hold (a
    ///   function, a cycle).
    public func variables() throws(SCXMLDataError) -> [String: SCXMLValue] {
        guard document.usesData else { return [:] }
        do {
            return try withData { data throws(SCXMLScriptFailure) in try data.variables() }
        } catch {
            throw SCXMLDataError(message: error.message)
        }
    }

    /// Runs `submit` (which returns the outcome of the macrostep it ran on this thread, nil
    /// when it queued its item for another thread, and throws that macrostep's failure);
    /// throws the failure of a macrostep queued behind it and run on this thread.
    @inline(__always)
    private func run(failuresBefore: Int, _ submit: () throws -> StatechartStepOutcome?) throws {
        guard try submit() != nil else { return }
        guard failures.load(ordering: .acquiring) != failuresBefore else { return }
        let failure = state.withLock { $0.failure }
        if let failure { throw failure }
    }

    /// The state to save: configuration, history values, the data (the variables of a
    /// data model, or the null data model's `idlocation` slots) and the pending delayed
    /// sends with the delay each has left on ``clock``. Taken between macrosteps; encode
    /// it with `JSONEncoder`. Sends to other sessions and running invocations are not kept.
    /// - Throws: ``SCXMLDataError`` when a variable's value cannot be kept (a function, a
    ///   cycle): no half snapshot is made.
    public func snapshot() throws(SCXMLDataError) -> StatechartSnapshot {
        var snapshot = chart.snapshot()
        let variables: [String: SCXMLValue]
        do {
            variables = try withData { data throws(SCXMLScriptFailure) in try data.variables() }
        } catch {
            throw SCXMLDataError(message: error.message)
        }
        if document.usesData {
            snapshot.scxml?.data = variables
        } else {
            snapshot.scxml?.sendIDSlots = variables.compactMapValues { value in
                if case .string(let id) = value { id } else { nil }
            }
        }
        return snapshot
    }

    /// Replaces this machine's state with `snapshot`'s, as
    /// ``init(document:restoring:options:clock:recordsTrace:onMacrostep:onLog:)`` would, keeping the clock and
    /// the observer. The current pending delayed sends are cancelled; should one of their
    /// timers fire anyway, it delivers nothing.
    /// - Throws: ``StatechartError/invalidSnapshot(reason:)`` when the snapshot does not
    ///   fit the document; the machine is then left as it was.
    public func restore(_ snapshot: StatechartSnapshot) throws {
        let restored = makeChart()
        try restored.restore(snapshot)
        let saved: [String: SCXMLValue] =
            document.usesData
            ? snapshot.scxml?.data ?? [:]
            : (snapshot.scxml?.sendIDSlots ?? [:]).mapValues { .string($0) }
        // A new data session, which replaces the current one only once it holds the data.
        var fresh = freshData()
        do throws(SCXMLScriptFailure) {
            guard let session = fresh.session else {
                throw fresh.failure ?? SCXMLScriptFailure(message: "the session has no data model")
            }
            // The document's top-level scripts make its functions again (one that fails did
            // when the session started too: its error was raised then); then the data.
            for case .script(let script) in document.initialScripts { try? session.run(script.index) }
            try session.markCode()
            try session.restore(saved)
        } catch {
            throw StatechartError.invalidSnapshot(reason: "its data do not fit the data model: \(error.message)")
        }
        // A restored session's variables exist already: no <data> is declared again.
        fresh.bound = Set(document.nodes.indices)
        data.withLock { $0 = fresh }
        let previous = state.withLock { session -> SCXMLChart? in
            let previous = session.chart
            session.chart = restored
            session.failure = nil
            session.trace = []
            return previous
        }
        cancelAllInvocations()
        previous?.engine.submitHalt()
    }
}
