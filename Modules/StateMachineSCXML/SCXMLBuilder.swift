import Foundation
import StateMachineHierarchy

/// Turns an ``SCXMLElement`` tree into a validated ``SCXMLDocument``: checks every
/// element and attribute against the supported subset, numbers the states in document
/// order and resolves targets, `initial` attributes and `In()` conditions.
struct SCXMLBuilder {
    private struct PendingTransition {
        var source: Int
        var events: [String]
        var condition: SCXMLDocument.Script?
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
    /// The data model the caller offers for documents that declare it.
    private let available: SCXMLDataModel?
    /// The data model of this document (from its `datamodel` attribute).
    private var dataModel = SCXMLDataModel.null
    /// Whether `dataModel` is the null one, whose subset is checked element by element.
    private var isNull = true
    /// The data model the document declares when it was not given (it then runs with the
    /// null data model as long as it needs nothing more).
    private var missingDataModel: String?
    /// Every script of the document, in document order.
    private var scripts: [SCXMLScriptSource] = []
    private var initialScripts: [SCXMLDocument.Action] = []
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

    init(root: SCXMLElement, baseURL: URL? = nil, depth: Int = 0, dataModel: SCXMLDataModel? = nil) {
        self.root = root
        self.baseURL = baseURL
        self.depth = depth
        available = dataModel
    }

    mutating func build() throws(SCXMLError) -> SCXMLDocument {
        guard root.name == "scxml" else { throw .notSCXML(element: root.name, line: root.line) }
        try Self.checkAttributes(root, allowed: ["initial", "name", "version", "datamodel", "binding"])
        if let binding = root.attributes["binding"], binding != "early", binding != "late" {
            throw .unsupportedValue(element: "scxml", attribute: "binding", value: binding, line: root.line)
        }
        switch root.attributes["datamodel"] {
        case nil, "null": break
        case let name? where name == available?.name:
            dataModel = available!
            isNull = false
        case let name?:
            missingDataModel = name
        }
        // The arrays kept per node and per transition are made at their size: the document
        // keeps its nodes for as long as it lives, and a large one would keep the slack of
        // growing by doubling.
        let expected = Self.counts(in: root)
        nodes.reserveCapacity(expected.nodes)
        ownTransitions.reserveCapacity(expected.nodes)
        initialTransition.reserveCapacity(expected.nodes)
        initialAttribute.reserveCapacity(expected.nodes)
        pending.reserveCapacity(expected.transitions)
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
        let compiled: any SCXMLCompiledScripts
        do {
            compiled = try dataModel.engine.compile(scripts)
        } catch {
            let source = error.index.map { scripts[$0] }
            throw .invalidExpression(
                element: source?.element ?? "scxml",
                attribute: source?.attribute ?? "datamodel",
                value: source?.text ?? "",
                reason: error.message,
                line: source?.line ?? root.line
            )
        }
        let document = SCXMLDocument(
            name: root.attributes["name"],
            nodes: nodes,
            transitions: transitions,
            dataModel: dataModel,
            scripts: scripts,
            compiledScripts: compiled,
            lateBinding: root.attributes["binding"] == "late",
            initialScripts: initialScripts,
            baseURL: baseURL
        )
        try validate(document)
        return document
    }

    // MARK: Elements

