import Foundation

/// Turns an ``SCXMLElement`` tree into a validated ``SCXMLDocument``: checks every
/// element and attribute against the supported subset, numbers the states in document
/// order and resolves targets, `initial` attributes and `In()` conditions.
struct SCXMLBuilder {
    private struct PendingTransition {
        var source: Int
        var events: [String]
        var cond: (id: String, line: Int)?
        var targets: [String]
        var isInternal: Bool
        var actions: [SCXMLDocument.Action]
        var line: Int
        var element: String
    }

    private let root: SCXMLElement
    private var nodes: [SCXMLDocument.Node] = []
    private var pending: [PendingTransition] = []
    /// Per node: where its transitions are in `pending`; and its default entry.
    private var ownTransitions: [[Int]] = []
    private var initialTransition: [Int?] = []
    private var initialAttribute: [(ids: [String], line: Int)?] = []
    private var idLines: [String: Int] = [:]
    /// Every `idlocation` slot a `<send>` declares.
    private var idLocations: Set<String> = []
    /// Every `<cancel sendidexpr="slot">`, checked against `idLocations` at the end.
    private var cancelledLocations: [(slot: String, line: Int)] = []

    private static let stateElements: Set<String> = ["state", "parallel", "final", "history"]

    init(root: SCXMLElement) { self.root = root }

    mutating func build() throws(SCXMLError) -> SCXMLDocument {
        guard root.name == "scxml" else { throw .notSCXML(element: root.name, line: root.line) }
        try Self.checkAttributes(root, allowed: ["initial", "name", "version", "datamodel", "binding"])
        if let binding = root.attributes["binding"], binding != "early", binding != "late" {
            throw .unsupportedValue(element: "scxml", attribute: "binding", value: binding, line: root.line)
        }
        appendNode(id: "", kind: .root, parent: -1, line: root.line)
        initialAttribute[0] = root.attributes["initial"].map { (Self.tokens($0), root.line) }
        try addChildren(of: root, to: 0)
        guard !nodes[0].children.isEmpty else {
            throw .invalidStructure(reason: "<scxml> has no <state>, <parallel> or <final> child", line: root.line)
        }
        // Resolve default entries now that every id is known.
        for index in nodes.indices where nodes[index].kind == .root || nodes[index].kind == .compound {
            try resolveInitial(of: index)
        }
        var transitions: [SCXMLDocument.Transition] = []
        transitions.reserveCapacity(pending.count)
        for transition in pending {
            transitions.append(try resolve(transition))
        }
        for index in nodes.indices {
            nodes[index].transitions = ownTransitions[index]
            nodes[index].initialTransition = initialTransition[index]
        }
        for cancel in cancelledLocations where !idLocations.contains(cancel.slot) {
            throw .unsupportedValue(element: "cancel", attribute: "sendidexpr", value: cancel.slot, line: cancel.line)
        }
        let document = SCXMLDocument(name: root.attributes["name"], nodes: nodes, transitions: transitions)
        try validate(document)
        return document
    }

    // MARK: Elements

