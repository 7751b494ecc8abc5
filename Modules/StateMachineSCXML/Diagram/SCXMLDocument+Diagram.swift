import StateMachineHierarchy
import StateMachineSupport

extension SCXMLDocument {
    /// The document as a Mermaid state diagram (`stateDiagram-v2`), drawn as
    /// `Statechart/mermaid()` draws a chart: compound states as nested blocks, the
    /// children of a `<parallel>` as regions separated by `--`, `[*] -->` for each
    /// default entry (`initial`, `<initial>` or the first child), `<history>` as an
    /// `H`/`H*` state with an arrow to its default, `<final>` states with `--> [*]`, and
    /// transitions labelled with their events, `[cond]` conditions and `/ content` (the
    /// transition's executable content: `raise e`, `send e`, `log`...). An eventless
    /// transition has no event in its label, a targetless one is drawn as a loop.
    public func mermaid() -> String {
        diagram.mermaid()
    }

    /// The document in Graphviz's DOT language, drawn as `Statechart/dot()` draws a chart.
    public func dot() -> String {
        diagram.dot()
    }

    /// The diagram model of the document.
    var diagram: Diagram {
        var transitions: [Diagram.Transition] = []
        for (index, node) in nodes.enumerated() where index > 0 {
            for transitionIndex in node.transitions {
                let transition = self.transitions[transitionIndex]
                let guardLabel = transition.condition.map(conditionLabel)
                let targets = transition.targets.isEmpty ? [index] : Array(transition.targets)
                for target in targets {
                    transitions.append(
                        .init(
                            source: node.id,
                            target: nodes[target].id,
                            events: Array(transition.events),
                            guardLabel: guardLabel,
                            actions: transition.actions.map(diagramLabel)
                        )
                    )
                }
            }
        }
        return Diagram(name: name ?? "scxml", root: diagramRegion(of: 0), transitions: transitions)
    }

    /// A condition as an arrow's label: the null data model's in its normal form, others
    /// as written.
    private func conditionLabel(_ condition: Script) -> String {
        let text = scripts[condition.index].text
        guard dataModel.name == "null", let parsed = try? SCXMLConditionParser.parse(text) else { return text }
        return parsed.description
    }

    /// How an arrow's label names a piece of executable content: `raise e`, `send e`,
    /// `cancel`, `log`, `if`, `assign x`, `script`, `foreach`.
    private func diagramLabel(_ action: Action) -> String {
        switch action {
        case .raise(let event): "raise \(event)"
        case .send(let send):
            switch send.event {
            case .literal(let name): "send \(name)"
            case .expression(let script): "send \(scripts[script.index].text)"
            }
        case .cancel: "cancel"
        case .log(let label, _): label.map { "log \($0)" } ?? "log"
        case .if: "if"
        case .assign(let location, _): "assign \(scripts[location.index].text)"
        case .script: "script"
        case .foreach: "foreach"
        }
    }

    /// The region inside `node`: its history and child states, and its default entry.
    private func diagramRegion(of node: Int) -> Diagram.Region {
        let members = (nodes[node].histories + nodes[node].children).sorted()
        return Diagram.Region(
            vertices: members.map(diagramVertex),
            initial: nodes[node].initialTransition.map { transitions[$0].targets.map { nodes[$0].id } } ?? []
        )
    }

    private func diagramVertex(_ index: Int) -> Diagram.Vertex {
        let node = nodes[index]
        switch node.kind {
        case .root, .compound:
            return Diagram.Vertex(id: node.id, kind: .composite, regions: [diagramRegion(of: index)])
        case .atomic:
            // A state whose only children are history states is drawn as a container of them.
            if node.histories.isEmpty { return Diagram.Vertex(id: node.id, kind: .simple) }
            return Diagram.Vertex(id: node.id, kind: .composite, regions: [diagramRegion(of: index)])
        case .parallel:
            // One region per child; history states go with the first region.
            var regions = node.children.map {
                Diagram.Region(vertices: [diagramVertex($0)], initial: [])
            }
            let histories = node.histories.map(diagramVertex)
            if regions.isEmpty {
                regions = [Diagram.Region(vertices: histories, initial: [])]
            } else {
                regions[0].vertices.insert(contentsOf: histories, at: 0)
            }
            return Diagram.Vertex(id: node.id, kind: .parallel, regions: regions)
        case .final:
            return Diagram.Vertex(id: node.id, kind: .final)
        case .history(let deep):
            return Diagram.Vertex(id: node.id, kind: .history(deep: deep))
        }
    }
}
