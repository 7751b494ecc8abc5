/// A state machine as a graph: the states it can reach from its initial state (nodes) and
/// the transitions between them (edges labelled by the event that takes them), explored
/// from a machine of any of the package's three kinds.
///
/// - a Core `StateMachine`: ``StateMachineCore/StateMachine/stateGraph(events:maxDepth:maxNodes:key:)``
///   resolves every state against an event alphabet you give, without running outputs;
/// - a `StateMachineTable` `FSM`: ``StateMachineTable/FSM/stateGraph()`` reads the rows
///   of the built table;
/// - a `Statechart`: ``StateMachineHierarchy/Statechart/stateGraph(maxDepth:maxNodes:)``
///   sends every event of the chart to every configuration it reaches.
///
/// Nodes are in breadth-first order from the initial node (``initial``, always the first),
/// and edges by source node, then in the order of the alphabet (or of the table's rows),
/// so a graph explored twice is the same graph and its ``description`` can be written in
/// a test. From a graph come test paths (``shortestPaths()``, ``transitionCover()``,
/// ``simplePaths(maxLength:)``) and pictures (``mermaid()``, ``dot()``).
///
/// An exploration that a bound stopped says so in ``truncation``; a graph is never
/// silently partial.
public struct StateGraph<StateValue: Sendable, EventValue: Sendable>: Sendable {
    /// One state the machine reaches.
    public struct Node: Sendable {
        /// The node's position in ``StateGraph/nodes`` (0 for the initial node).
        public let index: Int
        /// The state's readable name (its `description`, or its type and stored values);
        /// unique within the graph.
        public let name: String
        /// The state itself.
        public let state: StateValue
        /// The number of events on a shortest path from the initial node.
        public let depth: Int
        /// The identity exploration compared states by.
        package let key: StateKey
    }

    /// One transition: from ``source`` on ``event`` to ``target``.
    public struct Edge: Sendable {
        /// The index of the node the transition leaves.
        public let source: Int
        /// The event that takes the transition (for a table, the event with its predicates).
        public let event: EventValue
        /// The event's readable name, as paths and diagrams print it.
        public let label: String
        /// The index of the node the transition enters.
        public let target: Int
        /// Whether the transition also depends on something exploration could not decide
        /// (a table row's `condition { }`): a replay may find it does not fire.
        public let isConditional: Bool
    }

    /// The machine's name (the diagrams' title).
    public let name: String
    /// The reachable states, breadth first from the initial one.
    public let nodes: [Node]
    /// The transitions between them, by source node, then in alphabet (or row) order.
    public let edges: [Edge]
    /// The bound that stopped exploration, or nil when the graph is complete.
    public let truncation: StateGraphTruncation?
    /// How a state reached on a replay is compared with a node (the exploration's key).
    package let identity: @Sendable (StateValue) -> StateKey
    /// How a state is named (a state a replay reaches, in failure messages).
    package let naming: @Sendable (StateValue) -> String

    package init(
        name: String,
        nodes: [Node],
        edges: [Edge],
        truncation: StateGraphTruncation?,
        identity: @escaping @Sendable (StateValue) -> StateKey,
        naming: @escaping @Sendable (StateValue) -> String
    ) {
        self.name = name
        self.nodes = nodes
        self.edges = edges
        self.truncation = truncation
        self.identity = identity
        self.naming = naming
    }

    /// The initial node (the first of ``nodes``).
    public var initial: Node { nodes[0] }
}

extension StateGraph: CustomStringConvertible {
    /// The graph as text, one line per fact, so that a test can compare a whole graph with
    /// a hand-checked one:
    ///
    /// ```
    /// initial: locked
    /// locked -(coin)-> unlocked
    /// locked -(pass)-> locked
    /// ```
    ///
    /// A conditional edge ends with ` [condition]`; a truncated graph ends with a
    /// `truncated: ...` line.
    public var description: String {
        var lines = ["initial: \(initial.name)"]
        for edge in edges {
            lines.append(line(for: edge))
        }
        if let truncation { lines.append("truncated: \(truncation)") }
        return lines.joined(separator: "\n")
    }

    /// `source -(label)-> target`, with ` [condition]` for a conditional edge.
    package func line(for edge: Edge) -> String {
        "\(nodes[edge.source].name) -(\(edge.label))-> \(nodes[edge.target].name)"
            + (edge.isConditional ? " [condition]" : "")
    }
}
