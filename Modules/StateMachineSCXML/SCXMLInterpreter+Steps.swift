import StateMachineHierarchy
import StateMachineSupport
import Synchronization

// Following the chart's steps (on its draining thread).
extension SCXMLInterpreter {
    /// Records an entry of the running macrostep's trace.
    func note(_ entry: @autoclosure () -> String) {
        guard recordsTrace else { return }
        let entry = entry()
        state.withLock { $0.recording.append(entry) }
    }

    /// A state is entered or exited, before its `<onentry>` or `<onexit>` runs: the
    /// trace's `enter:` and `exit:` entries.
    package func stateTraced(entered: Bool, name: String) {
        note(entered ? "enter:\(name)" : "exit:\(name)")
    }

    /// Before an event's transitions are selected: binds `_event`, runs the `<finalize>`
    /// of the invocation it came from, and forwards an external event to the children that
    /// `autoforward`.
    package func eventStarted(_ name: String, payload: (any Sendable)?, external: Bool, from hooks: AnyObject) {
        let payload = payload as? SCXMLEventFields
        let isDone = !external && payload == nil && name.hasPrefix("done.state.")
        // The session's lock only when there is something under it to read or record: the
        // usual event of an untraced session without invocations takes none.
        var (invocations, doneData): ([Invocation], SCXMLValue?) = ([], nil)
        if recordsTrace || isDone || (external && invokes) {
            let found = state.withLock { session -> ([Invocation], SCXMLValue?)? in
                // The step of a chart `restore` replaced while it ran (its later steps do not
                // call): nothing of it reaches the session.
                guard session.chart?.hooks === hooks else { return nil }
                if recordsTrace { session.recording.append("event:\(name)") }
                var doneData: SCXMLValue?
                if isDone, let position = session.doneData.firstIndex(where: { "done.state." + $0.state == name }) {
                    doneData = session.doneData.remove(at: position).value
                }
                return (external ? session.invocations : [], doneData)
            }
            guard let found else { return }
            (invocations, doneData) = found
        }
        if document.usesData {
            // The queue's name is the one processed (a prefix match may have renamed it).
            var fields =
                payload
                ?? SCXMLEventFields(name: name, type: external ? "external" : (isDone ? "platform" : "internal"))
            fields.name = name
            if let doneData, fields.data == nil { fields.data = doneData }
            try? withData { data throws(SCXMLScriptFailure) in data.setEvent(fields) }
        }
        guard !invocations.isEmpty, let hooks = hooks as? SCXMLChart.Hooks else { return }
        let context = SCXMLChart.Context(payload: payload, eventIndex: -1, hooks: hooks)
        for invocation in invocations {
            if invocation.id == payload?.invokeID { run(invocation.finalize, context) }
            if invocation.autoforward {
                invocation.child.deliver(name, payload ?? SCXMLEventFields(name: name, type: "external"))
            }
        }
    }

    /// After every step: publishes the trace, stops the machine on a failure, starts the
    /// invocations of the states the macrostep entered, reports a child's completion.
    package func stepFinished(_ result: Result<StatechartStepOutcome, StatechartError>, from hooks: AnyObject) {
        let (trace, chart, failed) = state.withLock { session -> ([String]?, SCXMLChart?, Bool) in
            // As in `eventStarted`: a replaced chart's step reaches nothing of the session.
            guard session.chart?.hooks === hooks else { return (nil, nil, false) }
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
}
