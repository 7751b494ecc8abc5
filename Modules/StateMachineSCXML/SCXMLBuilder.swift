import Foundation
import StateMachineHierarchy

/// Turns an ``SCXMLElement`` tree into a validated ``SCXMLDocument``: checks every
/// element and attribute against the supported subset, numbers the states in document
/// order and resolves targets, `initial` attributes and `In()` conditions.
struct SCXMLBuilder {
    struct PendingTransition {
        var source: Int
        var events: [String]
        var condition: SCXMLDocument.Script?
        var targets: [String]
        var isInternal: Bool
        var actions: [SCXMLDocument.Action]
        var line: Int
        var element: String
    }

    let root: SCXMLElement
    /// Where `<invoke src>` paths start (the current directory when nil).
    let baseURL: URL?
    /// What the document may read by name (`src`).
    let sources: SCXMLSourcePolicy
    /// How many invocations lead to this document.
    let depth: Int
    /// The data model the caller offers for documents that declare it, and for documents
    /// without a `datamodel` attribute.
    let available: SCXMLDataModel?
    /// The data model of this document (from its `datamodel` attribute, else `available`).
    var dataModel = SCXMLDataModel.null
    /// Whether `dataModel` is the null one, whose subset is checked element by element.
    var isNull = true
    /// The data model the document declares when it was not given (it then runs with the
    /// null data model as long as it needs nothing more).
    var missingDataModel: String?
    /// Every script of the document, in document order.
    var scripts: [SCXMLScriptSource] = []
    var initialScripts: [SCXMLDocument.Action] = []
    var nodes: [SCXMLDocument.Node] = []
    var pending: [PendingTransition] = []
    /// Per node: where its transitions are in `pending`; and its default entry.
    var ownTransitions: [[Int]] = []
    var initialTransition: [Int?] = []
    var initialAttribute: [(ids: [String], line: Int)?] = []
    var idLines: [String: Int] = [:]
    /// Every `idlocation` slot a `<send>` declares.
    var idLocations: Set<String> = []
    /// Every `<cancel sendidexpr="slot">`, checked against `idLocations` at the end.
    var cancelledLocations: [(slot: String, line: Int)] = []
    /// Every state id an `In()` names, with its element and line, checked at the end.
    var conditionStates: [(id: String, element: String, line: Int)] = []

    static let stateElements: Set<String> = ["state", "parallel", "final", "history"]

    init(
        root: SCXMLElement,
        baseURL: URL? = nil,
        depth: Int = 0,
        dataModel: SCXMLDataModel? = nil,
        sources: SCXMLSourcePolicy = .none
    ) {
        self.root = root
        self.baseURL = baseURL
        self.sources = sources
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
        case nil:
            // W3C leaves the default to the platform: the one the program loads documents
            // with (SCION and uSCXML default to ECMAScript too), else the null data model.
            if let available, available.name != SCXMLDataModel.null.name {
                dataModel = available
                isNull = false
            }
        case "null": break
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
            baseURL: baseURL,
            sources: sources
        )
        try validate(document)
        return document
    }

    static func checkAttributes(_ element: SCXMLElement, allowed: Set<String>) throws(SCXMLError) {
        for name in element.attributes.keys.sorted()
        where !allowed.contains(name) && name != "xmlns" && !name.hasPrefix("xmlns:") {
            throw .unsupportedAttribute(element: element.name, attribute: name, line: element.line)
        }
    }

    /// The ids of an `initial` attribute; an empty one names no state and is an error.
    static func initialIDs(_ text: String, on element: SCXMLElement) throws(SCXMLError) -> [String] {
        let ids = tokens(text)
        guard !ids.isEmpty else {
            throw .unsupportedValue(element: element.name, attribute: "initial", value: text, line: element.line)
        }
        return ids
    }

    static func tokens(_ text: String) -> [String] {
        text.split(whereSeparator: { $0.isWhitespace }).map(String.init)
    }
}
