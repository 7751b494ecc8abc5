// Turns a `Definition` into a `Model` (the typed half: identifiers and blocks) around a
// `Topology` (the plain-number tables the engine steps through). Every rule that
// TBStateMachine reported with TBSMException (and a few it left undefined) is checked here,
// and each transition's scope and entry plan is computed once, so a step does no path or
// LCA work.
//
// The compiler runs in phases, one file each, in this order; each states what holds once
// it has run:
//
// 1. `Compiler+Flatten.swift`: the tree into arrays of states and regions.
// 2. `Compiler+PseudoStates.swift`: forks, joins, junctions and histories.
// 3. `Compiler+Events.swift`: the event table (and event classes for prefix matching).
// 4. `Compiler+Handlers.swift`: every handler's event and effect, then the handler table.
// 5. `Compiler+InitialTransitions.swift`: SCXML's initial transitions with content.
// 6. `compile()` below assembles the `Topology` and the `Model`.
//
// `Compiler+Switches.swift` holds what the phases share to make a transition's `Switch`.

extension Statechart {
    /// Compiles one definition (see the phases above); used once, by `compile()`.
    struct Compiler {
        // The declaration's types, for the phases' extensions of `Statechart.Compiler`.
        typealias RegionSpec = Statechart.RegionSpec
        typealias HandlerSpec = Statechart.HandlerSpec
        typealias Target = Statechart.Target
        typealias Action = Statechart.Action
        typealias Guard = Statechart.Guard
        typealias ActionBlock = Statechart.ActionBlock
        typealias GuardBlock = Statechart.GuardBlock

        let definition: Definition
        let prefixMatching: Bool
        /// `TransitionDomain.leastCommonCompoundAncestor`: see `domain(_:)`; a history target
        /// counts as the state it leads to.
        let compoundDomains: Bool
        /// `ParallelCompletion.everyRegionInFinalState`.
        let completesThroughChildren: Bool

        // 1. Flatten
        var states: [CompiledStateDraft] = []
        var regions: [RegionNode] = []
        var stateIndex: [StateID: Int32] = [:]
        /// Regions whose spec has an initial transition, with that spec.
        var regionSpecs: [(Int32, RegionSpec)] = []

        // 2. Pseudo states
        var pseudoNames: Set<String> = []
        var forkInfo: [String: (region: Int32, targets: [Int32])] = [:]
        var joins: [JoinNode] = []
        var joinInfo: [String: (index: Int32, region: Int32, sources: [Int32], target: Int32)] = [:]
        var junctionNames: [String] = []
        var junctionGuards: [[GuardBlock]] = []
        var junctionActions: [[ActionBlock?]] = []
        var junctionInfo: [String: (index: Int32, targets: [Int32])] = [:]
        var histories: [HistoryNode] = []
        var historyDefaultActions: [ActionBlock?] = []
        var historyInfo: [String: (index: Int32, owner: Int32, defaultTarget: Int32?)] = [:]

        // 3. Events
        var eventIndex: [EventID: Int32] = [:]
        var userEventCount = 0
        var matching = EventClasses(names: [], enabled: false)
        /// The names of the synthetic events, numbered from `userEventCount`.
        var syntheticNames: [String] = []
        var eventlessEvent: Int32 = -1
        /// Per state, the event its completion raises (-1 when nothing handles it).
        var doneEvents: [Int32] = []
        var timers: [TimerNode] = []
        var stateTimers: [[Int32]] = []

        // 4. Handlers (and the switches every phase registers)
        var switches = SwitchTable()
        var handlers: [HandlerNode] = []
        var handlerNames: [String] = []
        /// Per handler, its guard and action, boxed (see ``Statechart/ActionBlock``).
        var guards: [GuardBlock?] = []
        var actions: [ActionBlock?] = []
        /// Every (handler, event) listing of the handler table, in no particular order.
        var listings: [(handler: Int32, event: Int32)] = []

        // 5. Initial transitions
        var regionDefaults: [Int32] = []
        var initialActions: [ActionBlock?] = []

