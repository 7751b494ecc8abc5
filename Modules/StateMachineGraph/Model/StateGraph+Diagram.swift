import StateMachineSupport

extension StateGraph {
    /// The graph as a Mermaid `stateDiagram-v2`, drawn by the package's one diagram
    /// renderer (as `FSM.mermaid()` and `Statechart.mermaid()` are): `[*] --> initial`, one
    /// state per node and one `source --> target : event` line per edge. A state whose name
    /// is not a plain identifier is shown through `state "name" as alias`.
    public func mermaid() -> String { diagram.mermaid() }

    /// The graph as a Graphviz DOT digraph, drawn by the package's one diagram renderer:
    /// one node per state, a point marking the initial state, one arrow per edge labelled
    /// with its event. ``svg()`` and ``png()`` render it with Graphviz (or
    /// `dot -Tsvg graph.dot > graph.svg`).
    public func dot() -> String { diagram.dot() }

    /// The graph in the package's diagram model: one flat region.
    var diagram: Diagram {
        Diagram(
            name: name,
            root: Diagram.Region(
                vertices: nodes.map { Diagram.Vertex(id: $0.name, kind: .simple) },
                initial: [initial.name]
            ),
            transitions: edges.map { edge in
                Diagram.Transition(
                    source: nodes[edge.source].name,
                    target: nodes[edge.target].name,
                    label: edge.isConditional ? "\(edge.label) [condition]" : edge.label
                )
            }
        )
    }
}
