import StateMachineTable

extension FSM {
    /// The graph of the states the built table reaches from its initial state: one edge
    /// per row of the compiled table (super states, `or:` lists and overrides applied),
    /// whose event is the row's event with the predicate values it
    /// names (``TableInput``). A row with a `condition { }` is an edge marked
    /// ``StateGraph/Edge/isConditional``: its condition is listed, not evaluated. Nothing
    /// runs: no action, no condition. States no row reaches are not in the graph.
    ///
    /// A table has finitely many states, so the graph is never truncated.
    /// - Throws: ``StateGraphError/tableNotBuilt`` before `buildTable`.
    public func stateGraph() throws -> StateGraph<State, TableInput<Event>> {
        guard let rows = graphRows else { throw StateGraphError.tableNotBuilt }
        var explorer = try GraphExplorer<State, TableInput<Event>>(
            initial: graphInitialState,
            maxDepth: Int.max,
            maxNodes: Int.max,
            key: { StateKey($0) },
            name: { String(describing: $0) }
        )
        while let node = explorer.nextNode() {
            for row in rows where row.state == node.state {
                let input = TableInput(row.event, predicates: row.predicates)
                try explorer.addEdge(
                    from: node,
                    event: input,
                    label: input.description,
                    to: row.nextState,
                    isConditional: row.isConditional
                )
            }
        }
        return explorer.graph(named: "FSM<\(State.self), \(Event.self)>")
    }
}

/// What a table graph's edge sends: an event and the predicate values that select its
/// row (none for a row without predicates).
///
/// ```swift
/// await table.handleEvent(input.event, predicates: input.predicates)
/// ```
public struct TableInput<Event: Hashable & Sendable>: Sendable, CustomStringConvertible {
    /// The event.
    public let event: Event
    /// The predicate values the row names, one per predicate type, in the order written.
    public let predicates: [any Predicate]
    /// The predicate values as `Type.case`, sorted, so that one combination reads the same
    /// whatever the order it was written or passed in.
    private let labels: [String]

    init(_ event: Event, predicates: [any Predicate]) {
        self.event = event
        self.predicates = predicates
        labels = predicates.map { "\(type(of: $0)).\($0)" }.sorted()
    }

    /// `event`, or `event [Type.case, ...]` with predicates (sorted).
    public var description: String {
        labels.isEmpty ? "\(event)" : "\(event) [\(labels.joined(separator: ", "))]"
    }
}
