import Foundation
import StateMachineSupport

/// A statechart loaded from an SCXML document (the null data model subset: states,
/// compound and parallel states, finals, initial states, shallow and deep history,
/// transitions with event descriptors, `In('id')` conditions, internal/external types,
/// and `<raise>`, `<send>`, `<cancel>` and `<log>` executable content). Run it with
/// ``SCXMLInterpreter``, which runs it on ``Statechart``'s engine.
///
/// Nodes are stored in document order (pre-order), so a node's index is its document
/// position; the `<scxml>` root is node 0. Ancestor chains and child lists are
/// precomputed once, at load time, for the interpreter's step algorithm.
public struct SCXMLDocument: Sendable {
    /// What a node of the document is.
    enum NodeKind: Sendable, Equatable {
        /// The `<scxml>` element.
        case root
        /// A `<state>` without child states.
        case atomic
        /// A `<state>` with child states.
        case compound
        /// A `<parallel>`.
        case parallel
        /// A `<final>`.
        case final
        /// A `<history>`; `deep` is true for `type="deep"`.
        case history(deep: Bool)
    }

    /// Executable content the subset supports.
    enum Action: Sendable, Equatable {
        /// `<raise event="name"/>`: appends `name` to the internal queue.
        case raise(String)
        /// `<log label="..." expr="'text'"/>`: writes `label: text` to the trace (as
        /// `log:label: text`); the null data model's `expr` is a quoted literal.
        case log(label: String?, value: String?)
        /// `<send>`: queues an event for this machine, now or after a delay.
        case send(Send)
        /// `<cancel>`: cancels the pending delayed sends with an id.
        case cancel(Cancel)
        /// `<if>`/`<elseif>`/`<else>`: runs the content of the first branch whose
        /// condition holds (an `<else>` branch has none).
        case `if`([Branch])
    }

    /// One `<invoke>` of a child SCXML document (the only invocation type of the subset).
    struct Invoke: Sendable {
        /// The invocation's id (`id`); nil when it is generated (`<state id>.<n>`).
        let id: String?
        /// The `idlocation` slot that receives the generated id, if any.
        let idLocation: String?
        /// `autoforward="true"`: every external event the invoking session processes is
        /// sent on to the child too.
        let autoforward: Bool
        /// The child document (from `src`, relative to the parent's file, or inline `<content>`).
        let document: SCXMLDocument
        /// `<finalize>` content, run when an event from the child is about to be processed.
        let finalize: [Action]
        /// The line of the element.
        let line: Int
    }

    /// One branch of an `<if>`: `<if cond>`, `<elseif cond>` or `<else>` (no condition).
    struct Branch: Sendable, Equatable {
        /// The branch's condition; nil for `<else>`.
        let condition: Condition?
        /// The content it runs.
        let actions: [Action]
    }

    /// A `cond` the null data model can state: `In('id')`, `true`, `false`, `!`, `&&`,
    /// `||` and parentheses, evaluated against the configuration of the running step.
    indirect enum Condition: Sendable, Equatable, CustomStringConvertible {
        /// `true` or `false`.
        case constant(Bool)
        /// `In('id')`: the state with this id is active.
        case inState(String)
        /// `!c`.
        case not(Condition)
        /// `a && b`.
        case and(Condition, Condition)
        /// `a || b`.
        case or(Condition, Condition)

        /// The condition as a `cond` attribute would write it (fully parenthesised
        /// where operators nest).
        var description: String {
            switch self {
            case .constant(let value): "\(value)"
            case .inState(let id): "In('\(id)')"
            case .not(let inner): "!\(inner.operand)"
            case .and(let left, let right): "\(left.operand) && \(right.operand)"
            case .or(let left, let right): "\(left.operand) || \(right.operand)"
            }
        }

        private var operand: String {
            switch self {
            case .and, .or: "(\(description))"
            default: description
            }
        }

        /// Every state id the condition names.
        var stateIDs: [String] {
            switch self {
            case .constant: []
            case .inState(let id): [id]
            case .not(let inner): inner.stateIDs
            case .and(let left, let right), .or(let left, let right): left.stateIDs + right.stateIDs
            }
        }

        /// The value, with `isActive` telling which states are active.
        func holds(_ isActive: (String) -> Bool) -> Bool {
            switch self {
            case .constant(let value): value
            case .inState(let id): isActive(id)
            case .not(let inner): !inner.holds(isActive)
            case .and(let left, let right): left.holds(isActive) && right.holds(isActive)
            case .or(let left, let right): left.holds(isActive) || right.holds(isActive)
            }
        }
    }

