// An SCXML document compiles to the same `Definition` (and so the same model and engine)
// as typed and JSON charts: states, regions, histories, initial transitions and handlers,
// with the document's executable content as the definition's blocks. Each child of a
// `<parallel>` becomes a region holding that one state; SCXML's rules for such a tree (its
// transition domains and when a parallel state completes) are `StatechartOptions.scxml`'s,
// which a chart written in Swift may choose too.

/// The chart an SCXML document runs as: state and event identifiers are the document's
/// ids and event names; the payload says which invoked session sent an event (SCXML's
/// null data model carries no data).
typealias SCXMLChart = Statechart<String, String, SCXMLEventOrigin>

/// Where an event came from, when it came from a session this one invoked.
struct SCXMLEventOrigin: Sendable {
    /// The invocation's id.
    let invokeID: String
}

extension SCXMLDocument {
    /// The document as a chart definition. With `tracing`, every state gets enter and exit
    /// blocks that record the interpreter's trace; without it, only the states whose
    /// document content needs a block have one, so that a step through plain states calls
    /// no block at all.
    static func definition(of document: SCXMLDocument, tracing: Bool = true) -> SCXMLChart.Definition {
        var definition = SCXMLChart.Definition(
            name: document.name ?? "scxml",
            root: document.region(of: 0, tracing: tracing)
        )
        definition.isSCXMLSession = true
        return definition
    }

    private func region(of parent: Int, tracing: Bool) -> SCXMLChart.RegionSpec {
        var region = SCXMLChart.RegionSpec(
            states: nodes[parent].children.map { state($0, tracing: tracing) },
            initial: nil
        )
        guard let initialIndex = nodes[parent].initialTransition else { return region }
        let initial = transitions[initialIndex]
        if initial.actions.isEmpty, initial.targets.count == 1, nodes[initial.targets[0]].parent == parent,
            !isHistory(initial.targets[0])
        {
            region.initial = nodes[initial.targets[0]].id
        } else {
            region.initialTargets = initial.targets.map(target)
            region.initialAction = Self.block(initial.actions)
        }
        return region
    }

    private func state(_ index: Int, tracing: Bool) -> SCXMLChart.NodeSpec {
        let node = nodes[index]
        let content: SCXMLChart.ContentSpec
        switch node.kind {
        case .compound: content = .composite(region(of: index, tracing: tracing))
        case .parallel:
            content = .parallel(
                node.children.map { SCXMLChart.RegionSpec(states: [state($0, tracing: tracing)], initial: nil) }
            )
        default: content = .simple
        }
        let id = node.id
        let onEntry = node.onEntry
        let onExit = node.onExit
        let invokes = !node.invokes.isEmpty
        var spec = SCXMLChart.NodeSpec(
            id: id,
            content: content,
            enter: { context in
                let session = Self.session(context)
                session?.note("enter:\(id)")
                if invokes { session?.willInvoke(in: id) }
                Self.run(onEntry, context)
            },
            exit: { context in
                let session = Self.session(context)
                session?.note("exit:\(id)")
                Self.run(onExit, context)
                if invokes { session?.cancelInvocations(of: id) }
            },
            handlers: node.transitions.map { handler(transitions[$0]) }
        )
        if !tracing, !invokes {
            if onEntry.isEmpty { spec.enter = nil }
            if onExit.isEmpty { spec.exit = nil }
        }
        spec.isFinal = node.kind == .final
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
        var spec = SCXMLChart.HandlerSpec(
            trigger: transition.events.first.map { .event($0) } ?? .eventless,
            target: targets.first ?? .state(nodes[source].id),
            kind: targets.isEmpty ? .internal : (staysInside ? .local : .external),
            guardBlock: transition.condition.map(Self.guardBlock),
            action: Self.block(transition.actions)
        )
        spec.extraEvents = Array(transition.events.dropFirst())
        spec.extraTargets = Array(targets.dropFirst())
        return spec
    }

