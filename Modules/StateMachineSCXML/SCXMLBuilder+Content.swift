import StateMachineHierarchy

// Executable content: actions, invoke, if/elseif/else branches, conditions and text.
extension SCXMLBuilder {
    mutating func actions(in element: SCXMLElement) throws(SCXMLError) -> [SCXMLDocument.Action] {
        var actions: [SCXMLDocument.Action] = []
        for child in element.children {
            switch child.name {
            case "raise":
                try Self.checkAttributes(child, allowed: ["event"])
                guard let event = child.attributes["event"], !event.isEmpty else {
                    throw .missingAttribute(element: "raise", attribute: "event", line: child.line)
                }
                if let bad = child.children.first { throw .unsupportedElement(element: bad.name, line: bad.line) }
                actions.append(.raise(event))
            case "log":
                try Self.checkAttributes(child, allowed: ["label", "expr"])
                if let bad = child.children.first { throw .unsupportedElement(element: bad.name, line: bad.line) }
                if isNull, let expression = child.attributes["expr"],
                    SCXMLNullDataModel.quotedLiteral(expression) == nil
                {
                    if let missingDataModel { throw .dataModelUnavailable(name: missingDataModel, line: child.line) }
                    throw .invalidExpression(
                        element: "log",
                        attribute: "expr",
                        value: expression,
                        reason: "the null data model's expr is a quoted literal, such as 'text'",
                        line: child.line
                    )
                }
                actions.append(
                    .log(label: child.attributes["label"], expr: script(.value, attribute: "expr", of: child))
                )
            case "if":
                actions.append(.if(try branches(of: child)))
            case "send":
                actions.append(.send(try send(child)))
            case "cancel":
                actions.append(.cancel(try cancel(child)))
            case "assign":
                try requireData(child)
                try Self.checkAttributes(child, allowed: ["location", "expr"])
                guard let location = script(.location, attribute: "location", of: child) else {
                    throw .missingAttribute(element: "assign", attribute: "location", line: child.line)
                }
                if let expression = script(.value, attribute: "expr", of: child) {
                    guard !child.hasText, child.children.isEmpty else {
                        throw .invalidStructure(
                            reason: "<assign> cannot have both 'expr' and content",
                            line: child.line
                        )
                    }
                    actions.append(.assign(location: location, value: .expression(expression)))
                } else {
                    actions.append(.assign(location: location, value: .literal(Self.inlineValue(of: child))))
                }
            case "script":
                actions.append(try script(child))
            case "foreach":
                try requireData(child)
                try Self.checkAttributes(child, allowed: ["array", "item", "index"])
                guard let array = script(.value, attribute: "array", of: child) else {
                    throw .missingAttribute(element: "foreach", attribute: "array", line: child.line)
                }
                guard let item = script(.location, attribute: "item", of: child) else {
                    throw .missingAttribute(element: "foreach", attribute: "item", line: child.line)
                }
                let index = script(.location, attribute: "index", of: child)
                actions.append(.foreach(array: array, item: item, index: index, actions: try self.actions(in: child)))
            default:
                throw .unsupportedElement(element: child.name, line: child.line)
            }
        }
        return actions
    }

    /// The SCXML invocation types (URI, short and legacy forms).
    static let scxmlInvokeTypes: Set<String> = [
        "http://www.w3.org/TR/scxml/", "http://www.w3.org/TR/scxml", "scxml",
    ]