    private mutating func appendNode(id: String, kind: SCXMLDocument.NodeKind, parent: Int, line: Int) {
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

    private mutating func addChildren(of element: SCXMLElement, to node: Int) throws(SCXMLError) {
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
            case "onentry", "onexit":
                if node == 0 { throw .unsupportedElement(element: child.name, line: child.line) }
                try Self.checkAttributes(child, allowed: [])
                let actions = try self.actions(in: child)
                if child.name == "onentry" {
                    nodes[node].onEntry += actions
                } else {
                    nodes[node].onExit += actions
                }
            default:
                throw .unsupportedElement(element: child.name, line: child.line)
            }
        }
    }

    private mutating func addState(_ element: SCXMLElement, parent: Int) throws(SCXMLError) {
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
            if let bad = element.children.first(where: { $0.name != "onentry" && $0.name != "onexit" }) {
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
            initialAttribute[index] = (Self.tokens(initial), element.line)
        }
        try addChildren(of: element, to: index)
    }

    private mutating func addInitialElement(_ element: SCXMLElement, to node: Int) throws(SCXMLError) {
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

    private mutating func addTransition(_ element: SCXMLElement, source: Int, isDefault: Bool) throws(SCXMLError) {
        try Self.checkAttributes(element, allowed: ["event", "cond", "target", "type"])
        let events = element.attributes["event"].map(Self.tokens) ?? []
        if element.attributes["event"] != nil, events.isEmpty {
            throw .unsupportedValue(element: "transition", attribute: "event", value: "", line: element.line)
        }
        var cond: (id: String, line: Int)?
        if let text = element.attributes["cond"] {
            guard let id = Self.inCondition(text) else {
                throw .unsupportedValue(element: "transition", attribute: "cond", value: text, line: element.line)
            }
            cond = (id, element.line)
        }
        let type = element.attributes["type"] ?? "external"
        guard type == "external" || type == "internal" else {
            throw .unsupportedValue(element: "transition", attribute: "type", value: type, line: element.line)
        }
        let targets = element.attributes["target"].map(Self.tokens) ?? []
        if isDefault {
            if !events.isEmpty || cond != nil || targets.isEmpty {
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
                events: events.map(Self.normalized),
                cond: cond,
                targets: targets,
                isInternal: type == "internal",
                actions: actions,
                line: element.line,
                element: "transition"
            )
        )
        ownTransitions[source].append(pending.count - 1)
    }

    // MARK: Resolution

    private mutating func resolveInitial(of node: Int) throws(SCXMLError) {
        if initialTransition[node] != nil { return }
        let targets: [String]
        let line: Int
        if let attribute = initialAttribute[node] {
            targets = attribute.ids
            line = attribute.line
        } else {
            guard let first = nodes[node].children.first else { return }
            targets = [nodes[first].id]
            line = nodes[node].line
        }
        pending.append(
            PendingTransition(
                source: node,
                events: [],
                cond: nil,
                targets: targets,
                isInternal: true,
                actions: [],
                line: line,
                element: node == 0 ? "scxml" : "state"
            )
        )
        initialTransition[node] = pending.count - 1
    }

    private func resolve(_ transition: PendingTransition) throws(SCXMLError) -> SCXMLDocument.Transition {
        var targets: [Int] = []
        for id in transition.targets {
            guard let index = nodes.firstIndex(where: { $0.id == id }), index > 0 else {
                throw .unknownState(id: id, element: transition.element, line: transition.line)
            }
            targets.append(index)
        }
        var inStates: [Int]?
        if let cond = transition.cond {
            guard let index = nodes.firstIndex(where: { $0.id == cond.id }), index > 0 else {
                throw .unknownState(id: cond.id, element: "transition", line: cond.line)
            }
            inStates = [index]
        }
        return SCXMLDocument.Transition(
            source: transition.source,
            events: transition.events,
            inStates: inStates,
            targets: targets,
            isInternal: transition.isInternal,
            actions: transition.actions,
            line: transition.line
        )
    }

    /// Checks the rules that need the whole tree: default entries and history defaults
    /// must target descendants; multiple targets must not be ancestors of one another.
    private func validate(_ document: SCXMLDocument) throws(SCXMLError) {
        for (index, node) in document.nodes.enumerated() {
            if let initial = node.initialTransition {
                let transition = document.transitions[initial]
                for target in transition.targets where !document.isDescendant(target, of: index) {
                    throw .invalidStructure(
                        reason:
                            "the initial state '\(document.nodes[target].id)' is not inside '\(node.id.isEmpty ? "scxml" : node.id)'",
                        line: transition.line
                    )
                }
            }
            if case .history = node.kind, let transitionIndex = node.transitions.first {
                let transition = document.transitions[transitionIndex]
                for target in transition.targets where !document.isDescendant(target, of: node.parent) {
                    throw .invalidStructure(
                        reason:
                            "the default of history '\(node.id)' must be inside '\(document.nodes[node.parent].id)'",
                        line: transition.line
                    )
                }
                // A default that targets a history state could loop forever on entry.
                for target in transition.targets where document.isHistory(target) {
                    throw .invalidStructure(
                        reason:
                            "the default of history '\(node.id)' targets the history state '\(document.nodes[target].id)'",
                        line: transition.line
                    )
                }
            }
        }
        for transition in document.transitions {
            for a in transition.targets {
                for b in transition.targets where a != b && document.isDescendant(a, of: b) {
                    throw .invalidStructure(
                        reason: "targets '\(document.nodes[a].id)' and '\(document.nodes[b].id)' are nested",
                        line: transition.line
                    )
                }
            }
        }
    }

    // MARK: Helpers

    private mutating func actions(in element: SCXMLElement) throws(SCXMLError) -> [SCXMLDocument.Action] {
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
                actions.append(.log)
            case "send":
                actions.append(.send(try send(child)))
            case "cancel":
                actions.append(.cancel(try cancel(child)))
            default:
                throw .unsupportedElement(element: child.name, line: child.line)
            }
        }
        return actions
    }

    /// The SCXML event I/O processor's type URI (and its short legacy form).
    private static let scxmlProcessorTypes: Set<String> = [
        "http://www.w3.org/TR/scxml/#SCXMLEventProcessor", "scxml",
    ]

    /// A `<send>` to the machine itself. Expressions (`eventexpr`, `delayexpr`,
    /// `targetexpr`, `typeexpr`, `namelist`) need a data model and are rejected as
    /// unsupported attributes; `<param>` and `<content>` as unsupported elements.
    private mutating func send(_ element: SCXMLElement) throws(SCXMLError) -> SCXMLDocument.Send {
        try Self.checkAttributes(element, allowed: ["event", "delay", "id", "idlocation", "target", "type"])
        if let bad = element.children.first { throw .unsupportedElement(element: bad.name, line: bad.line) }
        guard let event = element.attributes["event"] else {
            throw .missingAttribute(element: "send", attribute: "event", line: element.line)
        }
        guard !event.isEmpty, !event.contains(where: { $0.isWhitespace }) else {
            throw .unsupportedValue(element: "send", attribute: "event", value: event, line: element.line)
        }
        if let type = element.attributes["type"], !Self.scxmlProcessorTypes.contains(type) {
            throw .unsupportedValue(element: "send", attribute: "type", value: type, line: element.line)
        }
        let target: SCXMLDocument.Send.Target
        switch element.attributes["target"] {
        case nil: target = .external
        case "#_internal": target = .internal
        case let other?: throw .unsupportedValue(element: "send", attribute: "target", value: other, line: element.line)
        }
        var delay = Duration.zero
        if let text = element.attributes["delay"] {
            guard let parsed = SCXMLDocument.duration(css2: text) else {
                throw .invalidDelay(element: "send", value: text, line: element.line)
            }
            delay = parsed
        }
        if target == .internal, delay > .zero {
            throw .invalidStructure(
                reason:
                    "a <send> to #_internal cannot have a delay (the internal queue is emptied within the macrostep)",
                line: element.line
            )
        }
        let id = element.attributes["id"]
        let idLocation = element.attributes["idlocation"]
        if id != nil, idLocation != nil {
            throw .invalidStructure(reason: "<send> cannot have both 'id' and 'idlocation'", line: element.line)
        }
        if let id, id.isEmpty {
            throw .unsupportedValue(element: "send", attribute: "id", value: id, line: element.line)
        }
        if let idLocation {
            guard Self.isSlotName(idLocation) else {
                throw .unsupportedValue(element: "send", attribute: "idlocation", value: idLocation, line: element.line)
            }
            idLocations.insert(idLocation)
        }
        return SCXMLDocument.Send(
            event: event,
            delay: delay,
            id: id,
            idLocation: idLocation,
            target: target,
            line: element.line
        )
    }

    /// A `<cancel>` with exactly one of `sendid` and `sendidexpr` (a slot filled by an
    /// `idlocation`, or a quoted literal id).
    private mutating func cancel(_ element: SCXMLElement) throws(SCXMLError) -> SCXMLDocument.Cancel {
        try Self.checkAttributes(element, allowed: ["sendid", "sendidexpr"])
        if let bad = element.children.first { throw .unsupportedElement(element: bad.name, line: bad.line) }
        switch (element.attributes["sendid"], element.attributes["sendidexpr"]) {
        case let (id?, nil):
            guard !id.isEmpty else {
                throw .unsupportedValue(element: "cancel", attribute: "sendid", value: id, line: element.line)
            }
            return SCXMLDocument.Cancel(reference: .id(id), line: element.line)
        case let (nil, expression?):
            let trimmed = expression.trimmingCharacters(in: .whitespaces)
            if trimmed.count >= 3, let quote = trimmed.first, quote == "'" || quote == "\"", trimmed.last == quote {
                let id = String(trimmed.dropFirst().dropLast())
                if !id.contains(quote) {
                    return SCXMLDocument.Cancel(reference: .id(id), line: element.line)
                }
            }
            guard Self.isSlotName(trimmed) else {
                throw .unsupportedValue(
                    element: "cancel",
                    attribute: "sendidexpr",
                    value: expression,
                    line: element.line
                )
            }
            cancelledLocations.append((trimmed, element.line))
            return SCXMLDocument.Cancel(reference: .location(trimmed), line: element.line)
        case (nil, nil):
            throw .missingAttribute(element: "cancel", attribute: "sendid", line: element.line)
        case (_?, _?):
            throw .invalidStructure(reason: "<cancel> cannot have both 'sendid' and 'sendidexpr'", line: element.line)
        }
    }

    /// A slot name: letters, digits, `_`, `.`, `-` and `$`, not starting with a digit.
    private static func isSlotName(_ text: String) -> Bool {
        guard let first = text.first, !first.isNumber else { return false }
        return text.allSatisfy { $0.isLetter || $0.isNumber || "_.-$".contains($0) }
    }

    private static func checkAttributes(_ element: SCXMLElement, allowed: Set<String>) throws(SCXMLError) {
        for name in element.attributes.keys.sorted()
        where !allowed.contains(name) && name != "xmlns" && !name.hasPrefix("xmlns:") {
            throw .unsupportedAttribute(element: element.name, attribute: name, line: element.line)
        }
    }

    private static func tokens(_ text: String) -> [String] {
        text.split(whereSeparator: { $0.isWhitespace }).map(String.init)
    }

    /// `foo.*` and `foo.` mean `foo`; `*` stays.
    private static func normalized(_ descriptor: String) -> String {
        var result = Substring(descriptor)
        if result.hasSuffix(".*") { result = result.dropLast(2) }
        while result.hasSuffix(".") { result = result.dropLast() }
        return result.isEmpty ? "*" : String(result)
    }

    /// The id in `In('id')` or `In("id")`, or nil for any other expression.
    static func inCondition(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("In("), trimmed.hasSuffix(")") else { return nil }
        let inner = trimmed.dropFirst(3).dropLast().trimmingCharacters(in: .whitespaces)
        guard inner.count >= 3, let quote = inner.first, quote == "'" || quote == "\"", inner.last == quote else {
            return nil
        }
        let id = String(inner.dropFirst().dropLast())
        guard !id.isEmpty, !id.contains("'"), !id.contains("\""), !id.contains(where: { $0.isWhitespace }) else {
            return nil
        }
        return id
    }
}
