// The typed half of a compiled chart: its identifiers and user blocks, in arrays parallel to
// the plain-number tables of its `Topology`.

extension Statechart {
    /// Shared, like its topology, by every chart compiled from the same definition (a
    /// class, so that each holds one reference).
    package final class Model: Sendable {
        let topology: Topology
        /// Per state, by index.
        let ids: [StateID]
        /// Per state, its enter and exit blocks, read unretained (see ``Block``); `blocks`
        /// holds them.
        let enters: [Unmanaged<Block<Action>>?]
        let exits: [Unmanaged<Block<Action>>?]
        let tasks: [StateTask?]
        /// Per handler, by index, its guard and action, read unretained.
        let guards: [Unmanaged<Block<Guard>>?]
        let actions: [Unmanaged<Block<Action>>?]
        /// Keeps the boxes of ``enters``, ``exits``, ``guards`` and ``actions`` alive.
        let blocks: [any AnyObject & Sendable]
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
            var blocks: [any AnyObject & Sendable] = []
            func boxed<Body>(_ bodies: [Body?]) -> [Unmanaged<Block<Body>>?] {
                bodies.map { body in
                    body.map { body in
                        let block = Block(body)
                        blocks.append(block)
                        return Unmanaged.passUnretained(block)
                    }
                }
            }
            self.enters = boxed(enters)
            self.exits = boxed(exits)
            self.tasks = tasks
            self.guards = boxed(guards)
            self.actions = boxed(actions)
            self.blocks = blocks
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
