/// A walk through a state graph from its initial node: the events to send, in order, and
/// the state each one must lead to. Test runners replay it on a fresh machine.
///
/// Its ``description`` is the walk as one line, `start -(event)-> state -(event)-> state`;
/// ``events`` are the events to send.
public struct StatePath<StateValue: Sendable, EventValue: Sendable>: Sendable, CustomStringConvertible {
    /// A node of the graph the path walks.
    public typealias Node = StateGraph<StateValue, EventValue>.Node

    /// One event of the path and the state it leads to.
    public struct Step: Sendable {
        /// The event to send.
        public let event: EventValue
        /// The event's readable name.
        public let label: String
        /// The node the event must lead to.
        public let target: Node
        /// Whether the transition depends on a condition exploration did not evaluate.
        public let isConditional: Bool
    }

    /// The node the path starts at (the graph's initial node).
    public let start: Node
    /// The steps, in order.
    public let steps: [Step]
    /// How a state reached on a replay is compared with a node.
    package let identity: @Sendable (StateValue) -> StateKey
    /// How a state is named, as the graph names its nodes.
    package let naming: @Sendable (StateValue) -> String

    package init(
        start: Node,
        steps: [Step],
        identity: @escaping @Sendable (StateValue) -> StateKey,
        naming: @escaping @Sendable (StateValue) -> String
    ) {
        self.start = start
        self.steps = steps
        self.identity = identity
        self.naming = naming
    }

    /// The events to send, in order.
    public var events: [EventValue] { steps.map(\.event) }

    /// The node the path ends at.
    public var end: Node { steps.last?.target ?? start }

    /// `start -(event)-> state -(event)-> state`; just `start` for a path with no step.
    public var description: String {
        steps.reduce(start.name) { text, step in "\(text) -(\(step.label))-> \(step.target.name)" }
    }

    /// Whether `state` is the state of `node`, compared as exploration compared states.
    package func matches(_ state: StateValue, _ node: Node) -> Bool {
        identity(state) == node.key
    }
}
