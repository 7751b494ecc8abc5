import Foundation
import StateMachineHierarchy

// Executable content, run inside the chart's steps (on its draining thread), with every
// expression, location and script going through the session's data model.

extension SCXMLInterpreter {
    /// The SCXML event I/O processor's type, as `_event.origintype` gives it.
    static let scxmlProcessorType = "http://www.w3.org/TR/scxml/#SCXMLEventProcessor"

    /// Runs executable content inside a step: `<raise>` and `<send target="#_internal">`
    /// go to the internal queue, other `<send>`s to their session's queue (after their
    /// delay, on the chart's clock), `<cancel>` drops pending sends by id, `<log>` writes
    /// to the trace, `<if>` runs its first branch whose condition holds, `<assign>`,
    /// `<script>` and `<foreach>` work on the data model.
    ///
    /// As SCXML requires, an element that fails (raising `error.execution` or
    /// `error.communication` on the internal queue) ends its block: the elements after it
    /// do not run.
    func run(_ actions: [SCXMLDocument.Action], _ context: SCXMLChart.Context) {
        _ = execute(actions, context)
    }

    /// Whether the condition holds; a condition that cannot be evaluated is false and
    /// raises `error.execution`.
    func holds(_ condition: SCXMLDocument.Script, _ context: SCXMLChart.Context) -> Bool {
        do {
            return try withData { data throws(SCXMLScriptFailure) in try data.isTrue(condition.index) }
        } catch {
            fail(error, at: condition, context)
            return false
        }
    }

    /// The value of `script`, or nil after raising `error.execution`.
    func value(of script: SCXMLDocument.Script, _ context: SCXMLChart.Context) -> SCXMLValue? {
        do {
            return try withData { data throws(SCXMLScriptFailure) in try data.evaluate(script.index) }
        } catch {
            fail(error, at: script, context)
            return nil
        }
    }

    /// Raises `error.execution` for a script that failed, and records why in the trace
    /// (`error:line 12: cond="x.y > 1" on <transition>: TypeError: ...`); the event's data
    /// names the script's element (see ``raiseError(_:_:reason:at:_:_:)``).
    func fail(
        _ failure: SCXMLScriptFailure,
        at script: SCXMLDocument.Script?,
        _ context: SCXMLChart.Context,
        sendID: String? = nil
    ) {
        let source = script.map { document.scripts[$0.index] }
        raiseError(
            "error.execution",
            [source?.location, failure.message].compactMap { $0 }.joined(separator: ": "),
            reason: failure.message,
            at: source.map { ErrorPlace(tagName: $0.element, line: $0.line, column: $0.column) },
            context,
            sendID
        )
    }

    /// The element an error event comes from, as its `_event.data` names it.
    struct ErrorPlace {
        /// The element's name (`assign`, `send`...).
        let tagName: String
        /// Where its start tag is (the column 0 when unknown).
        let line: Int
        let column: Int

        /// The place of an element at `position`.
        init(tagName: String, position: SCXMLPosition) {
            self.init(tagName: tagName, line: position.line, column: position.column)
        }

        init(tagName: String, line: Int, column: Int) {
            self.tagName = tagName
            self.line = line
            self.column = column
        }
    }

    /// Raises the platform event `name` (`error.execution`, `error.communication`) and
    /// records `message` in the trace. Its `_event.data` is an object, as SCION gives it:
    /// `reason` (`reason`, else `message`), and when the element is known its `tagname`,
    /// `line` and `column` (numbers; the column where its start tag ends, as the parser
    /// reports it, left out when unknown).
    func raiseError(
        _ name: String,
        _ message: String,
        reason: String? = nil,
        at place: ErrorPlace?,
        _ context: SCXMLChart.Context,
        _ sendID: String? = nil
    ) {
        note("error:\(name): \(message)")
        context.raise(
            SCXMLChart.Event(
                name,
                payload: SCXMLEventFields(
                    name: name,
                    type: "platform",
                    sendID: sendID,
                    data: Self.errorData(reason: reason ?? message, at: place)
                )
            )
        )
    }

    /// The `_event.data` of an error event (see ``raiseError(_:_:reason:at:_:_:)``).
    static func errorData(reason: String, at place: ErrorPlace?) -> SCXMLValue {
        var fields: [String: SCXMLValue] = ["reason": .string(reason)]
        if let place {
            fields["tagname"] = .string(place.tagName)
            fields["line"] = .number(Double(place.line))
            if place.column > 0 { fields["column"] = .number(Double(place.column)) }
        }
        return .object(fields)
    }

