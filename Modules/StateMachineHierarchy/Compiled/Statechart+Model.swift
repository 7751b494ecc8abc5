// The typed half of a compiled chart: its identifiers and user blocks, in arrays parallel to
// the plain-number tables of its `Topology`.

extension Statechart {
    /// Shared, like its topology, by every chart compiled from the same definition (a
    /// class, so that each holds one reference).
    package final class Model: Sendable {
        let topology: Topology
        /// Per state, by index.
        let ids: [StateID]
        let enters: [Action?]
        let exits: [Action?]
        let tasks: [StateTask?]
        /// Per handler, by index.
        let guards: [Guard?]
        let actions: [Action?]
        /// Per junction, its outgoing paths' guards and actions.
        let junctionGuards: [[Guard]]
        let junctionActions: [[Action?]]
        let eventIndex: [EventID: Int32]
        /// Event identifiers by index.
        let eventIDs: [EventID]
        let stateIndex: [StateID: Int32]
        /// Prefix matching's lookup of names that are not events of the chart.
        let matching: EventClasses
        /// Per region, its initial transition's executable content (SCXML).
        let initialActions: [Action?]
        /// Per history, its default transition's executable content (SCXML).
        let historyDefaultActions: [Action?]

        init(
            topology: Topology,
            ids: [StateID],
            enters: [Action?],
            exits: [Action?],
            tasks: [StateTask?],
            guards: [Guard?],
            actions: [Action?],
            junctionGuards: [[Guard]],
            junctionActions: [[Action?]],
            eventIndex: [EventID: Int32],
            eventIDs: [EventID],
            stateIndex: [StateID: Int32],
            matching: EventClasses,
            initialActions: [Action?],
            historyDefaultActions: [Action?]
        ) {
            self.topology = topology
            self.ids = ids
            self.enters = enters
            self.exits = exits
            self.tasks = tasks
            self.guards = guards
            self.actions = actions
            self.junctionGuards = junctionGuards
            self.junctionActions = junctionActions
            self.eventIndex = eventIndex
            self.eventIDs = eventIDs
            self.stateIndex = stateIndex
            self.matching = matching
            self.initialActions = initialActions
            self.historyDefaultActions = historyDefaultActions
        }
    }
}
