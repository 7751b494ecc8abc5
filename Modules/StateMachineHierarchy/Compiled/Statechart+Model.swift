// The typed half of a compiled chart: its identifiers and user blocks, in arrays parallel to
// the plain-number tables of its `Topology`.

extension Statechart {
    struct Model: Sendable {
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
    }
}