    /// The text of a literal or evaluated attribute (`eventexpr`, `targetexpr`...).
    private func text(_ text: SCXMLDocument.Text, _ context: SCXMLChart.Context) -> String? {
        switch text {
        case .literal(let value): return value
        case .expression(let script): return value(of: script, context)?.description
        }
    }

    /// Records an entry of executable content in the trace, when the session records it.
    private func noteContent(_ entry: @autoclosure () -> String) {
        guard recordsContent else { return }
        note(entry())
    }

    /// False when an element failed, which ends the enclosing blocks too.
    private func execute(_ actions: [SCXMLDocument.Action], _ context: SCXMLChart.Context) -> Bool {
        // The engine (a weak reference) is looked up only by the elements that use it. A block
        // runs inside a step of the engine, so it is there; it is missing only for a context
        // that outlived its chart, whose sends and cancels then do nothing.
        for action in actions {
            switch action {
            case .raise(let event):
                noteContent("raise:\(event)")
                context.raise(SCXMLChart.Event(event, payload: SCXMLEventFields(name: event, type: "internal")))
            case .log(let label, let expression):
                var value: String?
                if let expression {
                    guard let result = self.value(of: expression, context) else { return false }
                    value = result.description
                }
                let text = [label, value].compactMap { $0 }.joined(separator: ": ")
                note("log:\(text)")
                onLog?(text)
            case .if(let branches):
                for branch in branches {
                    guard let condition = branch.condition else {
                        guard execute(branch.actions, context) else { return false }
                        break
                    }
                    let result: Bool
                    do {
                        result = try withData { data throws(SCXMLScriptFailure) in try data.isTrue(condition.index) }
                    } catch {
                        fail(error, at: condition, context)
                        return false
                    }
                    if result {
                        guard execute(branch.actions, context) else { return false }
                        break
                    }
                }
            case .send(let send):
                guard let engine = context.hooks.engine else { return true }
                guard self.send(send, engine, context) else { return false }
            case .cancel(let cancel):
                guard let engine = context.hooks.engine else { return true }
                guard let id = text(cancel.sendID, context) else { return false }
                noteContent("cancel:\(id)")
                engine.sends?.cancel { $0 == id }
                outside?.cancel(id)
            case .assign(let location, let value):
                do {
                    try withData { data throws(SCXMLScriptFailure) in
                        switch value {
                        case .expression(let expression): try data.assign(location.index, from: expression.index)
                        case .literal(let literal): try data.assign(location.index, value: literal)
                        }
                    }
                } catch {
                    if case .expression(let expression) = value {
                        // One call evaluated both: the message names both.
                        let target = document.scripts[location.index]
                        let source = document.scripts[expression.index]
                        raiseError(
                            "error.execution",
                            "line \(target.line): <assign location=\"\(target.text)\" expr=\"\(source.text)\">: \(error.message)",
                            reason: error.message,
                            at: ErrorPlace(tagName: target.element, line: target.line, column: target.column),
                            context
                        )
                    } else {
                        fail(error, at: location, context)
                    }
                    return false
                }
                noteContent("assign:\(document.scripts[location.index].text)")
            case .script(let script):
                do {
                    try withData { data throws(SCXMLScriptFailure) in try data.run(script.index) }
                } catch {
                    fail(error, at: script, context)
                    return false
                }
                noteContent("script:line \(document.scripts[script.index].line)")
            case .foreach(let array, let item, let index, let body):
                guard forEach(array: array, item: item, index: index, body: body, context) else { return false }
            }
        }
        return true
    }

    /// `<foreach>`: the body runs once per element of a shallow copy of the array.
    private func forEach(
        array: SCXMLDocument.Script,
        item: SCXMLDocument.Script,
        index: SCXMLDocument.Script?,
        body: [SCXMLDocument.Action],
        _ context: SCXMLChart.Context
    ) -> Bool {
        let count: Int
        do {
            count = try withData { data throws(SCXMLScriptFailure) in try data.beginForEach(array: array.index) }
        } catch {
            fail(error, at: array, context)
            return false
        }
        defer { try? withData { data throws(SCXMLScriptFailure) in data.endForEach() } }
        for position in 0..<count {
            do {
                try withData { data throws(SCXMLScriptFailure) in
                    try data.assignForEach(position: position, item: item.index, index: index?.index)
                }
            } catch {
                fail(error, at: item, context)
                return false
            }
            guard execute(body, context) else { return false }
        }
        return true
    }

