import Foundation

/// Turns an ``SCXMLElement`` tree into a validated ``SCXMLDocument``: checks every
/// element and attribute against the supported subset, numbers the states in document
/// order and resolves targets, `initial` attributes and `In()` conditions.
struct SCXMLBuilder {
    private struct PendingTransition {
        var source: Int
        var events: [String]
        var condition: SCXMLDocument.Condition?
        var targets: [String]
        var isInternal: Bool
        var actions: [SCXMLDocument.Action]
        var line: Int
        var element: String
    }

    private let root: SCXMLElement
    /// Where `<invoke src>` paths start (the current directory when nil).
    private let baseURL: URL?
    /// How many invocations lead to this document.
    private let depth: Int
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
    /// Every state id an `In()` names, with its element and line, checked at the end.
    private var conditionStates: [(id: String, element: String, line: Int)] = []

    private static let stateElements: Set<String> = ["state", "parallel", "final", "history"]

    init(root: SCXMLElement, baseURL: URL? = nil, depth: Int = 0) {
        self.root = root
        self.baseURL = baseURL
        self.depth = depth
    }

    mutating func build() throws(SCXMLError) -> SCXMLDocument {
        guard root.name == "scxml" else { throw .notSCXML(element: root.name, line: root.line) }
        try Self.checkAttributes(root, allowed: ["initial", "name", "version", "datamodel", "binding"])
        if let binding = root.attributes["binding"], binding != "early", binding != "late" {
            throw .unsupportedValue(element: "scxml", attribute: "binding", value: binding, line: root.line)
        }
        appendNode(id: "", kind: .root, parent: -1, line: root.line)
        initialAttribute[0] = try root.attributes["initial"].map { text throws(SCXMLError) in
            (try Self.initialIDs(text, on: root), root.line)
        }
        try addChildren(of: root, to: 0)
        guard !nodes[0].children.isEmpty else {
            throw .invalidStructure(reason: "<scxml> has no <state>, <parallel> or <final> child", line: root.line)
        }
        // Resolve default entries now that every id is known.
        for index in nodes.indices where nodes[index].kind == .root || nodes[index].kind == .compound {
            try resolveInitial(of: index)
        }
        var indexByID: [String: Int] = [:]
        for (index, node) in nodes.enumerated().dropFirst() where indexByID[node.id] == nil {
            indexByID[node.id] = index
        }
        var transitions: [SCXMLDocument.Transition] = []
        transitions.reserveCapacity(pending.count)
        for transition in pending {
            transitions.append(try resolve(transition, indexByID: indexByID))
        }
        for index in nodes.indices {
            nodes[index].transitions = ownTransitions[index]
            nodes[index].initialTransition = initialTransition[index]
        }
        for cancel in cancelledLocations where !idLocations.contains(cancel.slot) {
            throw .unsupportedValue(element: "cancel", attribute: "sendidexpr", value: cancel.slot, line: cancel.line)
        }
        for reference in conditionStates where idLines[reference.id] == nil {
            throw .unknownState(id: reference.id, element: reference.element, line: reference.line)
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
            case "invoke":
                guard node != 0,
                    nodes[node].kind == .atomic || nodes[node].kind == .compound
                        || nodes[node].kind == .parallel
                else { throw .unsupportedElement(element: "invoke", line: child.line) }
                nodes[node].invokes.append(try invoke(child, in: node))
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
            initialAttribute[index] = (try Self.initialIDs(initial, on: element), element.line)
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
                condition: nil,
                targets: targets,
                isInternal: true,
                actions: [],
                line: line,
                element: node == 0 ? "scxml" : "state"
            )
        )
        initialTransition[node] = pending.count - 1
    }

    /// `transition` with its targets looked up in `indexByID` (every state's id, the root's aside).
    private func resolve(
        _ transition: PendingTransition,
        indexByID: [String: Int]
    ) throws(SCXMLError) -> SCXMLDocument.Transition {
        var targets: [Int] = []
        for id in transition.targets {
            guard let index = indexByID[id] else {
                throw .unknownState(id: id, element: transition.element, line: transition.line)
            }
            targets.append(index)
        }
        return SCXMLDocument.Transition(
            source: transition.source,
            events: transition.events,
            condition: transition.condition,
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
                var value: String?
                if let expression = child.attributes["expr"] {
                    guard let literal = Self.quotedLiteral(expression) else {
                        throw .invalidExpression(
                            element: "log",
                            attribute: "expr",
                            value: expression,
                            reason: "the null data model's expr is a quoted literal, such as 'text'",
                            line: child.line
                        )
                    }
                    value = literal
                }
                actions.append(.log(label: child.attributes["label"], value: value))
            case "if":
                actions.append(.if(try branches(of: child)))
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

    /// The SCXML invocation types (URI, short and legacy forms).
    private static let scxmlInvokeTypes: Set<String> = [
        "http://www.w3.org/TR/scxml/", "http://www.w3.org/TR/scxml", "scxml",
    ]

    /// An `<invoke>` of an SCXML document given by `src` or inline `<content>`.
    private mutating func invoke(_ element: SCXMLElement, in node: Int) throws(SCXMLError) -> SCXMLDocument.Invoke {
        try Self.checkAttributes(element, allowed: ["type", "src", "id", "idlocation", "autoforward"])
        if let type = element.attributes["type"], !Self.scxmlInvokeTypes.contains(type) {
            throw .unsupportedValue(element: "invoke", attribute: "type", value: type, line: element.line)
        }
        let autoforward: Bool
        switch element.attributes["autoforward"] ?? "false" {
        case "true": autoforward = true
        case "false": autoforward = false
        case let other:
            throw .unsupportedValue(element: "invoke", attribute: "autoforward", value: other, line: element.line)
        }
        let id = element.attributes["id"]
        let idLocation = element.attributes["idlocation"]
        if id != nil, idLocation != nil {
            throw .invalidStructure(reason: "<invoke> cannot have both 'id' and 'idlocation'", line: element.line)
        }
        if let id, id.isEmpty || id.contains(where: \.isWhitespace) {
            throw .unsupportedValue(element: "invoke", attribute: "id", value: id, line: element.line)
        }
        if let idLocation, !Self.isSlotName(idLocation) {
            throw .unsupportedValue(element: "invoke", attribute: "idlocation", value: idLocation, line: element.line)
        }
        guard depth < SCXMLDocument.maxInvokeDepth else {
            throw .invalidStructure(
                reason:
                    "invocations nest more than \(SCXMLDocument.maxInvokeDepth) documents deep (a document that invokes itself?)",
                line: element.line
            )
        }
        var child: SCXMLDocument?
        var finalize: [SCXMLDocument.Action] = []
        for part in element.children {
            switch part.name {
            case "content":
                try Self.checkAttributes(part, allowed: [])
                guard child == nil, element.attributes["src"] == nil else {
                    throw .invalidStructure(
                        reason: "<invoke> needs exactly one of 'src' and <content>",
                        line: part.line
                    )
                }
                guard part.children.count == 1, part.children[0].name == "scxml", !part.hasText else {
                    throw .invalidStructure(
                        reason: "<content> of an <invoke> must hold one <scxml> element",
                        line: part.line
                    )
                }
                child = try SCXMLDocument(tree: part.children[0], baseURL: baseURL, depth: depth + 1)
            case "finalize":
                try Self.checkAttributes(part, allowed: [])
                finalize += try actions(in: part)
            default:
                throw .unsupportedElement(element: part.name, line: part.line)
            }
        }
        if let src = element.attributes["src"] {
            let url = SCXMLDocument.fileURL(ofSource: src, relativeTo: baseURL)
            do {
                child = try SCXMLDocument.load(contentsOf: url, depth: depth + 1)
            } catch {
                throw .invalidStructure(reason: "<invoke src=\"\(src)\">: \(error)", line: element.line)
            }
        }
        guard let child else {
            throw .invalidStructure(reason: "<invoke> needs exactly one of 'src' and <content>", line: element.line)
        }
        if let idLocation { idLocations.insert(idLocation) }
        return SCXMLDocument.Invoke(
            id: id,
            idLocation: idLocation,
            autoforward: autoforward,
            document: child,
            finalize: finalize,
            line: element.line
        )
    }

    /// The branches of `<if cond>`: its content up to the first `<elseif cond>` or
    /// `<else>`, and so on; an `<else>` must come last.
    private mutating func branches(of element: SCXMLElement) throws(SCXMLError) -> [SCXMLDocument.Branch] {
        try Self.checkAttributes(element, allowed: ["cond"])
        guard let text = element.attributes["cond"] else {
            throw .missingAttribute(element: "if", attribute: "cond", line: element.line)
        }
        var branches: [SCXMLDocument.Branch] = []
        var condition: SCXMLDocument.Condition? = try self.condition(text, on: element)
        var content = SCXMLElement(name: "if", attributes: [:], line: element.line)
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

    /// Parses the `cond` of `element`; the states it names are checked once all ids are known.
    private mutating func condition(
        _ text: String,
        on element: SCXMLElement
    ) throws(SCXMLError) -> SCXMLDocument.Condition {
        let condition: SCXMLDocument.Condition
        do {
            condition = try SCXMLConditionParser.parse(text)
        } catch {
            throw .invalidExpression(
                element: element.name,
                attribute: "cond",
                value: text,
                reason: error.reason,
                line: element.line
            )
        }
        for id in condition.stateIDs { conditionStates.append((id, element.name, element.line)) }
        return condition
    }

    /// The text of a quoted literal (`'text'` or `"text"`), nil for anything else.
    private static func quotedLiteral(_ expression: String) -> String? {
        let trimmed = expression.trimmingCharacters(in: .whitespaces)
        guard trimmed.count >= 2, let quote = trimmed.first, quote == "'" || quote == "\"", trimmed.last == quote
        else { return nil }
        let inner = trimmed.dropFirst().dropLast()
        return inner.contains(quote) ? nil : String(inner)
    }

    /// The SCXML event I/O processor's type URI (and its short legacy form).
    private static let scxmlProcessorTypes: Set<String> = [
        "http://www.w3.org/TR/scxml/#SCXMLEventProcessor", "scxml",
    ]

    /// The Basic HTTP Event I/O Processor's type URI (and its short form).
    private static let basicHTTPProcessorTypes: Set<String> = [
        "http://www.w3.org/TR/scxml/#BasicHTTPEventProcessor", "basichttp",
    ]

    /// A `<send>` to the machine itself. Expressions (`eventexpr`, `targetexpr`,
    /// `typeexpr`, `namelist`) need a data model and are rejected as unsupported attributes,
    /// `<param>` and `<content>` as unsupported elements; `delayexpr` may be a quoted literal.
    private mutating func send(_ element: SCXMLElement) throws(SCXMLError) -> SCXMLDocument.Send {
        try Self.checkAttributes(
            element,
            allowed: ["event", "delay", "delayexpr", "id", "idlocation", "target", "type"]
        )
        if let bad = element.children.first { throw .unsupportedElement(element: bad.name, line: bad.line) }
        guard let event = element.attributes["event"] else {
            throw .missingAttribute(element: "send", attribute: "event", line: element.line)
        }
        guard !event.isEmpty, !event.contains(where: { $0.isWhitespace }) else {
            throw .unsupportedValue(element: "send", attribute: "event", value: event, line: element.line)
        }
        var target: SCXMLDocument.Send.Target
        switch element.attributes["target"] {
        case nil: target = .external
        case "#_internal": target = .internal
        case "#_parent": target = .parent
        case let other? where other.hasPrefix("#_scxml_"):
            // Another session by its id: this processor reaches no session that way.
            target = .undeliverable(error: "error.communication")
        case let other? where other.hasPrefix("#_") && other.count > 2:
            target = .invoked(String(other.dropFirst(2)))
        case _?:
            // A URI the SCXML event I/O processor cannot deliver to.
            target = .undeliverable(error: "error.execution")
        }
        if let type = element.attributes["type"], !Self.scxmlProcessorTypes.contains(type) {
            // A processor type this interpreter does not implement; but a Basic HTTP send
            // without a target has nowhere to go, which SCXML D.2 reports as a communication
            // error (W3C test577).
            let basicHTTPWithoutTarget =
                Self.basicHTTPProcessorTypes.contains(type) && element.attributes["target"] == nil
            target = .undeliverable(error: basicHTTPWithoutTarget ? "error.communication" : "error.execution")
        }
        var delay = Duration.zero
        if let text = element.attributes["delay"] {
            guard let parsed = SCXMLDocument.duration(css2: text) else {
                throw .invalidDelay(element: "send", value: text, line: element.line)
            }
            delay = parsed
        }
        if let expression = element.attributes["delayexpr"] {
            // The null data model's value: a quoted literal (`delayexpr="'1s'"`, which the
            // W3C's stylesheet writes for conf:delay).
            guard element.attributes["delay"] == nil else {
                throw .invalidStructure(reason: "<send> cannot have both 'delay' and 'delayexpr'", line: element.line)
            }
            guard let literal = Self.quotedLiteral(expression) else {
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
            delay = parsed
        }
        if delay > .zero, case .invoked = target {
            throw .invalidStructure(
                reason:
                    "a <send> to an invoked session cannot have a delay (only sends to this session and #_parent can wait)",
                line: element.line
            )
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

    /// The ids of an `initial` attribute; an empty one names no state and is an error.
    private static func initialIDs(_ text: String, on element: SCXMLElement) throws(SCXMLError) -> [String] {
        let ids = tokens(text)
        guard !ids.isEmpty else {
            throw .unsupportedValue(element: element.name, attribute: "initial", value: text, line: element.line)
        }
        return ids
    }

    private static func tokens(_ text: String) -> [String] {
        text.split(whereSeparator: { $0.isWhitespace }).map(String.init)
    }
}
