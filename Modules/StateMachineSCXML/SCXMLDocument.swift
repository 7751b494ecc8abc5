import Foundation
import StateMachineHierarchy
import StateMachineSupport

/// A statechart loaded from an SCXML document: states, compound and parallel states,
/// finals, initial states, shallow and deep history, transitions with event descriptors,
/// conditions, internal/external types, executable content (`<raise>`, `<send>`,
/// `<cancel>`, `<log>`, `<if>`, and with a data model `<assign>`, `<script>`,
/// `<foreach>`), `<invoke>` of SCXML documents, and the data of its data model (the null
/// one, or ECMAScript's: see ``SCXMLDataModel``). Run it with ``SCXMLInterpreter``, which
/// runs it on `Statechart`'s engine.
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

    /// A script of the document (an expression, condition, location or `<script>` body):
    /// its position in ``SCXMLDocument/scripts``, which the data model compiled.
    struct Script: Sendable, Equatable, Hashable {
        let index: Int
    }

    /// A value given either by an expression or inline (`<content>`, `<data>`, `<assign>`
    /// children, a `src` file), JSON when it parses as JSON and text otherwise.
    enum ValueSource: Sendable, Equatable {
        case expression(Script)
        case literal(SCXMLValue)
    }

    /// A `<param name expr|location>`: the value is the expression's, or the location's.
    struct Param: Sendable, Equatable {
        let name: String
        let value: Script
    }

    /// Text given literally or by an expression (`event`/`eventexpr`, `target`/`targetexpr`...).
    enum Text: Sendable, Equatable {
        case literal(String)
        case expression(Script)
    }

    /// Executable content.
    enum Action: Sendable, Equatable {
        /// `<raise event="name"/>`: appends `name` to the internal queue.
        case raise(String)
        /// `<log label expr/>`: writes `label: value` to the trace (as `log:label: value`).
        case log(label: String?, expr: Script?)
        /// `<send>`: queues an event for this machine, another session or a queue.
        case send(Send)
        /// `<cancel>`: cancels the pending delayed sends with an id.
        case cancel(Cancel)
        /// `<if>`/`<elseif>`/`<else>`: runs the content of the first branch whose
        /// condition holds (an `<else>` branch has none).
        case `if`([Branch])
        /// `<assign location expr>` (or inline content).
        case assign(location: Script, value: ValueSource)
        /// `<script>` (inline or `src`).
        case script(Script)
        /// `<foreach array item index>` and its content.
        case foreach(array: Script, item: Script, index: Script?, actions: [Action])
    }

    /// A `<data>` element: the variable and its initial value (undefined when nil).
    struct DataItem: Sendable, Equatable {
        let id: String
        let value: ValueSource?
        /// Where the element is.
        let position: SCXMLPosition
        /// The line of the element.
        var line: Int { position.line }
    }

    /// A `<donedata>`: `<content>` or `<param>`s.
    enum DoneData: Sendable, Equatable {
        case content(ValueSource)
        case params([Param])
    }

    /// One `<invoke>` of a child SCXML document (the only invocation type).
    struct Invoke: Sendable {
        /// Where the child document comes from.
        enum Source: Sendable {
            /// Loaded with the parent (`src`, relative to the parent's file, or inline `<content>`).
            case document(SCXMLDocument)
            /// `srcexpr`: the URI is evaluated when the invocation starts.
            case sourceExpression(Script)
            /// `<content expr>`: the document's text is evaluated when the invocation starts.
            case contentExpression(Script)
        }

        /// The invocation's id (`id`); nil when it is generated (`<state id>.<n>`).
        let id: String?
        /// The `idlocation` location that receives the generated id, if any.
        let idLocation: Script?
        /// `typeexpr`, checked when the invocation starts.
        let typeExpression: Script?
        /// `autoforward="true"`: every external event the invoking session processes is
        /// sent on to the child too.
        let autoforward: Bool
        /// The child document.
        let source: Source
        /// `namelist` (each name with its value's expression) and `<param>`s: values the
        /// child's `<data>` of the same names start with.
        let params: [Param]
        /// `<finalize>` content, run when an event from the child is about to be processed.
        let finalize: [Action]
        /// Where the element is.
        let position: SCXMLPosition
        /// The line of the element.
        var line: Int { position.line }
    }

    /// One branch of an `<if>`: `<if cond>`, `<elseif cond>` or `<else>` (no condition).
    struct Branch: Sendable, Equatable {
        /// The branch's condition; nil for `<else>`.
        let condition: Script?
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
        /// `<onentry>` content, one block per element: an error ends its block only.
        var onEntry: [[Action]]
        /// `<onexit>` content, one block per element.
        var onExit: [[Action]]
        /// `<invoke>`s, started when the state has been entered (at the end of the
        /// macrostep) and cancelled when it exits.
        var invokes: [Invoke] = []
        /// `<datamodel>`'s `<data>` elements declared in this state (or the root).
        var data: [DataItem] = []
        /// A `<final>`'s `<donedata>`.
        var doneData: DoneData?
        /// The line of the element in the document.
        let line: Int
    }

    /// One `<transition>`.
    struct Transition: Sendable {
        /// The index of the source node.
        let source: Int
        /// The event descriptors (empty for an eventless transition).
        let events: CompactList<String>
        /// The `cond`, nil when there is none.
        let condition: Script?
        /// Target node indices (empty for a targetless transition).
        let targets: CompactList<Int>
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

    /// The document's chart definition, made once and shared by every interpreter of the
    /// document (and so is what they compile to: see `Statechart.Definition`).
    let definitionCache: SCXMLDefinitionCache

    /// The data model the document runs with: its `datamodel` attribute's, else the one it
    /// was loaded with, else the null data model.
    public let dataModel: SCXMLDataModel
    /// Every script of the document, in document order, as the data model compiled them.
    let scripts: [SCXMLScriptSource]
    /// What the data model compiled `scripts` to, shared by every session.
    let compiledScripts: any SCXMLCompiledScripts
    /// `binding="late"`: a state's `<data>` get their values when it is first entered
    /// (early binding, the default, gives every `<data>` its value when the session starts).
    let lateBinding: Bool
    /// The `<script>` children of `<scxml>`, run once the data model is initialised.
    let initialScripts: [Action]
    /// Whether the document has a data model other than the null one: sessions then bind
    /// `_event` for each event and initialise the document's `<data>` when they start.
    let usesData: Bool
    /// The folder `srcexpr` paths start from (the current directory when nil).
    let baseURL: URL?
    /// What the document and those it invokes may read by name (`src`, `srcexpr`).
    let sources: SCXMLSourcePolicy

    init(
        name: String?,
        nodes: [Node],
        transitions: [Transition],
        dataModel: SCXMLDataModel = .null,
        scripts: [SCXMLScriptSource] = [],
        compiledScripts: any SCXMLCompiledScripts = SCXMLNullDataModel.Scripts(compiled: []),
        lateBinding: Bool = false,
        initialScripts: [Action] = [],
        baseURL: URL? = nil,
        sources: SCXMLSourcePolicy = .none
    ) {
        self.baseURL = baseURL
        self.sources = sources
        definitionCache = SCXMLDefinitionCache()
        self.name = name
        self.dataModel = dataModel
        self.scripts = scripts
        self.compiledScripts = compiledScripts
        self.lateBinding = lateBinding
        self.initialScripts = initialScripts
        usesData = dataModel.name != "null"
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
    /// - Parameters:
    ///   - url: the file (its folder is where `src` paths start).
    ///   - dataModel: the data model for a document that declares one
    ///     (`datamodel="ecmascript"` needs `.ecmascript`, from the `StateMachineECMAScript`
    ///     product), and the one a document without a `datamodel` attribute runs with
    ///     (nil: the null data model); `datamodel="null"` always runs with the null one.
    ///   - sources: what the document (and every document it invokes) may read by name;
    ///     by default regular files inside the folder of `url`, at most 1 MiB each (see
    ///     ``SCXMLSourcePolicy``).
    /// - Throws: ``SCXMLError`` naming the element and line at fault
    ///   (``SCXMLError/sourceRefused(element:attribute:value:line:rule:)`` for a source the
    ///   policy refused).
    public static func load(
        contentsOf url: URL,
        dataModel: SCXMLDataModel? = nil,
        sources: SCXMLSourcePolicy = .documentFolder
    ) throws(SCXMLError) -> SCXMLDocument {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(path: url.path, reason: "\(error.localizedDescription)")
        }
        let folder = url.standardizedFileURL.deletingLastPathComponent()
        return try SCXMLDocument(
            data: data,
            baseURL: folder,
            depth: 0,
            dataModel: dataModel,
            sources: sources.rooted(at: folder)
        )
    }

    /// The document an `<invoke>` names by `attribute` (`src`, or `srcexpr` once evaluated),
    /// read through `sources` relative to `base`; its own names start from its folder.
    static func invoked(
        _ src: String,
        attribute: String,
        line: Int,
        base: URL?,
        depth: Int,
        dataModel: SCXMLDataModel?,
        sources: SCXMLSourcePolicy
    ) throws(SCXMLError) -> SCXMLDocument {
        let data: Data
        do {
            data = try sources.read(src, relativeTo: base)
        } catch {
            throw .sourceRefused(element: "invoke", attribute: attribute, value: src, line: line, rule: error.rule)
        }
        let folder =
            (try? SCXMLSourcePolicy.localPath(of: src, relativeTo: base))
            .map { URL(fileURLWithPath: $0).deletingLastPathComponent() } ?? base
        do {
            return try SCXMLDocument(data: data, baseURL: folder, depth: depth, dataModel: dataModel, sources: sources)
        } catch {
            throw .invalidStructure(reason: "<invoke \(attribute)=\"\(src)\">: \(error)", line: line)
        }
    }

    /// How deeply a document's elements may nest (states, executable content and all):
    /// a deeper document is a load error, so that reading it never exhausts the stack.
    /// Charts themselves nest at most `StatechartLimits/maxNestingDepth` states deep.
    public static let maxElementDepth = 400

    /// How deeply documents may invoke documents (`<invoke>` in an invoked document...):
    /// a document that invokes itself through `src` is stopped here with an error.
    public static let maxInvokeDepth = 16

    /// Parses and validates an SCXML document given as text.
    /// - Parameters:
    ///   - xml: the document.
    ///   - dataModel: the data model for a document that declares one, and for one
    ///     without a `datamodel` attribute (see ``load(contentsOf:dataModel:sources:)``).
    ///   - sources: what the document may read by name; by default nothing, since text has
    ///     no folder (``SCXMLSourcePolicy/documentFolder`` allows nothing here either).
    /// - Throws: ``SCXMLError`` naming the element and line at fault.
    public init(xml: String, dataModel: SCXMLDataModel? = nil, sources: SCXMLSourcePolicy = .none) throws(SCXMLError) {
        try self.init(
            data: Data(xml.utf8),
            baseURL: nil,
            depth: 0,
            dataModel: dataModel,
            sources: sources.rooted(at: nil)
        )
    }

    /// Parses and validates an SCXML document given as UTF-8 (or declared-encoding) bytes.
    /// - Parameters:
    ///   - data: the document's bytes.
    ///   - dataModel: the data model for a document that declares one, and for one
    ///     without a `datamodel` attribute (see ``load(contentsOf:dataModel:sources:)``).
    ///   - sources: what the document may read by name; by default nothing, since bytes have
    ///     no folder (``SCXMLSourcePolicy/documentFolder`` allows nothing here either).
    /// - Throws: ``SCXMLError`` naming the element and line at fault.
    public init(data: Data, dataModel: SCXMLDataModel? = nil, sources: SCXMLSourcePolicy = .none) throws(SCXMLError) {
        try self.init(data: data, baseURL: nil, depth: 0, dataModel: dataModel, sources: sources.rooted(at: nil))
    }

    /// Parses a document whose `src` paths are relative to `baseURL` (the current
    /// directory when nil); `depth` counts the invocations above it.
    init(
        data: consuming Data,
        baseURL: URL?,
        depth: Int,
        dataModel: SCXMLDataModel?,
        sources: SCXMLSourcePolicy
    ) throws(SCXMLError) {
        // The bytes (taken, so that a copy made for the parser is not kept by the caller) and
        // the element tree are let go once the document is built, before the chart compiles,
        // so that a large document's text, tree and compiled chart never take memory together.
        self = try Self.built(
            from: try SCXMLParser.parse(consume data),
            baseURL: baseURL,
            depth: depth,
            dataModel: dataModel,
            sources: sources
        )
        try compileChart()
    }

    /// The document `tree` describes (an `<invoke>`'s inline `<content>`).
    init(
        tree: SCXMLElement,
        baseURL: URL?,
        depth: Int,
        dataModel: SCXMLDataModel?,
        sources: SCXMLSourcePolicy
    ) throws(SCXMLError) {
        self = try Self.built(from: tree, baseURL: baseURL, depth: depth, dataModel: dataModel, sources: sources)
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
    private static func built(
        from tree: SCXMLElement,
        baseURL: URL?,
        depth: Int,
        dataModel: SCXMLDataModel?,
        sources: SCXMLSourcePolicy
    ) throws(SCXMLError) -> Self {
        var builder = SCXMLBuilder(
            root: tree,
            baseURL: baseURL,
            depth: depth,
            dataModel: dataModel,
            sources: sources
        )
        return try builder.build()
    }

    /// The document as a chart definition, the model every SCXML chart runs from: made the
    /// first time, then shared.
    var definition: SCXMLChart.Definition {
        if let made = definitionCache.made.withLock({ $0 }) { return made }
        let made = Self.definition(of: self)
        return definitionCache.made.withLock { stored in
            if let stored { return stored }
            stored = made
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

/// An SCXML document's chart definition, made on first use: a reference, so that copies of
/// the document share it.
final class SCXMLDefinitionCache: Sendable {
    let made = Lock<SCXMLChart.Definition?>(nil)
}
