// The typed half of a compiled chart: its identifiers and user blocks, in arrays parallel to
// the plain-number tables of its `Topology`.

extension Statechart {
    /// Shared, like its topology, by every chart compiled from the same definition (a
    /// class, so that each holds one reference).
    package final class Model: Sendable {
        let topology: Topology
        /// Per state, by index.
        let ids: [StateID]
        /// Per state, its enter and exit blocks, read unretained (see ``ActionBlock``);
        /// `boxes` holds them.
        let enters: [Unmanaged<ActionBlock>?]
        let exits: [Unmanaged<ActionBlock>?]
        let tasks: [StateTask?]
        /// Per handler, by index, its guard and action, read unretained.
        let guards: [Unmanaged<GuardBlock>?]
        let actions: [Unmanaged<ActionBlock>?]
        /// Keeps the boxes of ``enters``, ``exits``, ``guards`` and ``actions`` alive: only
        /// the blocks there are (most states and handlers of a large chart have none).
        private let boxes: [any AnyObject & Sendable]
        /// Per junction, its outgoing paths' guards and actions.
        let junctionGuards: [[GuardBlock]]
        let junctionActions: [[ActionBlock?]]
        let eventIndex: [EventID: Int32]
        /// ``eventIndex`` probed by bytes, for a chart whose events are `String`s; nil for
        /// other event types.
        let eventNameIndex: EventNameIndex?
        /// Event identifiers by index.
        let eventIDs: [EventID]
        let stateIndex: [StateID: Int32]
        /// Prefix matching's lookup of names that are not events of the chart.
        let matching: EventClasses
        /// Per region, its initial transition's executable content (SCXML).
        let initialActions: [ActionBlock?]
        /// Per history, its default transition's executable content (SCXML).
        let historyDefaultActions: [ActionBlock?]

        init(
            topology: Topology,
            ids: [StateID],
            enters: [ActionBlock?],
            exits: [ActionBlock?],
            tasks: [StateTask?],
            guards: [GuardBlock?],
            actions: [ActionBlock?],
            junctionGuards: [[GuardBlock]],
            junctionActions: [[ActionBlock?]],
            eventIndex: [EventID: Int32],
            eventIDs: [EventID],
            stateIndex: [StateID: Int32],
            matching: EventClasses,
            initialActions: [ActionBlock?],
            historyDefaultActions: [ActionBlock?]
        ) {
            self.topology = topology
            self.ids = ids
            func unretained<Box: AnyObject>(_ boxes: [Box?]) -> [Unmanaged<Box>?] {
                boxes.map { box in box.map { Unmanaged.passUnretained($0) } }
            }
            self.enters = unretained(enters)
            self.exits = unretained(exits)
            self.tasks = tasks
            self.guards = unretained(guards)
            self.actions = unretained(actions)
            let blocks: [ActionBlock] = (enters + exits + actions).compactMap { $0 }
            boxes = blocks + guards.compactMap { $0 }
            self.junctionGuards = junctionGuards
            self.junctionActions = junctionActions
            self.eventIndex = eventIndex
            eventNameIndex =
                EventID.self == String.self
                ? EventNameIndex(unsafeBitCast(eventIDs, to: [String].self)) : nil
            self.eventIDs = eventIDs
            self.stateIndex = stateIndex
            self.matching = matching
            self.initialActions = initialActions
            self.historyDefaultActions = historyDefaultActions
        }
    }
}
