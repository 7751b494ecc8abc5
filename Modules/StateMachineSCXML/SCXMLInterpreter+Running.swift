import StateMachineHierarchy
import StateMachineSupport
import Synchronization

// Running.
extension SCXMLInterpreter {
    /// Enters the initial configuration and settles it (eventless transitions and raised
    /// events), then processes the events its `<send>`s queued. Does nothing if the
    /// machine is already running or done; after a failure it starts afresh, from an empty
    /// configuration, no history and new data.
    /// - Throws: `StatechartError/eventlessLoop(limit:cycle:)` if a macrostep this call
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
    /// - Throws: `StatechartError/eventlessLoop(limit:cycle:)` if a macrostep this call
    ///   ran never settles; the machine then stops.
    public func send(_ name: String) throws {
        try send(name, payload: nil)
    }

    /// Sends the external event `name` with `data` as its `_event.data`, as ``send(_:)``
    /// does. The null data model has no `_event`: its documents ignore the data.
    /// - Throws: `StatechartError/eventlessLoop(limit:cycle:)` if a macrostep this call
    ///   ran never settles; the machine then stops.
    public func send(_ name: String, data: SCXMLValue) throws {
        try send(name, payload: SCXMLEventFields(name: name, type: "external", data: data))
    }

    // Inlined into both public forms, so that `send(_:)` knows its payload is nil and
    // neither copies nor releases one.
    @inline(__always)
    func send(_ name: String, payload: SCXMLEventFields?) throws {
        let failuresBefore = failures.load(ordering: .acquiring)
        try withCurrentChart { chart in
            guard chart.isRunning, !chart.isFinished else { return }
            try run(failuresBefore: failuresBefore) {
                let (index, unlisted) = try chart.hooks.lookUpSessionEvent(name)
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
    func run(failuresBefore: Int, _ submit: () throws -> StatechartStepOutcome?) throws {
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
    /// - Throws: `StatechartError/invalidSnapshot(reason:)` when the snapshot does not
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
            makeCurrent(restored, in: &session)
            session.failure = nil
            session.recording = []
            session.trace = []
            return previous
        }
        cancelAllInvocations()
        previous?.engine.submitHalt()
        reclaimCharts()
    }
}
