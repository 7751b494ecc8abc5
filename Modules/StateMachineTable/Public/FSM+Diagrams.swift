extension FSM {
    /// One edge of a diagram: a row of the built table, described.
    private struct Edge {
        let from: State
        let to: State
        let label: String
    }

    private var edges: [Edge] {
        (built?.rows ?? []).map { row in
            var label = ""
            if !row.predicates.isEmpty { label += "[\(row.predicates.map(\.description).joined(separator: ", "))] " }
            label += "\(row.event)"
            if !row.conditions.isEmpty { label += " [condition]" }
            if !row.actions.isEmpty { label += " / " + Self.names(row.actions) }
            return Edge(from: row.state, to: row.nextState, label: label)
        }
    }

    /// States in table order, the initial state first.
    private var diagramStates: [State] { table.states }

    private static func names(_ actions: [AnyAction]) -> String {
        actions.map { $0.name ?? "action" }.joined(separator: ", ")
    }

    private func stateNotes(_ state: State) -> [String] {
        var notes: [String] = []
        if let entry = built?.onEntry[state], !entry.isEmpty { notes.append("entry / " + Self.names(entry)) }
        if let exit = built?.onExit[state], !exit.isEmpty { notes.append("exit / " + Self.names(exit)) }
        return notes
    }

    /// The built table as a Graphviz DOT digraph: one node per state (with its entry and
    /// exit actions), an arrow from a point to the initial state, and one edge per
    /// transition labelled `[predicates] event [condition] / actions`. Actions show the
    /// name given with ``AnyAction/named(_:)``, or `action`. Render with
    /// `dot -Tsvg table.dot > table.svg`.
    public func dot() -> String {
        var lines = ["digraph FSM {", "    rankdir=LR;", "    node [shape=box, style=rounded];"]
        lines.append("    \"__initial\" [shape=point];")
        lines.append("    \"__initial\" -> \(Self.dotID(initialState));")
        for state in diagramStates {
            let label = ([String(describing: state)] + stateNotes(state)).joined(separator: "\\n")
            lines.append("    \(Self.dotID(state)) [label=\"\(Self.escaped(label))\"];")
        }
        for edge in edges {
            let label = Self.escaped(edge.label)
            lines.append("    \(Self.dotID(edge.from)) -> \(Self.dotID(edge.to)) [label=\"\(label)\"];")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The built table as a Mermaid `stateDiagram-v2`: `[*] --> initial`, one
    /// `from --> to : label` line per transition (labels as in ``dot()``), and entry and
    /// exit actions as state notes. States get identifiers `s0`, `s1`... with their
    /// descriptions as names, so any `State` type renders.
    public func mermaid() -> String {
        let ids = Dictionary(diagramStates.enumerated().map { ($1, "s\($0)") }, uniquingKeysWith: { first, _ in first })
        var lines = ["stateDiagram-v2"]
        for state in diagramStates {
            lines.append("    state \"\(Self.mermaidText(String(describing: state)))\" as \(ids[state]!)")
        }
        lines.append("    [*] --> \(ids[initialState]!)")
        for edge in edges {
            lines.append("    \(ids[edge.from]!) --> \(ids[edge.to]!) : \(Self.mermaidText(edge.label))")
        }
        for state in diagramStates {
            for note in stateNotes(state) {
                lines.append("    \(ids[state]!) : \(Self.mermaidText(note))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func dotID(_ state: State) -> String {
        "\"\(escaped(String(describing: state)))\""
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\"", with: "\\\"")
    }

    /// Mermaid labels end at a newline and treat `:` and quotes specially.
    private static func mermaidText(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: " ")
            .replacingOccurrences(of: "\"", with: "'")
            .replacingOccurrences(of: ":", with: "#58;")
    }
}