    /// The data of a `<send>` or `<donedata>`: its content, or an object of its params.
    /// Nil (after raising `error.execution`) when one cannot be evaluated.
    func eventData(
        params: [SCXMLDocument.Param],
        content: SCXMLDocument.ValueSource?,
        _ context: SCXMLChart.Context
    ) -> SCXMLValue?? {
        if let content {
            switch content {
            case .literal(let value): return .some(value)
            case .expression(let script):
                guard let value = value(of: script, context) else { return nil }
                return .some(value)
            }
        }
        guard !params.isEmpty else { return .some(nil) }
        var members: [String: SCXMLValue] = [:]
        for param in params {
            guard let value = value(of: param.value, context) else { return nil }
            members[param.name] = value
        }
        return .some(.object(members))
    }

    /// Executes a `<send>`; false when it failed (the error is raised).
    private func send(_ send: SCXMLDocument.Send, _ engine: StatechartEngine, _ context: SCXMLChart.Context) -> Bool {
        guard let event = text(send.event, context) else { return false }
        var targetText: String?
        if let target = send.target {
            guard let text = text(target, context) else { return false }
            targetText = text
        }
        var typeText: String?
        if let type = send.type {
            guard let text = text(type, context) else { return false }
            typeText = text
        }
        let delay: Duration
        switch send.delay {
        case .fixed(let fixed): delay = fixed
        case .expression(let script):
            guard let text = value(of: script, context)?.description else { return false }
            guard let parsed = SCXMLDocument.duration(css2: text) else {
                fail(
                    SCXMLScriptFailure(message: "'\(text)' is not a CSS2 time (such as 2s or 500ms)"),
                    at: script,
                    context
                )
                return false
            }
            delay = parsed
        }
        var id = send.id
        if let location = send.idLocation, let sends = engine.sends {
            let generated = sends.generateID()
            id = generated
            do {
                try withData { data throws(SCXMLScriptFailure) in
                    try data.assign(location.index, value: .string(generated))
                }
            } catch {
                fail(error, at: location, context)
                return false
            }
        }
        guard let data = eventData(params: send.params, content: send.content, context) else { return false }
        let target = SCXMLDocument.sendTarget(targetText, type: typeText)
        let place = ErrorPlace(tagName: "send", position: send.position)
        noteContent("send:\(event)" + (targetText.map { " to \($0)" } ?? ""))
        let payload = SCXMLEventFields(
            name: event,
            type: "external",
            sendID: id,
            origin: location,
            originType: Self.scxmlProcessorType,
            invokeID: nil,
            data: data
        )
        switch target {
        case .internal:
            context.raise(
                SCXMLChart.Event(
                    event,
                    payload: SCXMLEventFields(name: event, type: "internal", sendID: id, data: data)
                )
            )
            return true
        case .external:
            return schedule(event, payload, delay: delay, id: id, engine, context, from: place)
        case .session(let sessionID) where sessionID == self.sessionID:
            return schedule(event, payload, delay: delay, id: id, engine, context, from: place)
        case .parent:
            guard let parent = parentSession, let invokeID else {
                raiseError(
                    "error.communication",
                    "<send target=\"#_parent\">: this session was not invoked",
                    at: place,
                    context,
                    id
                )
                return false
            }
            var payload = payload
            payload.invokeID = invokeID
            let deliver: @Sendable () -> Void = { [weak self, payload] in
                guard let self, !self.isCancelled else { return }
                parent.receive(event, payload, fromInvocation: invokeID)
            }
            return schedule(event, payload, delay: delay, id: id, engine, context, from: place, forward: deliver)
        case .invoked(let invocation):
            guard let child = invokedSession(invocation) else {
                raiseError(
                    "error.communication",
                    "<send target=\"#_\(invocation)\">: no running invocation has that id",
                    at: place,
                    context,
                    id
                )
                return false
            }
            let deliver: @Sendable () -> Void = { [weak child] in child?.deliver(event, payload) }
            return schedule(event, payload, delay: delay, id: id, engine, context, from: place, forward: deliver)
        case .session(let sessionID):
            guard let other = Self.session(withID: sessionID) else {
                if let outside {
                    outside.send(
                        SCXMLOutgoingSend(
                            target: targetText,
                            type: typeText,
                            event: event,
                            sendID: id,
                            data: data,
                            delay: delay
                        )
                    )
                    return true
                }
                raiseError(
                    "error.communication",
                    "<send target=\"#_scxml_\(sessionID)\">: no such session",
                    at: place,
                    context,
                    id
                )
                return false
            }
            let deliver: @Sendable () -> Void = { [weak other] in other?.deliver(event, payload) }
            return schedule(event, payload, delay: delay, id: id, engine, context, from: place, forward: deliver)
        case .undeliverable(let error):
            if let outside, targetText != nil {
                outside.send(
                    SCXMLOutgoingSend(
                        target: targetText,
                        type: typeText,
                        event: event,
                        sendID: id,
                        data: data,
                        delay: delay
                    )
                )
                return true
            }
            raiseError(
                error,
                "<send> to target \(targetText.map { "'\($0)'" } ?? "(none)") of type \(typeText.map { "'\($0)'" } ?? "(none)") cannot be delivered",
                at: place,
                context,
                id
            )
            return false
        }
    }

