extension SCXMLDocument {
    /// The document's structure, one line per part, without line numbers: its data model,
    /// every node (kind, parent, data, entry and exit content, invocations, with the
    /// structure of an invoked document nested), every transition (events, condition,
    /// targets, content) and every script's text. Two documents that differ only in layout,
    /// comments or attribute order have the same lines; any other change shows. What a
    /// durable session's definition fingerprint is made of.
    package var structureLines: [String] {
        var lines = [
            "scxml name=\(name ?? "") datamodel=\(dataModel.name) binding=\(lateBinding ? "late" : "early")",
            "initial scripts \(Self.withoutLines(initialScripts))",
        ]
        for (index, node) in nodes.enumerated() {
            lines.append(
                "node \(index) id=\(node.id) kind=\(node.kind) parent=\(node.parent) initial=\(node.initialTransition.map(String.init) ?? "-") transitions=\(node.transitions)"
            )
            lines.append("  data \(Self.withoutLines(node.data)) done \(Self.withoutLines(node.doneData as Any))")
            lines.append("  entry \(Self.withoutLines(node.onEntry)) exit \(Self.withoutLines(node.onExit))")
            for invoke in node.invokes {
                lines.append(
                    "  invoke id=\(invoke.id ?? "-") idlocation=\(invoke.idLocation.map { "\($0.index)" } ?? "-") typeexpr=\(invoke.typeExpression.map { "\($0.index)" } ?? "-") autoforward=\(invoke.autoforward) params=\(Self.withoutLines(invoke.params)) finalize=\(Self.withoutLines(invoke.finalize))"
                )
                switch invoke.source {
                case .document(let child): lines += child.structureLines.map { "    " + $0 }
                case .sourceExpression(let script): lines.append("    srcexpr \(script.index)")
                case .contentExpression(let script): lines.append("    content expr \(script.index)")
                }
            }
        }
        for (index, transition) in transitions.enumerated() {
            lines.append(
                "transition \(index) source=\(transition.source) events=\(transition.events) cond=\(transition.condition.map { "\($0.index)" } ?? "-") targets=\(transition.targets) internal=\(transition.isInternal)"
            )
            lines.append("  content \(Self.withoutLines(transition.actions))")
        }
        for (index, script) in scripts.enumerated() {
            lines.append("script \(index) \(script.kind) <\(script.element) \(script.attribute)>: \(script.text)")
        }
        return lines
    }

    /// `value` as Swift describes it, without the positions of elements (their `line: n` or
    /// `position: SCXMLPosition(...)` fields): a change of layout is no change of structure.
    private static func withoutLines(_ value: Any) -> String {
        String(describing: value)
            .replacing(/,? ?position: [\w.]*SCXMLPosition\(storedLine: -?\d+, storedColumn: -?\d+\)/, with: "")
            .replacing(/,? ?line: \d+/, with: "")
    }
}
