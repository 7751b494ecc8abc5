import StateMachineHierarchy

// Reading state, parallel, final, history, initial and transition elements into nodes and pending transitions.
extension SCXMLBuilder {
    /// How many nodes (`element` itself and every state, parallel, final and history element
    /// below it) and transitions (`<transition>` and `<initial>` elements of those) the tree
    /// holds: what the builder's arrays are reserved at. The parser bounds the tree's depth
    /// (``SCXMLDocument/maxElementDepth``), and so this recursion.
    static func counts(in element: SCXMLElement) -> (nodes: Int, transitions: Int) {
        var nodes = 1
        var transitions = 0
        for child in element.children {
            if stateElements.contains(child.name) {
                let inner = counts(in: child)
                nodes += inner.nodes
                transitions += inner.transitions
            } else if child.name == "transition" || child.name == "initial" {
                transitions += 1
            }
        }
        return (nodes, transitions)
    }

    mutating func appendNode(id: String, kind: SCXMLDocument.NodeKind, parent: Int, line: Int) {
        nodes.append(
            SCXMLDocument.Node(
                id: id,
                kind: kind,
                parent: parent,
                children: [],
                histories: [],
                transitions: [],
                initialTransition: nil,
                onEntry: [],
                onExit: [],
                line: line
            )
        )
        ownTransitions.append([])
        initialTransition.append(nil)
        initialAttribute.append(nil)
    }

    mutating func addChildren(of element: SCXMLElement, to node: Int) throws(SCXMLError) {
        for child in element.children {
            switch child.name {
            case "state", "parallel", "final", "history":
                try addState(child, parent: node)
            case "transition":
                if node == 0 { throw .unsupportedElement(element: "transition", line: child.line) }
                if nodes[node].kind == .final {
                    throw .invalidStructure(reason: "<final> cannot have transitions", line: child.line)
                }
                try addTransition(child, source: node, isDefault: false)
            case "initial":
                if node == 0 { throw .unsupportedElement(element: "initial", line: child.line) }
                try addInitialElement(child, to: node)
            case "invoke":
                guard node != 0,
                    nodes[node].kind == .atomic || nodes[node].kind == .compound
                        || nodes[node].kind == .parallel
                else { throw .unsupportedElement(element: "invoke", line: child.line) }
                nodes[node].invokes.append(try invoke(child, in: node))
            case "donedata" where nodes[node].kind == .final:
                break  // read with the <final>
            case "datamodel" where node == 0 || nodes[node].kind != .final:
                try requireData(child)
                try Self.checkAttributes(child, allowed: [])
                nodes[node].data += try dataItems(in: child)
            case "script" where node == 0:
                initialScripts.append(try script(child))
            case "onentry", "onexit":
                if node == 0 { throw .unsupportedElement(element: child.name, line: child.line) }
                try Self.checkAttributes(child, allowed: [])
                let actions = try self.actions(in: child)
                if child.name == "onentry" {
                    nodes[node].onEntry.append(actions)
                } else {
                    nodes[node].onExit.append(actions)
                }
            default:
                throw .unsupportedElement(element: child.name, line: child.line)
            }
        }
    }

