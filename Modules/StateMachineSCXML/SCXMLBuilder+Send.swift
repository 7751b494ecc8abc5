import StateMachineHierarchy

// The <send> and <cancel> elements.
extension SCXMLBuilder {
    mutating func send(_ element: SCXMLElement) throws(SCXMLError) -> SCXMLDocument.Send {
        try Self.checkAttributes(
            element,
            allowed: [
                "event", "eventexpr", "target", "targetexpr", "type", "typeexpr", "id", "idlocation", "delay",
                "delayexpr", "namelist",
            ]
        )
        if let bad = element.children.first(where: { $0.name != "param" && $0.name != "content" }) {
            throw .unsupportedElement(element: bad.name, line: bad.line)
        }
        let contents = element.children.filter { $0.name == "content" }
        let content = try contents.first.map { part throws(SCXMLError) in try self.content(part) }
        if contents.count > 1 {
            throw .invalidStructure(reason: "<send> has at most one <content>", line: element.line)
        }
        let params = try params(of: element, namelist: element.attributes["namelist"])
        if content != nil, !params.isEmpty {
            throw .invalidStructure(
                reason: "<send> cannot have both <content> and <param>/namelist",
                line: element.line
            )
        }
        guard let event = try text("event", of: element) else {
            throw .missingAttribute(element: "send", attribute: "event", line: element.line)
        }
        if case .literal(let name) = event, name.isEmpty || name.contains(where: { $0.isWhitespace }) {
            throw .unsupportedValue(element: "send", attribute: "event", value: name, line: element.line)
        }
        let target = try text("target", of: element)
        let type = try text("type", of: element)
        try Self.exclusive(["delay", "delayexpr"], of: element)
        var delay = SCXMLDocument.Send.Delay.fixed(.zero)
        if let text = element.attributes["delay"] {
            guard let parsed = SCXMLDocument.duration(css2: text) else {
                throw .invalidDelay(element: "send", value: text, line: element.line)
            }
            delay = .fixed(parsed)
        } else if let expression = element.attributes["delayexpr"] {
            if isNull {
                // The null data model's value: a quoted literal (`delayexpr="'1s'"`, which
                // the W3C's stylesheet writes for conf:delay).
                guard let literal = SCXMLNullDataModel.quotedLiteral(expression) else {
                    if let missingDataModel { throw .dataModelUnavailable(name: missingDataModel, line: element.line) }
                    throw .invalidExpression(
                        element: "send",
                        attribute: "delayexpr",
                        value: expression,
                        reason: "the null data model's values are quoted literals ('2s')",
                        line: element.line
                    )
                }
                guard let parsed = SCXMLDocument.duration(css2: literal) else {
                    throw .invalidDelay(element: "send", value: literal, line: element.line)
                }
                delay = .fixed(parsed)
            } else {
                delay = .expression(script(.value, expression, on: element, attribute: "delayexpr"))
            }
        }
        if case .literal(let targetText) = target, SCXMLDocument.sendTarget(targetText, type: nil) == .internal,
            delay != .fixed(.zero)
        {
            throw .invalidStructure(
                reason:
                    "a <send> to #_internal cannot have a delay (the internal queue is emptied within the macrostep)",
                line: element.line
            )
        }
        try Self.exclusive(["id", "idlocation"], of: element)
        let id = element.attributes["id"]
        if let id, id.isEmpty {
            throw .unsupportedValue(element: "send", attribute: "id", value: id, line: element.line)
        }
        if isNull, let idLocation = element.attributes["idlocation"] {
            guard SCXMLNullDataModel.isSlotName(idLocation) else {
                throw .unsupportedValue(element: "send", attribute: "idlocation", value: idLocation, line: element.line)
            }
            idLocations.insert(idLocation)
        }
        return SCXMLDocument.Send(
            event: event,
            target: target,
            type: type,
            delay: delay,
            id: id,
            idLocation: script(.location, attribute: "idlocation", of: element),
            params: params,
            content: content,
            position: element.position
        )
    }

    /// A `<cancel>` with exactly one of `sendid` and `sendidexpr`. With the null data
    /// model, `sendidexpr` is a quoted literal or a slot an `idlocation` fills.
    mutating func cancel(_ element: SCXMLElement) throws(SCXMLError) -> SCXMLDocument.Cancel {
        try Self.checkAttributes(element, allowed: ["sendid", "sendidexpr"])
        if let bad = element.children.first { throw .unsupportedElement(element: bad.name, line: bad.line) }
        switch (element.attributes["sendid"], element.attributes["sendidexpr"]) {
        case let (id?, nil):
            guard !id.isEmpty else {
                throw .unsupportedValue(element: "cancel", attribute: "sendid", value: id, line: element.line)
            }
            return SCXMLDocument.Cancel(sendID: .literal(id), line: element.line)
        case let (nil, expression?):
            let trimmed = expression.trimmingCharacters(in: .whitespaces)
            if isNull {
                if let literal = SCXMLNullDataModel.quotedLiteral(trimmed), !literal.isEmpty {
                    return SCXMLDocument.Cancel(sendID: .literal(literal), line: element.line)
                }
                guard SCXMLNullDataModel.isSlotName(trimmed) else {
                    throw .unsupportedValue(
                        element: "cancel",
                        attribute: "sendidexpr",
                        value: expression,
                        line: element.line
                    )
                }
                cancelledLocations.append((trimmed, element.line))
            }
            // The null data model reads a slot as the value of its location.
            return SCXMLDocument.Cancel(
                sendID: .expression(script(isNull ? .location : .value, trimmed, on: element, attribute: "sendidexpr")),
                line: element.line
            )
        case (nil, nil):
            throw .missingAttribute(element: "cancel", attribute: "sendid", line: element.line)
        case (_?, _?):
            throw .invalidStructure(reason: "<cancel> cannot have both 'sendid' and 'sendidexpr'", line: element.line)
        }
    }
}