        /// A state as the phases see it: its spec's parts, before they become `StateNode`s
        /// and the `Model`'s arrays.
        struct CompiledStateDraft {
            var id: StateID
            var name: String
            var path: String
            var parent: Int32
            var kind: StateKind
            var regions: [Int32]
            var enter: Action?
            var exit: Action?
            var handlers: [HandlerSpec]
            var joinsToReset: [Int32] = []
            var isFinal: Bool
            var histories: [HistorySpec]
            var deferred: [EventID]
            var task: StateTask?
        }

        /// A compiler for `definition` under `options`.
        init(_ definition: Definition, options: StatechartOptions = StatechartOptions()) {
            self.definition = definition
            let key = CompiledCache.Key(options)
            prefixMatching = key.prefixMatching
            compoundDomains = key.compoundDomains
            completesThroughChildren = key.completesThroughChildren
        }

        /// Runs every phase and assembles the compiled chart.
        /// - Throws: ``StatechartError`` naming the state, event or pseudo state at fault.
        mutating func compile() throws -> Model {
            guard !definition.name.isEmpty else {
                throw StatechartError.emptyName(what: "A statechart", location: "the root region")
            }
            _ = try flatten(definition.root, name: definition.name, owner: -1, pathPrefix: "", depth: 1)
            try compileForks()
            try compileJoins()
            try compileJunctions()
            try compileHistories()
            indexEvents()
            try compileHandlers()
            listDoneEventsUnderMatchingHandlers()
            let table = handlerTable()
            assignDoneEventClasses()
            try compileInitialTransitions()
            return assemble(table: table)
        }

        /// The `Topology` and the `Model` made of what the phases built. The state drafts and
        /// the event-name index of prefix matching are let go before the topology is built
        /// (its tables are the largest part of a big chart's load), so that they and the
        /// topology never take memory together.
        private mutating func assemble(table: HandlerTable) -> Model {
            var eventIDs = [EventID?](repeating: nil, count: userEventCount)
            for (id, index) in eventIndex { eventIDs[Int(index)] = id }
            let ids = states.map(\.id)
            // Boxed here, from the drafts: an array of closures would store each behind a
            // thunk (see ``Statechart/ActionBlock``).
            let enters = states.map { ActionBlock.boxing($0.enter) }
            let exits = states.map { ActionBlock.boxing($0.exit) }
            let tasks = states.map(\.task)
            let nodes = states.indices.map { index in
                let draft = states[index]
                return StateNode(
                    name: draft.name,
                    hasEnter: draft.enter != nil,
                    hasExit: draft.exit != nil,
                    path: draft.path,
                    parent: draft.parent,
                    kind: draft.kind,
                    regions: draft.regions,
                    joinsToReset: draft.joinsToReset,
                    isFinal: draft.isFinal,
                    hasTask: draft.task != nil,
                    histories: historyIndexes(of: draft.path, in: histories),
                    timers: stateTimers[index],
                    deferred: draft.deferred.map { eventIndex[$0]! }
                )
            }
            states = []
            stateTimers = []
            // What only listing handlers read goes too (it is done).
            matching = matching.forgettingNames()
            let topology = Topology(
                name: definition.name,
                states: nodes,
                regions: regions,
                handlers: handlers,
                handlerNames: handlerNames,
                switches: switches,
                joins: joins,
                junctionNames: junctionNames,
                eventNames: eventIDs.map { statechartName($0!) } + syntheticNames,
                handlerTable: table,
                histories: histories,
                timers: timers,
                eventlessEvent: eventlessEvent,
                doneEvents: doneEvents,
                userEventCount: userEventCount,
                regionDefaults: regionDefaults,
                hasInitialActions: initialActions.contains { $0 != nil },
                raisesEveryDoneEvent: prefixMatching,
                completesThroughChildren: completesThroughChildren
            )
            return Model(
                topology: topology,
                ids: ids,
                enters: enters,
                exits: exits,
                tasks: tasks,
                guards: guards,
                actions: actions,
                junctionGuards: junctionGuards,
                junctionActions: junctionActions,
                eventIndex: eventIndex,
                eventIDs: eventIDs.map { $0! },
                stateIndex: stateIndex,
                matching: matching,
                initialActions: initialActions,
                historyDefaultActions: historyDefaultActions
            )
        }
    }
}