    /// Queues `event` now or after `delay`: on this chart's queue, or, with `forward`, by
    /// calling it (a send to another session, timed on this session's clock).
    private func schedule(
        _ event: String,
        _ payload: SCXMLEventFields,
        delay: Duration,
        id: String?,
        _ engine: StatechartEngine,
        _ context: SCXMLChart.Context,
        from place: ErrorPlace,
        forward: (@Sendable () -> Void)? = nil
    ) -> Bool {
        guard let request = try? context.hooks.sessionRequest(for: SCXMLChart.Event(event)) else { return true }
        guard
            engine.sends?.schedule(request, payload: payload, name: event, delay: delay, id: id, forward: forward)
                == true
        else {
            raiseError(
                "error.execution",
                "<send event=\"\(event)\">: \(StatechartLimits.maxPendingSends) delayed sends are pending already",
                at: place,
                context,
                id
            )
            return false
        }
        return true
    }

    // MARK: Data

    /// Declares the session's `<data>`: with early binding every one in the document, with
    /// late binding the root's (the others when their state is first entered); then runs
    /// the document's top-level `<script>`s. Run by the root's initial transition.
    func initializeData(_ context: SCXMLChart.Context) {
        for index in document.nodes.indices where !document.nodes[index].data.isEmpty {
            guard index == 0 || !document.lateBinding else { continue }
            bindData(of: index, context)
        }
        run(document.initialScripts, context)
        do {
            try withData { data throws(SCXMLScriptFailure) in try data.markCode() }
        } catch {
            raiseError(
                "error.execution",
                error.message,
                at: ErrorPlace(tagName: "scxml", line: document.nodes[0].line, column: 0),
                context
            )
        }
    }

    /// Declares the `<data>` of `node` (once per session). A value that cannot be
    /// evaluated leaves its variable undefined and raises `error.execution`.
    func bindData(of node: Int, _ context: SCXMLChart.Context) {
        guard markBound(node) else { return }
        for item in document.nodes[node].data {
            do {
                try withData { data throws(SCXMLScriptFailure) in
                    if let given = initialValues[item.id] {
                        try data.declare(item.id, value: given)
                        return
                    }
                    switch item.value {
                    case nil: try data.declare(item.id, from: nil)
                    case .literal(let value)?: try data.declare(item.id, value: value)
                    case .expression(let script)?:
                        do throws(SCXMLScriptFailure) {
                            try data.declare(item.id, from: script.index)
                        } catch {
                            try? data.declare(item.id, from: nil)
                            throw error
                        }
                    }
                }
            } catch {
                let script: SCXMLDocument.Script? =
                    if case .expression(let script)? = item.value { script } else { nil }
                if script == nil {
                    raiseError(
                        "error.execution",
                        "line \(item.line): <data id=\"\(item.id)\">: \(error.message)",
                        reason: error.message,
                        at: ErrorPlace(tagName: "data", position: item.position),
                        context
                    )
                } else {
                    fail(error, at: script, context)
                }
            }
        }
    }

    /// Evaluates the `<donedata>` of the final state `node` just entered, for the
    /// `done.state` (or, for a top-level final, `done.invoke`) event it leads to.
    func evaluateDoneData(of node: Int, _ context: SCXMLChart.Context) {
        guard let doneData = document.nodes[node].doneData else { return }
        let value: SCXMLValue??
        switch doneData {
        case .content(let content): value = eventData(params: [], content: content, context)
        case .params(let params): value = eventData(params: params, content: nil, context)
        }
        let parent = document.nodes[node].parent
        storeDoneData(value ?? nil, forParent: parent == 0 ? nil : document.nodes[parent].id)
    }
}
