/// The breadth-first search every kind of machine is explored with: it hands out the
/// nodes to expand in order, and takes the transitions found from each, adding the
/// states they reach while the bounds allow and counting the transitions it drops.
///
/// The explorations of the three kinds differ only in how they find a state's transitions
/// (resolving a Core route, reading a table's rows, stepping a copy of a chart), so each
/// writes a short loop around this one search:
///
/// ```
/// while let node = explorer.nextNode() {
///     for each event: explorer.addEdge(from: node, ...)
/// }
/// ```
struct GraphExplorer<StateValue: Sendable, EventValue: Sendable> {
    typealias Graph = StateGraph<StateValue, EventValue>

    private let maxDepth: Int
    private let maxNodes: Int
    private let key: @Sendable (StateValue) throws -> StateKey
    private let name: @Sendable (StateValue) -> String
    private var nodes: [Graph.Node] = []
    private var edges: [Graph.Edge] = []
    private var indexByKey: [StateKey: Int] = [:]
    private var usedNames: Set<String> = []
    private var next = 0
    private var firstBound: StateGraphTruncation.Bound?
    private var dropped = 0

    /// A search from `initial`; `key` identifies states, `name` names them.
    init(
        initial: StateValue,
        maxDepth: Int,
        maxNodes: Int,
        key: @escaping @Sendable (StateValue) throws -> StateKey,
        name: @escaping @Sendable (StateValue) -> String
    ) throws {
        try Self.validate(maxDepth: maxDepth, maxNodes: maxNodes)
        self.maxDepth = maxDepth
        self.maxNodes = maxNodes
        self.key = key
        self.name = name
        _ = try insert(initial, depth: 0)
    }

    /// Throws ``StateGraphError/invalidBound(name:value:)`` for a bound below 1.
    static func validate(maxDepth: Int, maxNodes: Int) throws {
        guard maxDepth >= 1 else { throw StateGraphError.invalidBound(name: "maxDepth", value: maxDepth) }
        guard maxNodes >= 1 else { throw StateGraphError.invalidBound(name: "maxNodes", value: maxNodes) }
    }

    /// The next node to expand, breadth first; nil when every node is expanded.
    mutating func nextNode() -> Graph.Node? {
        guard next < nodes.count else { return nil }
        defer { next += 1 }
        return nodes[next]
    }

    /// Adds the transition from `source` on `event` to `target`: to the node `target` is,
    /// or to a new node when the bounds allow one (else the transition is dropped and
    /// counted).
    mutating func addEdge(
        from source: Graph.Node,
        event: EventValue,
        label: String,
        to target: StateValue,
        isConditional: Bool = false
    ) throws {
        let targetKey = try key(target)
        let index: Int
        if let known = indexByKey[targetKey] {
            index = known
        } else if source.depth + 1 > maxDepth {
            drop(.maxDepth)
            return
        } else if nodes.count >= maxNodes {
            drop(.maxNodes)
            return
        } else {
            index = try insert(target, depth: source.depth + 1)
        }
        edges.append(
            Graph.Edge(source: source.index, event: event, label: label, target: index, isConditional: isConditional)
        )
    }

    /// The graph found, named `name`.
    func graph(named graphName: String) -> Graph {
        let key = self.key
        return Graph(
            name: graphName,
            nodes: nodes,
            edges: edges,
            truncation: firstBound.map {
                StateGraphTruncation(bound: $0, limit: $0 == .maxDepth ? maxDepth : maxNodes, droppedEdges: dropped)
            },
            // A state a replay reaches that the key cannot identify matches no node.
            identity: { (try? key($0)) ?? StateKey(UnidentifiedState()) },
            naming: name
        )
    }

    private mutating func drop(_ bound: StateGraphTruncation.Bound) {
        if firstBound == nil { firstBound = bound }
        dropped += 1
    }

    private mutating func insert(_ state: StateValue, depth: Int) throws -> Int {
        let stateKey = try key(state)
        var stateName = name(state)
        // Two states with one name (a key finer than the description) stay apart in
        // paths and diagrams.
        if usedNames.contains(stateName) {
            var suffix = 2
            while usedNames.contains("\(stateName) #\(suffix)") { suffix += 1 }
            stateName = "\(stateName) #\(suffix)"
        }
        usedNames.insert(stateName)
        let index = nodes.count
        nodes.append(Graph.Node(index: index, name: stateName, state: state, depth: depth, key: stateKey))
        indexByKey[stateKey] = index
        return index
    }
}

/// The identity of a state whose key could not be computed: equal to nothing a node has.
private struct UnidentifiedState: Hashable {}
