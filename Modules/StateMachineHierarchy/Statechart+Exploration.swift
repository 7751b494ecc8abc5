extension Statechart {
    /// A new chart of this chart's definition and options on a manual clock (so no delayed
    /// transition fires), unstarted, or restored from `snapshot`: what the state graph
    /// (`StateMachineGraph`) explores instead of this chart.
    package func explorationCopy(restoring snapshot: StatechartSnapshot?) throws -> Statechart {
        guard let snapshot else { return try Statechart(definition, options: options, clock: ManualStatechartClock()) }
        return try Statechart(definition, options: options, clock: ManualStatechartClock(), restoring: snapshot)
    }
}
