import StateMachineHierarchy

// An SCXML document compiles to the same `Definition` (and so the same model and engine)
// as typed and JSON charts: states, regions, histories, initial transitions and handlers,
// with the document's executable content as the definition's blocks. Each child of a
// `<parallel>` becomes a region holding that one state; SCXML's rules for such a tree (its
// transition domains and when a parallel state completes) are `StatechartOptions.scxml`'s,
// which a chart written in Swift may choose too.

/// The chart an SCXML document runs as: state and event identifiers are the document's
/// ids and event names; the payload is the event's `_event` fields (as the data model
/// sees them: one struct from the queue to `setEvent`).
typealias SCXMLChart = Statechart<String, String, SCXMLEventFields>

extension SCXMLDocument {
    /// The document as a chart definition. Only the states whose document content needs a
    /// block have one, so that a step through plain states calls no block at all; the
    /// interpreter's trace hears of every state entered and exited from the step itself
    /// (`StatechartStepObserver.stateTraced(entered:name:)`).
    static func definition(of document: SCXMLDocument) -> SCXMLChart.Definition {
        var definition = SCXMLChart.Definition(
            name: document.name ?? "scxml",
            root: document.region(of: 0)
        )
        definition.isSCXMLSession = true
        return definition
    }

    private func region(of parent: Int) -> SCXMLChart.RegionSpec {
        var region = SCXMLChart.RegionSpec(
            states: nodes[parent].children.map { state($0) },
            initial: nil
        )
        guard let initialIndex = nodes[parent].initialTransition else { return region }
        let initial = transitions[initialIndex]
        // The session's data is initialised (and its top-level scripts run) by the root's
        // initial transition, before any state is entered.
        let initialisesData = parent == 0 && usesData
        if initial.actions.isEmpty, !initialisesData, initial.targets.count == 1,
            nodes[initial.targets[0]].parent == parent, !isHistory(initial.targets[0])
        {
            region.initial = nodes[initial.targets[0]].id
        } else {
            region.initialTargets = initial.targets.map(target)
            let actions = initial.actions
            region.initialAction =
                initialisesData
                ? { @Sendable context in
                    guard let session = Self.session(context) else { return }
                    session.initializeData(context)
                    session.run(actions, context)
                } : Self.block(actions)
        }
        return region
    }

    private func state(_ index: Int) -> SCXMLChart.NodeSpec {
        let node = nodes[index]
        let content: SCXMLChart.ContentSpec
        switch node.kind {
        case .compound: content = .composite(region(of: index))
        case .parallel:
            content = .parallel(
                node.children.map { SCXMLChart.RegionSpec(states: [state($0)], initial: nil) }
            )
        default: content = .simple
        }
        let id = node.id
        let onEntry = node.onEntry
        let onExit = node.onExit
        let invokes = !node.invokes.isEmpty
        let bindsLate = lateBinding && !node.data.isEmpty
        let hasDoneData = node.doneData != nil
        // Only a state whose document content needs them has blocks (the trace needs none).
        var enter: SCXMLChart.Action?
        if !onEntry.isEmpty || bindsLate || invokes || hasDoneData {
            enter = { @Sendable context in
                guard let session = Self.session(context) else { return }
                if bindsLate { session.bindData(of: index, context) }
                if invokes { session.willInvoke(in: id) }
                for block in onEntry { session.run(block, context) }
                if hasDoneData { session.evaluateDoneData(of: index, context) }
            }
        }
        var exit: SCXMLChart.Action?
        if !onExit.isEmpty || invokes {
            exit = { @Sendable context in
                guard let session = Self.session(context) else { return }
                for block in onExit { session.run(block, context) }
                if invokes { session.cancelInvocations(of: id) }
            }
        }
        var spec = SCXMLChart.NodeSpec(
            id: id,
            content: content,
            enter: enter,
            exit: exit,
            handlers: node.transitions.map { handler(transitions[$0]) }
        )
        spec.isFinal = node.kind == .final
        guard !node.histories.isEmpty else { return spec }
        spec.histories = node.histories.map { historyIndex in
            let history = nodes[historyIndex]
            let deep = if case .history(deep: true) = history.kind { true } else { false }
            let defaultTransition = history.transitions.first.map { transitions[$0] }
            let targets = defaultTransition?.targets.map { nodes[$0].id } ?? []
            return SCXMLChart.HistorySpec(
                name: history.id,
                kind: deep ? .deep : .shallow,
                defaultTarget: targets.first,
                extraDefaultTargets: Array(targets.dropFirst()),
                defaultAction: defaultTransition.flatMap { Self.block($0.actions) }
            )
        }
        return spec
    }

    private func target(_ index: Int) -> SCXMLChart.Target {
        isHistory(index) ? .history(nodes[index].id) : .state(nodes[index].id)
    }

    private func handler(_ transition: Transition) -> SCXMLChart.HandlerSpec {
        let source = transition.source
        let targets = transition.targets.map(target)
        // SCXML's internal transition keeps its compound source when every target lies
        // inside it (a history counts as its owner); otherwise it behaves as external.
        let staysInside =
            transition.isInternal && nodes[source].kind == .compound && !transition.targets.isEmpty
            && transition.targets.allSatisfy { target in
                isHistory(target)
                    ? (nodes[target].parent == source || isDescendant(nodes[target].parent, of: source))
                    : isDescendant(target, of: source)
            }
        return SCXMLChart.HandlerSpec(
            trigger: transition.events.first.map { .event($0) } ?? .eventless,
            target: targets.first ?? .state(nodes[source].id),
            kind: targets.isEmpty ? .internal : (staysInside ? .local : .external),
            guardBlock: transition.condition.map { condition in
                { @Sendable context in Self.session(context)?.holds(condition, context) ?? false }
            },
            action: Self.block(transition.actions),
            extraEvents: Array(transition.events.dropFirst()),
            extraTargets: Array(targets.dropFirst())
        )
    }

    /// The interpreter running the chart whose block this is.
    static func session(_ context: SCXMLChart.Context) -> SCXMLInterpreter? {
        context.hooks.stepObserver as? SCXMLInterpreter
    }

    private static func block(_ actions: [Action]) -> SCXMLChart.Action? {
        guard !actions.isEmpty else { return nil }
        return { @Sendable context in session(context)?.run(actions, context) }
    }
}