    /// How many nodes (`element` itself and every state, parallel, final and history element
    /// below it) and transitions (`<transition>` and `<initial>` elements of those) the tree
    /// holds: what the builder's arrays are reserved at. The parser bounds the tree's depth
    /// (``SCXMLDocument/maxElementDepth``), and so this recursion.
    private static func counts(in element: SCXMLElement) -> (nodes: Int, transitions: Int) {
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

    // MARK: Scripts

    /// Registers a script for the data model to compile, and returns its number.
    private mutating func script(
        _ kind: SCXMLScriptSource.Kind,
        _ text: String,
        on element: SCXMLElement,
        attribute: String
    ) -> SCXMLDocument.Script {
        scripts.append(
            SCXMLScriptSource(kind: kind, text: text, line: element.line, element: element.name, attribute: attribute)
        )
        return SCXMLDocument.Script(index: scripts.count - 1)
    }

    /// The attribute `name` of `element` as a script, if present.
    private mutating func script(
        _ kind: SCXMLScriptSource.Kind,
        attribute name: String,
        of element: SCXMLElement
    ) -> SCXMLDocument.Script? {
        element.attributes[name].map { script(kind, $0, on: element, attribute: name) }
    }

    /// Fails unless the document has a data model: `what` needs one.
    private func requireData(_ element: SCXMLElement, attribute: String? = nil) throws(SCXMLError) {
        guard isNull else { return }
        if let missingDataModel { throw .dataModelUnavailable(name: missingDataModel, line: element.line) }
        throw .needsDataModel(element: element.name, attribute: attribute, line: element.line)
    }

    /// At most one of the attributes `names` of `element`.
    private static func exclusive(_ names: [String], of element: SCXMLElement) throws(SCXMLError) {
        let present = names.filter { element.attributes[$0] != nil }
        if present.count > 1 {
            throw .invalidStructure(
                reason: "<\(element.name)> cannot have both '\(present[0])' and '\(present[1])'",
                line: element.line
            )
        }
    }

    /// A `<script>`: its `src` file or its text, as a script of the data model.
    private mutating func script(_ element: SCXMLElement) throws(SCXMLError) -> SCXMLDocument.Action {
        try requireData(element)
        try Self.checkAttributes(element, allowed: ["src"])
        if let bad = element.children.first { throw .unsupportedElement(element: bad.name, line: bad.line) }
        if let src = element.attributes["src"] {
            guard !element.hasText else {
                throw .invalidStructure(reason: "<script> cannot have both 'src' and a body", line: element.line)
            }
            return .script(script(.script, try read(src, for: element), on: element, attribute: "<script>"))
        }
        return .script(script(.script, element.text, on: element, attribute: "<script>"))
    }

    /// The `<data>` elements of a `<datamodel>`.
    private mutating func dataItems(in element: SCXMLElement) throws(SCXMLError) -> [SCXMLDocument.DataItem] {
        var items: [SCXMLDocument.DataItem] = []
        for child in element.children {
            guard child.name == "data" else { throw .unsupportedElement(element: child.name, line: child.line) }
            try Self.checkAttributes(child, allowed: ["id", "src", "expr"])
            guard let id = child.attributes["id"], !id.isEmpty else {
                throw .missingAttribute(element: "data", attribute: "id", line: child.line)
            }
            try Self.exclusive(["src", "expr"], of: child)
            if child.attributes["src"] != nil || child.attributes["expr"] != nil,
                child.hasText || !child.children.isEmpty
            {
                throw .invalidStructure(
                    reason: "<data> '\(id)' has both a value attribute and content",
                    line: child.line
                )
            }
            let value: SCXMLDocument.ValueSource?
            if let expression = script(.value, attribute: "expr", of: child) {
                value = .expression(expression)
            } else if let src = child.attributes["src"] {
                value = .literal(Self.inlineValue(try read(src, for: child)))
            } else if child.hasText || !child.children.isEmpty {
                value = .literal(Self.inlineValue(of: child))
            } else {
                value = nil
            }
            items.append(SCXMLDocument.DataItem(id: id, value: value, line: child.line))
        }
        return items
    }

    /// The inline content of `element`: its markup as text when it holds elements (the
    /// ECMAScript data model here has no DOM: an XML value is its text), else its text as
    /// ``inlineValue(_:)`` reads it.
    static func inlineValue(of element: SCXMLElement) -> SCXMLValue {
        guard !element.children.isEmpty else { return inlineValue(element.text) }
        return .string(element.children.map(\.markup).joined())
    }

    /// Inline content as a value: JSON when it is JSON, else the text with its whitespace
    /// runs made single spaces (SCXML 1.0, section B.2.2).
    static func inlineValue(_ text: String) -> SCXMLValue {
        if let json = try? JSONValue.parse(Data(text.utf8)) { return SCXMLValue(json) }
        return .string(text.split(whereSeparator: \.isWhitespace).joined(separator: " "))
    }

    /// The text of the file a `src` names (a `file:` URI or a path), relative to the
    /// document's folder.
    private func read(_ src: String, for element: SCXMLElement) throws(SCXMLError) -> String {
        let url = SCXMLDocument.fileURL(ofSource: src, relativeTo: baseURL)
        do {
            return try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw .invalidStructure(
                reason: "<\(element.name) src=\"\(src)\">: cannot read \(url.path)",
                line: element.line
            )
        }
    }

    /// `<param>`s and a `namelist`: each name with the script of its value.
    private mutating func params(
        of element: SCXMLElement,
        namelist: String?
    ) throws(SCXMLError) -> [SCXMLDocument.Param] {
        var params: [SCXMLDocument.Param] = []
        if let namelist {
            try requireData(element, attribute: "namelist")
            for name in Self.tokens(namelist) {
                params.append(
                    SCXMLDocument.Param(name: name, value: script(.value, name, on: element, attribute: "namelist"))
                )
            }
        }
        for child in element.children where child.name == "param" {
            try requireData(child)
            try Self.checkAttributes(child, allowed: ["name", "expr", "location"])
            guard let name = child.attributes["name"], !name.isEmpty else {
                throw .missingAttribute(element: "param", attribute: "name", line: child.line)
            }
            try Self.exclusive(["expr", "location"], of: child)
            if let bad = child.children.first { throw .unsupportedElement(element: bad.name, line: bad.line) }
            guard
                let value = script(.value, attribute: "expr", of: child)
                    ?? script(.value, attribute: "location", of: child)
            else { throw .missingAttribute(element: "param", attribute: "expr", line: child.line) }
            params.append(SCXMLDocument.Param(name: name, value: value))
        }
        return params
    }

    /// A `<content>`: its `expr`, or its text as JSON or a space-normalised string.
    private mutating func content(_ element: SCXMLElement) throws(SCXMLError) -> SCXMLDocument.ValueSource {
        try requireData(element)
        try Self.checkAttributes(element, allowed: ["expr"])
        if let expression = script(.value, attribute: "expr", of: element) {
            guard !element.hasText, element.children.isEmpty else {
                throw .invalidStructure(reason: "<content> cannot have both 'expr' and a body", line: element.line)
            }
            return .expression(expression)
        }
        return .literal(Self.inlineValue(of: element))
    }

    /// A `<donedata>`: one `<content>` or `<param>`s.
    private mutating func doneData(_ element: SCXMLElement) throws(SCXMLError) -> SCXMLDocument.DoneData {
        try Self.checkAttributes(element, allowed: [])
        let contents = element.children.filter { $0.name == "content" }
        if let bad = element.children.first(where: { $0.name != "content" && $0.name != "param" }) {
            throw .unsupportedElement(element: bad.name, line: bad.line)
        }
        if let content = contents.first {
            guard contents.count == 1, element.children.count == 1 else {
                throw .invalidStructure(reason: "<donedata> holds one <content> or <param>s", line: element.line)
            }
            return .content(try self.content(content))
        }
        return .params(try params(of: element, namelist: nil))
    }

    // MARK: Executable content

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
    private mutating func invoke(_ element: SCXMLElement, in node: Int) throws(SCXMLError) -> SCXMLDocument.Invoke {
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
                    try SCXMLDocument(tree: part.children[0], baseURL: baseURL, depth: depth + 1, dataModel: available)
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
            let url = SCXMLDocument.fileURL(ofSource: src, relativeTo: baseURL)
            do {
                source = .document(try SCXMLDocument.load(contentsOf: url, depth: depth + 1, dataModel: available))
            } catch {
                throw .invalidStructure(reason: "<invoke src=\"\(src)\">: \(error)", line: element.line)
            }
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
        var condition: SCXMLDocument.Script? = try self.condition(text, on: element)
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

    /// The `cond` of `element` as a script. The null data model's conditions are parsed
    /// here too, so that the states they name are checked once all ids are known.
    private mutating func condition(
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
    private mutating func text(
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
    private mutating func send(_ element: SCXMLElement) throws(SCXMLError) -> SCXMLDocument.Send {
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
            line: element.line
        )
    }

    /// A `<cancel>` with exactly one of `sendid` and `sendidexpr`. With the null data
    /// model, `sendidexpr` is a quoted literal or a slot an `idlocation` fills.
    private mutating func cancel(_ element: SCXMLElement) throws(SCXMLError) -> SCXMLDocument.Cancel {
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
