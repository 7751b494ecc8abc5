import StateMachineSupport

extension FSM {
    /// The built table as a Graphviz DOT digraph, drawn by the package's one diagram
    /// renderer (as `Statechart.dot()` draws a chart): one node per state, labelled with
    /// its description and its entry and exit actions, a point marking the initial state,
    /// and one arrow per row labelled `[predicates] event [condition] / actions`. Actions
    /// show the name given with ``AnyAction/named(_:)``, or `action`. Quotes, backslashes
    /// and line breaks in descriptions are escaped. ``svg()`` and ``png()`` render it with
    /// Graphviz (or `dot -Tsvg table.dot > table.svg`).
    public func dot() -> String {
        diagram.dot()
    }

    /// The built table as a Mermaid `stateDiagram-v2`, drawn by the package's one diagram
    /// renderer: `[*] --> initial`, one `from --> to : label` line per row (labels as in
    /// ``dot()``), and entry and exit actions as state descriptions (`state : entry / a`).
    /// A state whose description is not a plain identifier is shown through
    /// `state "description" as name`, and `#`, `"`, `;` and `:` in text become Mermaid
    /// entity codes, so any `State` type renders.
    public func mermaid() -> String {
        diagram.mermaid()
    }

    /// The table in the package's diagram model: one flat region of states, in table order
    /// with the initial state first.
    var diagram: Diagram {
        let states = table.states
        let vertices = states.map { state in
            Diagram.Vertex(id: String(describing: state), kind: .simple, notes: notes(of: state))
        }
        let transitions = (built?.rows ?? []).map { row in
            var label = ""
            if !row.predicates.isEmpty { label += "[\(row.predicates.map(\.description).joined(separator: ", "))] " }
            label += "\(row.event)"
            if !row.conditions.isEmpty { label += " [condition]" }
            if !row.actions.isEmpty { label += " / " + Self.names(row.actions) }
            return Diagram.Transition(
                source: String(describing: row.state),
                target: String(describing: row.nextState),
                label: label
            )
        }
        return Diagram(
            name: "FSM",
            root: Diagram.Region(vertices: vertices, initial: [String(describing: initialState)]),
            transitions: transitions
        )
    }

    private static func names(_ actions: [AnyAction]) -> String {
        actions.map { $0.name ?? "action" }.joined(separator: ", ")
    }

    /// `entry / ...` and `exit / ...` for the state's entry and exit actions.
    private func notes(of state: State) -> [String] {
        var notes: [String] = []
        if let entry = built?.onEntry[state], !entry.isEmpty { notes.append("entry / " + Self.names(entry)) }
        if let exit = built?.onExit[state], !exit.isEmpty { notes.append("exit / " + Self.names(exit)) }
        return notes
    }
}