    /// An `<invoke>` of an SCXML document given by `src`/`srcexpr` or `<content>`.
    mutating func invoke(_ element: SCXMLElement, in node: Int) throws(SCXMLError) -> SCXMLDocument.Invoke {
        try Self.checkAttributes(
            element,
            allowed: ["type", "typeexpr", "src", "srcexpr", "id", "idlocation", "namelist", "autoforward"]
        )
        if let type = element.attributes["type"], !Self.scxmlInvokeTypes.contains(type) {
            throw .unsupportedValue(element: "invoke", attribute: "type", value: type, line: element.line)
        }
        for attribute in ["typeexpr", "srcexpr"] where element.attributes[attribute] != nil {
            try requireData(element, attribute: attribute)
        }
        try Self.exclusive(["type", "typeexpr"], of: element)
        try Self.exclusive(["src", "srcexpr"], of: element)
        try Self.exclusive(["id", "idlocation"], of: element)
        let autoforward: Bool
        switch element.attributes["autoforward"] ?? "false" {
        case "true": autoforward = true
        case "false": autoforward = false
        case let other:
            throw .unsupportedValue(element: "invoke", attribute: "autoforward", value: other, line: element.line)
        }
        let id = element.attributes["id"]
        if let id, id.isEmpty || id.contains(where: \.isWhitespace) {
            throw .unsupportedValue(element: "invoke", attribute: "id", value: id, line: element.line)
        }
        if isNull, let idLocation = element.attributes["idlocation"] {
            guard SCXMLNullDataModel.isSlotName(idLocation) else {
                throw .unsupportedValue(
                    element: "invoke",
                    attribute: "idlocation",
                    value: idLocation,
                    line: element.line
                )
            }
            idLocations.insert(idLocation)
        }
        let idLocation = script(.location, attribute: "idlocation", of: element)
        let typeExpression = script(.value, attribute: "typeexpr", of: element)
        guard depth < SCXMLDocument.maxInvokeDepth else {
            throw .invalidStructure(
                reason:
                    "invocations nest more than \(SCXMLDocument.maxInvokeDepth) documents deep (a document that invokes itself?)",
                line: element.line
            )
        }
        var source: SCXMLDocument.Invoke.Source?
        var finalize: [SCXMLDocument.Action] = []
        let hasSource = element.attributes["src"] != nil || element.attributes["srcexpr"] != nil
        for part in element.children {
            switch part.name {
            case "content":
                guard source == nil, !hasSource else {
                    throw .invalidStructure(
                        reason: "<invoke> needs exactly one of 'src', 'srcexpr' and <content>",
                        line: part.line
                    )
                }
                if let expression = part.attributes["expr"] {
                    try requireData(part, attribute: "expr")
                    try Self.checkAttributes(part, allowed: ["expr"])
                    guard part.children.isEmpty, !part.hasText else {
                        throw .invalidStructure(reason: "<content> cannot have both 'expr' and a body", line: part.line)
                    }
                    source = .contentExpression(script(.value, expression, on: part, attribute: "expr"))
                    continue
                }
                try Self.checkAttributes(part, allowed: [])
                guard part.children.count == 1, part.children[0].name == "scxml", !part.hasText else {
                    throw .invalidStructure(
                        reason: "<content> of an <invoke> must hold one <scxml> element",
                        line: part.line
                    )
                }
                source = .document(
                    try SCXMLDocument(
                        tree: part.children[0],
                        baseURL: baseURL,
                        depth: depth + 1,
                        dataModel: available,
                        sources: sources
                    )
                )
            case "finalize":
                try Self.checkAttributes(part, allowed: [])
                finalize += try actions(in: part)
            case "param":
                break  // read below
            default:
                throw .unsupportedElement(element: part.name, line: part.line)
            }
        }
        if let src = element.attributes["src"] {
            source = .document(
                try SCXMLDocument.invoked(
                    src,
                    attribute: "src",
                    line: element.line,
                    base: baseURL,
                    depth: depth + 1,
                    dataModel: available,
                    sources: sources
                )
            )
        }
        if let expression = script(.value, attribute: "srcexpr", of: element) {
            source = .sourceExpression(expression)
        }
        let params = try params(of: element, namelist: element.attributes["namelist"])
        guard let source else {
            throw .invalidStructure(
                reason: "<invoke> needs exactly one of 'src', 'srcexpr' and <content>",
                line: element.line
            )
        }
        return SCXMLDocument.Invoke(
            id: id,
            idLocation: idLocation,
            typeExpression: typeExpression,
            autoforward: autoforward,
            source: source,
            params: params,
            finalize: finalize,
            position: element.position
        )
    }

    /// The branches of `<if cond>`: its content up to the first `<elseif cond>` or
    /// `<else>`, and so on; an `<else>` must come last.
    mutating func branches(of element: SCXMLElement) throws(SCXMLError) -> [SCXMLDocument.Branch] {
        try Self.checkAttributes(element, allowed: ["cond"])
        guard let text = element.attributes["cond"] else {
            throw .missingAttribute(element: "if", attribute: "cond", line: element.line)
        }
        var branches: [SCXMLDocument.Branch] = []
        var condition: SCXMLDocument.Script? = try self.condition(text, on: element)
        var content = SCXMLElement(name: "if", attributes: [:], position: element.position)
        var sawElse = false
        for child in element.children {
            switch child.name {
            case "elseif", "else":
                if sawElse {
                    throw .invalidStructure(reason: "<\(child.name)> after <else> in <if>", line: child.line)
                }
                if let bad = child.children.first { throw .unsupportedElement(element: bad.name, line: bad.line) }
                branches.append(SCXMLDocument.Branch(condition: condition, actions: try actions(in: content)))
                content.children = []
                if child.name == "else" {
                    try Self.checkAttributes(child, allowed: [])
                    sawElse = true
                    condition = nil
                } else {
                    try Self.checkAttributes(child, allowed: ["cond"])
                    guard let text = child.attributes["cond"] else {
                        throw .missingAttribute(element: "elseif", attribute: "cond", line: child.line)
                    }
                    condition = try self.condition(text, on: child)
                }
            default:
                content.children.append(child)
            }
        }
        branches.append(SCXMLDocument.Branch(condition: condition, actions: try actions(in: content)))
        return branches
    }

    /// The `cond` of `element` as a script. The null data model's conditions are parsed
    /// here too, so that the states they name are checked once all ids are known.
    mutating func condition(
        _ text: String,
        on element: SCXMLElement
    ) throws(SCXMLError) -> SCXMLDocument.Script {
        if isNull {
            let condition: SCXMLDocument.Condition
            do {
                condition = try SCXMLConditionParser.parse(text)
            } catch {
                if let missingDataModel { throw .dataModelUnavailable(name: missingDataModel, line: element.line) }
                throw .invalidExpression(
                    element: element.name,
                    attribute: "cond",
                    value: text,
                    reason: error.reason,
                    line: element.line
                )
            }
            for id in condition.stateIDs { conditionStates.append((id, element.name, element.line)) }
        }
        return script(.condition, text, on: element, attribute: "cond")
    }

    /// Text given by the attribute `name` or, with a data model, the expression `name`expr.
    mutating func text(
        _ name: String,
        of element: SCXMLElement
    ) throws(SCXMLError) -> SCXMLDocument.Text? {
        try Self.exclusive([name, name + "expr"], of: element)
        if let expression = element.attributes[name + "expr"] {
            try requireData(element, attribute: name + "expr")
            return .expression(script(.value, expression, on: element, attribute: name + "expr"))
        }
        return element.attributes[name].map { .literal($0) }
    }

    /// A `<send>`. A literal `target` and `type` are checked now; expressions when it runs.
}
