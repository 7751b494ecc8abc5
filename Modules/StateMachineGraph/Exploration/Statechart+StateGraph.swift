import StateMachineHierarchy

extension Statechart {
    /// The graph of the configurations the chart reaches from its initial one when sent
    /// each of its `events` (with no payload): a node per configuration (its
    /// active states, in document order, as `activeStates` lists them), an
    /// edge per event a configuration handles (`.handled`, including an internal or self
    /// transition that keeps the configuration).
    ///
    /// Exploration works on copies of the chart, never on this one: a new chart of the
    /// same definition and options, started (or restored from a configuration's
    /// snapshot) on a manual clock, so no delayed transition fires. Guards are evaluated
    /// and the actions of the steps taken run, as they would on a real chart; keep them
    /// free of outside effects while exploring. A node is a configuration: when a
    /// configuration is reached with different histories, exploration continues from the
    /// first one reached.
    ///
    /// - Parameters:
    ///   - maxDepth: the most events from the initial configuration (default
    ///     ``StateGraphLimits/defaultMaxDepth``).
    ///   - maxNodes: the most configurations (default ``StateGraphLimits/defaultMaxNodes``).
    /// - Throws: ``StateGraphError/invalidBound(name:value:)``, or
    ///   ``StateGraphError/chartFailed(configuration:event:reason:)`` when a step fails.
    public func stateGraph(
        maxDepth: Int = StateGraphLimits.defaultMaxDepth,
        maxNodes: Int = StateGraphLimits.defaultMaxNodes
    ) throws -> StateGraph<[StateID], EventID> {
        try GraphExplorer<[StateID], EventID>.validate(maxDepth: maxDepth, maxNodes: maxNodes)
        let start = try explorationCopy(restoring: nil)
        start.start()
        // The snapshot each configuration is explored from: the first one reached.
        var snapshots: [[StateID]: StatechartSnapshot] = [:]
        func remember(_ chart: Statechart) -> [StateID] {
            let active = chart.activeStates
            if snapshots[active] == nil { snapshots[active] = chart.snapshot() }
            return active
        }
        var explorer = try GraphExplorer<[StateID], EventID>(
            initial: remember(start),
            maxDepth: maxDepth,
            maxNodes: maxNodes,
            key: { StateKey($0) },
            name: Self.configurationName
        )
        while let node = explorer.nextNode() {
            guard let snapshot = snapshots[node.state] else { continue }
            for event in events {
                let copy: Statechart
                let outcome: StatechartStepOutcome
                do {
                    copy = try explorationCopy(restoring: snapshot)
                    outcome = try copy.handle(event)
                } catch {
                    throw StateGraphError.chartFailed(
                        configuration: node.name,
                        event: "\(event)",
                        reason: "\(error)"
                    )
                }
                guard outcome == .handled else { continue }
                try explorer.addEdge(from: node, event: event, label: "\(event)", to: remember(copy))
            }
        }
        return explorer.graph(named: name)
    }

    /// A configuration's name: its active states, comma separated (`active, playing, normal`).
    @Sendable
    package static func configurationName(_ active: [StateID]) -> String {
        active.map { "\($0)" }.joined(separator: ", ")
    }
}
