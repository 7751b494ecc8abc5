import StateMachineSupport

extension Statechart {
    /// The chart as a Mermaid state diagram (`stateDiagram-v2`): composite states as
    /// nested `state X { ... }` blocks, the regions of a parallel state separated by `--`,
    /// `[*] --> x` for each region's initial state, forks, joins and junctions as
    /// `<<fork>>`, `<<join>>` and `<<choice>>` states, and transitions labelled
    /// `event [guard] / action` (the guard's name from `guardName:`, else `guard`; `/ action`
    /// when the transition has an action). Ids that are not
    /// plain identifiers are shown through `state "id" as name`. Costs one walk of the
    /// chart's declaration; the text ends with a newline.
    public func mermaid() -> String {
        definition.diagram.mermaid()
    }

    /// The chart in Graphviz's DOT language: composite and parallel states as nested
    /// `subgraph cluster_N` (each region of a parallel state a dashed cluster), initial
    /// states marked by small filled points, forks and joins as black bars, junctions as
    /// diamonds, final states as a bull's eye, history states as small `H`/`H*` circles, and
    /// arrows labelled `event [guard] / action`. Every id is a quoted string. Costs
    /// one walk of the chart's declaration; the text ends with a newline.
    public func dot() -> String {
        definition.diagram.dot()
    }
}

extension Statechart.Definition {
    /// The diagram model of this declaration.
    var diagram: Diagram {
        var transitions: [Diagram.Transition] = []
        var vertices = Self.vertices(of: root, transitions: &transitions)
        for fork in forks {
            vertices.append(Diagram.Vertex(id: fork.name, kind: .fork))
            for target in fork.targets {
                transitions.append(.init(source: fork.name, target: statechartName(target)))
            }
        }
        for join in joins {
            vertices.append(Diagram.Vertex(id: join.name, kind: .join))
            transitions.append(.init(source: join.name, target: statechartName(join.target)))
        }
        for junction in junctions {
            vertices.append(Diagram.Vertex(id: junction.name, kind: .junction))
            for path in junction.paths {
                transitions.append(
                    .init(source: junction.name, target: statechartName(path.target), guardLabel: "guard")
                )
            }
        }
        let initial = root.initial ?? root.states.first?.id
        return Diagram(
            name: name,
            root: Diagram.Region(vertices: vertices, initial: initial.map { [statechartName($0)] } ?? []),
            transitions: transitions
        )
    }

    /// The vertices of `region`, in declaration order; their handlers' arrows go to
    /// `transitions` (depth first, in declaration order).
    private static func vertices(
        of region: Statechart.RegionSpec,
        transitions: inout [Diagram.Transition]
    ) -> [Diagram.Vertex] {
        region.states.map { node in
            let id = statechartName(node.id)
            for handler in node.handlers {
                let target: String
                switch handler.target {
                case .state(let state): target = statechartName(state)
                case .fork(let name), .join(let name), .junction(let name), .history(let name): target = name
                }
                transitions.append(
                    .init(
                        source: id,
                        target: target,
                        events: triggerLabel(handler.trigger, source: id).map { [$0] } ?? [],
                        guardLabel: handler.guardName ?? (handler.guardBlock == nil ? nil : "guard"),
                        actions: handler.action == nil ? [] : [handler.actionName ?? "action"]
                    )
                )
            }
            // History pseudo states are drawn inside their state (a parallel state's in its
            // first region), with an arrow to their default target.
            let histories = node.histories.map { history in
                if let target = history.defaultTarget {
                    transitions.append(.init(source: history.name, target: statechartName(target)))
                }
                return Diagram.Vertex(id: history.name, kind: .history(deep: history.kind == .deep))
            }
            switch node.content {
            case .simple:
                return Diagram.Vertex(id: id, kind: node.isFinal ? .final : .simple)
            case .composite(let inner):
                var region = diagramRegion(inner, transitions: &transitions)
                region.vertices = histories + region.vertices
                return Diagram.Vertex(id: id, kind: .composite, regions: [region])
            case .parallel(let inners):
                var regions = inners.map { diagramRegion($0, transitions: &transitions) }
                regions[0].vertices = histories + regions[0].vertices
                return Diagram.Vertex(id: id, kind: .parallel, regions: regions)
            }
        }
    }

    /// The event part of a transition's label: the event, `after 2s`, `done.state.<id>`,
    /// or nothing for an eventless transition.
    private static func triggerLabel(_ trigger: Statechart.Trigger, source: String) -> String? {
        switch trigger {
        case .event(let event): statechartName(event)
        case .eventless: nil
        case .after(let delay): "after \(describe(delay))"
        case .done(let state): "done.state.\(state.map { statechartName($0) } ?? source)"
        }
    }

    /// `2s`, `1.5s` or `250ms`.
    private static func describe(_ delay: Duration) -> String {
        let (seconds, attoseconds) = delay.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000)s" }
        if milliseconds < 1000 { return "\(milliseconds)ms" }
        return "\(Double(milliseconds) / 1000)s"
    }

    private static func diagramRegion(
        _ spec: Statechart.RegionSpec,
        transitions: inout [Diagram.Transition]
    ) -> Diagram.Region {
        let initial = spec.initial ?? spec.states.first?.id
        return Diagram.Region(
            vertices: vertices(of: spec, transitions: &transitions),
            initial: initial.map { [statechartName($0)] } ?? []
        )
    }
}