    /// One `<state>`, `<parallel>`, `<final>`, `<history>` or the `<scxml>` root.
    struct Node: Sendable {
        /// The `id` attribute (a generated `$n` when absent; empty for the root).
        let id: String
        /// The node's kind.
        let kind: NodeKind
        /// The parent node's index (-1 for the root).
        let parent: Int
        /// Child states (not transitions) in document order.
        var children: [Int]
        /// Child `<history>` nodes in document order.
        var histories: [Int]
        /// Indices into ``SCXMLDocument/transitions`` of this node's transitions, in
        /// document order. For a history node, its single default transition.
        var transitions: [Int]
        /// For compound states and the root: the transition of the default entry
        /// (from `initial=`, `<initial>`, or the first child state).
        var initialTransition: Int?
        /// `<onentry>` content.
        var onEntry: [Action]
        /// `<onexit>` content.
        var onExit: [Action]
        /// `<invoke>`s, started when the state has been entered (at the end of the
        /// macrostep) and cancelled when it exits.
        var invokes: [Invoke] = []
        /// The line of the element in the document.
        let line: Int
    }

    /// One `<transition>`.
    struct Transition: Sendable {
        /// The index of the source node.
        let source: Int
        /// The event descriptors (empty for an eventless transition).
        let events: [String]
        /// The `cond`, nil when there is none.
        let condition: Condition?
        /// Target node indices (empty for a targetless transition).
        let targets: [Int]
        /// True for `type="internal"`.
        let isInternal: Bool
        /// Executable content.
        let actions: [Action]
        /// The line of the element.
        let line: Int
    }

    /// The nodes, in document order; node 0 is the `<scxml>` root.
    var nodes: [Node]
    /// Every transition of the document.
    var transitions: [Transition]
    /// The `name` attribute of `<scxml>`, if any.
    public let name: String?
    /// Index of every node by id.
    let indexByID: [String: Int]
    /// One past the last descendant of every node: in document order a node's
    /// descendants are the contiguous indices `node + 1 ..< subtreeEnd[node]`.
    let subtreeEnd: [Int]

    /// The document's chart definitions, made once and shared by every interpreter of the
    /// document (and so is what they compile to: see `Statechart.Definition`).
    let definitions: SCXMLDefinitions

    init(name: String?, nodes: [Node], transitions: [Transition]) {
        definitions = SCXMLDefinitions()
        self.name = name
        self.nodes = nodes
        self.transitions = transitions
        var byID: [String: Int] = [:]
        for (index, node) in nodes.enumerated() where index > 0 { byID[node.id] = index }
        indexByID = byID
        var end = nodes.indices.map { $0 + 1 }
        for index in nodes.indices.reversed() where nodes[index].parent >= 0 {
            let parent = nodes[index].parent
            end[parent] = max(end[parent], end[index])
        }
        subtreeEnd = end
    }

    /// For an atomic state, the transitions the selection algorithm tries, in order: the
    /// state's own, then each ancestor's, nearest first (empty for other nodes). Made when
    /// asked, by walking up the tree, so a large document keeps no list per state.
    func selectionChain(of index: Int) -> [Int] {
        switch nodes[index].kind {
        case .atomic, .final:
            var chain: [Int] = []
            var node = index
            while node >= 0 {
                chain += nodes[node].transitions
                node = nodes[node].parent
            }
            return chain
        default:
            return []
        }
    }

    /// Loads and validates the SCXML document at `url`.
    /// - Throws: ``SCXMLError`` naming the element and line at fault.
    public static func load(contentsOf url: URL) throws(SCXMLError) -> SCXMLDocument {
        try load(contentsOf: url, depth: 0)
    }