    mutating func addState(_ element: SCXMLElement, parent: Int) throws(SCXMLError) {
        let index = nodes.count
        let id = element.attributes["id"] ?? "$\(index)"
        if id.isEmpty { throw .unsupportedValue(element: element.name, attribute: "id", value: id, line: element.line) }
        if idLines[id] != nil { throw .duplicateID(id: id, line: element.line) }
        idLines[id] = element.line
        let kind: SCXMLDocument.NodeKind
        switch element.name {
        case "state":
            try Self.checkAttributes(element, allowed: ["id", "initial"])
            let hasChildStates = element.children.contains { ["state", "parallel", "final"].contains($0.name) }
            kind = hasChildStates ? .compound : .atomic
        case "parallel":
            try Self.checkAttributes(element, allowed: ["id"])
            kind = .parallel
        case "final":
            try Self.checkAttributes(element, allowed: ["id"])
            let allowed: Set<String> = isNull ? ["onentry", "onexit"] : ["onentry", "onexit", "donedata"]
            if let bad = element.children.first(where: { !allowed.contains($0.name) }) {
                throw .unsupportedElement(element: bad.name, line: bad.line)
            }
            kind = .final
        default:
            try Self.checkAttributes(element, allowed: ["id", "type"])
            let type = element.attributes["type"] ?? "shallow"
            guard type == "shallow" || type == "deep" else {
                throw .unsupportedValue(element: "history", attribute: "type", value: type, line: element.line)
            }
            guard parent != 0 else {
                throw .invalidStructure(
                    reason: "<history> '\(id)' must be inside a <state> or <parallel>",
                    line: element.line
                )
            }
            kind = .history(deep: type == "deep")
        }
        appendNode(id: id, kind: kind, parent: parent, line: element.line)
        if kind == .final {
            for donedata in element.children where donedata.name == "donedata" {
                guard nodes[index].doneData == nil else {
                    throw .invalidStructure(reason: "a <final> has at most one <donedata>", line: donedata.line)
                }
                nodes[index].doneData = try doneData(donedata)
            }
        }
        if case .history = kind {
            nodes[parent].histories.append(index)
            let transitions = element.children.filter { $0.name == "transition" }
            if let bad = element.children.first(where: { $0.name != "transition" }) {
                throw .unsupportedElement(element: bad.name, line: bad.line)
            }
            guard transitions.count == 1 else {
                throw .invalidStructure(
                    reason: "<history> '\(id)' needs exactly one default <transition>",
                    line: element.line
                )
            }
            try addTransition(transitions[0], source: index, isDefault: true)
            return
        }
        nodes[parent].children.append(index)
        if let initial = element.attributes["initial"] {
            if kind != .compound {
                throw .invalidStructure(
                    reason: "state '\(id)' has an initial attribute but no child states",
                    line: element.line
                )
            }
            initialAttribute[index] = (try Self.initialIDs(initial, on: element), element.line)
        }
        try addChildren(of: element, to: index)
    }

    mutating func addInitialElement(_ element: SCXMLElement, to node: Int) throws(SCXMLError) {
        try Self.checkAttributes(element, allowed: [])
        guard nodes[node].kind == .compound else {
            throw .invalidStructure(
                reason: "<initial> is allowed only in a state with child states",
                line: element.line
            )
        }
        if initialAttribute[node] != nil || initialTransition[node] != nil {
            throw .invalidStructure(
                reason:
                    "state '\(nodes[node].id)' has both an initial attribute and an <initial> element (or two <initial>)",
                line: element.line
            )
        }
        if let bad = element.children.first(where: { $0.name != "transition" }) {
            throw .unsupportedElement(element: bad.name, line: bad.line)
        }
        guard element.children.count == 1 else {
            throw .invalidStructure(reason: "<initial> needs exactly one <transition>", line: element.line)
        }
        let before = ownTransitions[node]
        try addTransition(element.children[0], source: node, isDefault: true)
        ownTransitions[node] = before
        initialTransition[node] = pending.count - 1
        pending[pending.count - 1].isInternal = true
    }

    mutating func addTransition(_ element: SCXMLElement, source: Int, isDefault: Bool) throws(SCXMLError) {
        try Self.checkAttributes(element, allowed: ["event", "cond", "target", "type"])
        let events = element.attributes["event"].map(Self.tokens) ?? []
        if element.attributes["event"] != nil, events.isEmpty {
            throw .unsupportedValue(element: "transition", attribute: "event", value: "", line: element.line)
        }
        let condition = try element.attributes["cond"].map { text throws(SCXMLError) in
            try self.condition(text, on: element)
        }
        let type = element.attributes["type"] ?? "external"
        guard type == "external" || type == "internal" else {
            throw .unsupportedValue(element: "transition", attribute: "type", value: type, line: element.line)
        }
        let targets = element.attributes["target"].map(Self.tokens) ?? []
        if isDefault {
            if !events.isEmpty || condition != nil || targets.isEmpty {
                throw .invalidStructure(
                    reason: "a default (<initial>/<history>) transition needs a target and no event or cond",
                    line: element.line
                )
            }
        }
        let actions = try self.actions(in: element)
        pending.append(
            PendingTransition(
                source: source,
                events: events.map(EventClasses.normalized),
                condition: condition,
                targets: targets,
                isInternal: type == "internal",
                actions: actions,
                line: element.line,
                element: "transition"
            )
        )
        ownTransitions[source].append(pending.count - 1)
    }
}
