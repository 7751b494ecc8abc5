import Foundation
import StateMachineHierarchy
import StateMachineSupport

// Invocations.
extension SCXMLInterpreter {
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

    func cancelAllInvocations() {
        let cancelled = state.withLock { session -> [Invocation] in
            session.statesToInvoke = []
            defer { session.invocations = [] }
            return session.invocations
        }
        for invocation in cancelled { invocation.child.cancel() }
    }

    /// Starts, in document order, the invocations of the states the macrostep entered.
    func startInvocations(_ chart: SCXMLChart) {
        let states = state.withLock { session -> [String] in
            defer { session.statesToInvoke = [] }
            return session.statesToInvoke
        }
        guard !states.isEmpty else { return }
        let ordered = states.compactMap { id in document.index(of: id).map { (id, $0) } }.sorted { $0.1 < $1.1 }
        for (stateID, index) in ordered where chart.isActive(stateID) {
            for (position, invoke) in document.nodes[index].invokes.enumerated() {
                start(invoke, number: position, in: stateID, chart)
            }
        }
    }

    /// Starts one `<invoke>` (the state's `number`th) of the state `stateID`. What cannot be
    /// evaluated (its type, document, params or idlocation) raises `error.execution` and
    /// starts nothing.
    func start(_ invoke: SCXMLDocument.Invoke, number: Int, in stateID: String, _ chart: SCXMLChart) {
        let id = state.withLock { session -> String in
            if let id = invoke.id { return id }
            session.generatedInvokeIDs += 1
            return "\(stateID).\(session.generatedInvokeIDs)"
        }
        // Outside a step: errors go to the queue as events of their own.
        let fail = { (message: String) in
            self.note("error:error.execution: \(message)")
            guard let request = try? chart.hooks.sessionRequest(for: SCXMLChart.Event("error.execution")) else {
                return
            }
            _ = chart.engine.submit { _ in
                QueueItem(
                    request: request,
                    payload: SCXMLEventFields(
                        name: "error.execution",
                        type: "platform",
                        data: Self.errorData(
                            reason: message,
                            at: ErrorPlace(tagName: "invoke", position: invoke.position)
                        )
                    ),
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
        var source: String?
        switch invoke.source {
        case .document: break
        case .sourceExpression(let script), .contentExpression(let script):
            guard let text = evaluate(script)?.description else { return }
            source = text
        }
        let childDocument: SCXMLDocument
        do {
            childDocument = try document(of: invoke, source: source)
        } catch {
            return fail("\(error)")
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
            initialValues: values,
            outside: outside
        )
        state.withLock {
            $0.invocations.append(
                Invocation(
                    id: id,
                    state: stateID,
                    autoforward: invoke.autoforward,
                    finalize: invoke.finalize,
                    invoke: number,
                    source: source,
                    child: child
                )
            )
        }
        try? child.start()  // a child's failure is the child's (see its `failure`)
    }

    /// The document `invoke` runs: its own, or the one its evaluated `srcexpr` (`source`)
    /// names, or the one its evaluated `<content expr>` (`source`) holds.
    func document(of invoke: SCXMLDocument.Invoke, source: String?) throws(SCXMLError) -> SCXMLDocument {
        switch invoke.source {
        case .document(let given):
            return given
        case .sourceExpression:
            return try SCXMLDocument.invoked(
                source ?? "",
                attribute: "srcexpr",
                line: invoke.line,
                base: document.baseURL,
                depth: 1,
                dataModel: document.dataModel,
                sources: document.sources
            )
        case .contentExpression:
            do {
                return try SCXMLDocument(
                    data: Data((source ?? "").utf8),
                    baseURL: document.baseURL,
                    depth: 1,
                    dataModel: document.dataModel,
                    sources: document.sources
                )
            } catch {
                throw .invalidStructure(reason: "<invoke> <content expr>: \(error)", line: invoke.line)
            }
        }
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
        let chart = chart
        guard chart.isRunning, !chart.isFinished,
            let request = try? chart.hooks.sessionRequest(for: SCXMLChart.Event(event))
        else { return }
        _ = chart.engine.submit { _ in QueueItem(request: request, payload: payload, completion: nil) }
    }

    /// Sends `done.invoke.<invokeid>` to the parent, once, with the `<donedata>` of the
    /// final state reached.
    func reportDoneToParent() {
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
    func cancel() {
        let chart = state.withLock { session -> SCXMLChart? in
            session.cancelled = true
            return session.chart
        }
        cancelAllInvocations()
        chart?.engine.submitHalt()
    }

    /// The chart being run (see `withCurrentChart(_:)`).
    var chart: SCXMLChart { withCurrentChart { $0 } }
}