    static func load(contentsOf url: URL, depth: Int) throws(SCXMLError) -> SCXMLDocument {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(path: url.path, reason: "\(error.localizedDescription)")
        }
        return try SCXMLDocument(data: data, baseURL: url.deletingLastPathComponent(), depth: depth)
    }

    /// How deeply a document's elements may nest (states, executable content and all):
    /// a deeper document is a load error, so that reading it never exhausts the stack.
    /// Charts themselves nest at most ``StatechartLimits/maxNestingDepth`` states deep.
    public static let maxElementDepth = 400

    /// How deeply documents may invoke documents (`<invoke>` in an invoked document...):
    /// a document that invokes itself through `src` is stopped here with an error.
    public static let maxInvokeDepth = 16

    /// Parses and validates an SCXML document given as text.
    /// - Throws: ``SCXMLError`` naming the element and line at fault.
    public init(xml: String) throws(SCXMLError) {
        try self.init(data: Data(xml.utf8))
    }

    /// Parses and validates an SCXML document given as UTF-8 (or declared-encoding) bytes.
    /// - Throws: ``SCXMLError`` naming the element and line at fault.
    public init(data: Data) throws(SCXMLError) {
        try self.init(data: data, baseURL: nil, depth: 0)
    }

    /// Parses a document whose `<invoke src>` paths are relative to `baseURL` (the current
    /// directory when nil); `depth` counts the invocations above it.
    init(data: Data, baseURL: URL?, depth: Int) throws(SCXMLError) {
        // The element tree is let go once the document is built, before the chart compiles,
        // so that a large document's tree and compiled chart never take memory together.
        self = try Self.built(from: try SCXMLParser.parse(data), baseURL: baseURL, depth: depth)
        try compileChart()
    }

    /// The document `tree` describes (an `<invoke>`'s inline `<content>`).
    init(tree: SCXMLElement, baseURL: URL?, depth: Int) throws(SCXMLError) {
        self = try Self.built(from: tree, baseURL: baseURL, depth: depth)
        try compileChart()
    }

    /// Compiles the chart now, so that interpreters created later cannot fail (and share
    /// what it compiled to).
    private func compileChart() throws(SCXMLError) {
        do {
            _ = try definition.compiledModel(options: .scxml)
        } catch {
            throw .invalidStructure(reason: "\(error)", line: nodes[0].line)
        }
    }

    /// The document `tree` describes, checked but not compiled.
    private static func built(from tree: SCXMLElement, baseURL: URL?, depth: Int) throws(SCXMLError) -> Self {
        var builder = SCXMLBuilder(root: tree, baseURL: baseURL, depth: depth)
        return try builder.build()
    }

    /// The document as a chart definition, the model every SCXML chart runs from.
    var definition: SCXMLChart.Definition { definition(tracing: true) }

    /// The document as a chart definition, with or without the blocks that record the
    /// interpreter's trace: made the first time, then shared.
    func definition(tracing: Bool) -> SCXMLChart.Definition {
        if let made = definitions.byTracing.withLock({ $0[tracing] }) { return made }
        let made = Self.definition(of: self, tracing: tracing)
        return definitions.byTracing.withLock { definitions in
            if let stored = definitions[tracing] { return stored }
            definitions[tracing] = made
            return made
        }
    }

    /// The ids of all states (every node except the root), in document order.
    public var stateIDs: [String] { nodes.dropFirst().map(\.id) }

    /// The index of the state with `id`, if any.
    func index(of id: String) -> Int? { indexByID[id] }

    /// Whether `node` is a proper descendant of `ancestor` (constant time).
    func isDescendant(_ node: Int, of ancestor: Int) -> Bool {
        node > ancestor && node < subtreeEnd[ancestor]
    }

    func isAtomic(_ node: Int) -> Bool {
        switch nodes[node].kind {
        case .atomic, .final: true
        default: false
        }
    }

    func isHistory(_ node: Int) -> Bool {
        if case .history = nodes[node].kind { return true }
        return false
    }
}

/// An SCXML document's chart definitions (with and without the trace's blocks), made on
/// first use: a reference, so that copies of the document share them.
final class SCXMLDefinitions: Sendable {
    let byTracing = Lock<[Bool: SCXMLChart.Definition]>([:])
}