    /// `condition` as a guard, evaluated against the configuration of the running step.
    private static func guardBlock(_ condition: Condition) -> SCXMLChart.Guard {
        { context in holds(condition, context) }
    }

    private static func holds(_ condition: Condition, _ context: SCXMLChart.Context) -> Bool {
        guard let engine = context.hooks.engine else { return false }
        return condition.holds { id in
            context.hooks.model.stateIndex[id].map(engine.isActiveInStep) ?? false
        }
    }

    /// The interpreter running the chart whose block this is.
    static func session(_ context: SCXMLChart.Context) -> SCXMLInterpreter? {
        context.hooks.stepObserver as? SCXMLInterpreter
    }

    private static func block(_ actions: [Action]) -> SCXMLChart.Action? {
        guard !actions.isEmpty else { return nil }
        return { @Sendable context in run(actions, context) }
    }

    /// Runs executable content inside a step: `<raise>` and `<send target="#_internal">`
    /// go to the internal queue, other `<send>`s to the back of the chart's queue (after
    /// their delay, on the chart's clock), `<cancel>` drops pending sends by id, `<log>`
    /// writes to the trace and `<if>` runs its first branch whose condition holds.
    ///
    /// As SCXML requires, an element that raises an error (`error.execution` or
    /// `error.communication` on the internal queue) ends its block: the elements after it
    /// do not run.
    static func run(_ actions: [Action], _ context: SCXMLChart.Context) {
        _ = execute(actions, context)
    }

    /// False when an element raised an error, which ends the enclosing blocks too.
    private static func execute(_ actions: [Action], _ context: SCXMLChart.Context) -> Bool {
        guard !actions.isEmpty, let engine = context.hooks.engine else { return true }
        for action in actions {
            switch action {
            case .raise(let event):
                context.raise(event)
            case .log(let label, let value):
                let text = [label, value].compactMap { $0 }.joined(separator: ": ")
                session(context)?.note("log:\(text)")
            case .if(let branches):
                guard let branch = branches.first(where: { $0.condition.map { holds($0, context) } ?? true }) else {
                    continue
                }
                guard execute(branch.actions, context) else { return false }
            case .send(let send):
                var id = send.id
                if let slot = send.idLocation { id = engine.sends?.generateID(into: slot) }
                switch send.target {
                case .internal:
                    context.raise(send.event)
                case .external:
                    guard let request = try? context.hooks.request(for: SCXMLChart.Event(send.event)) else { continue }
                    guard engine.sends?.schedule(request, name: send.event, delay: send.delay, id: id) == true else {
                        context.raise("error.execution")  // StatechartLimits.maxPendingSends are waiting
                        return false
                    }
                case .parent:
                    guard let session = session(context), session.isInvoked else {
                        context.raise("error.communication")  // this session was not invoked
                        return false
                    }
                    guard send.delay > .zero else {
                        _ = session.sendToParent(send.event)
                        continue
                    }
                    // Forwarded when due, unless the session was cancelled or has ended by then.
                    let event = send.event
                    let forward: @Sendable () -> Void = { [weak session] in _ = session?.sendToParent(event) }
                    guard engine.sends?.schedule(forwarding: forward, name: event, delay: send.delay, id: id) == true
                    else {
                        context.raise("error.execution")  // StatechartLimits.maxPendingSends are waiting
                        return false
                    }
                case .invoked(let invokeID):
                    guard session(context)?.send(send.event, toInvocation: invokeID) == true else {
                        context.raise("error.communication")  // no running invocation has that id
                        return false
                    }
                case .undeliverable(let error):
                    context.raise(error)
                    return false
                }
            case .cancel(let cancel):
                let id: String? =
                    switch cancel.reference {
                    case .id(let given): given
                    case .location(let slot): engine.sends?.id(inSlot: slot)
                    }
                if let id { engine.sends?.cancel { $0 == id } }
            }
        }
        return true
    }
}
