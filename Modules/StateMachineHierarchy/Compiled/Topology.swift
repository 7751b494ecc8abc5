// The compiled, immutable form of a chart (what `Statechart.Compiler` makes of a
// `Definition`): states and regions flattened into arrays and addressed by index, with every
// transition's exit scope and entry plan computed once at build time so a step does no path
// or LCA work.
//
// The tree itself (`Topology`) is deliberately not generic: the step walks it on every
// event, and unspecialised generic code would look up type metadata for each access.
// Only identifiers and user closures live in the generic `Statechart.Model`
// (`Statechart+Model.swift`), in parallel arrays.

enum StateKind: Sendable {
    case simple
    case composite
    case parallel
}

struct StateNode: Sendable {
    let name: String
    /// Whether the state has an enter or exit block, so steps touch the (generic) closure
    /// arrays only when there is something to call.
    let hasEnter: Bool
    let hasExit: Bool
    let path: String
    /// The region this state lives in.
    let parent: Int32
    let kind: StateKind
    /// Nested regions in index order: one for a composite state, one per region for a parallel state.
    let regions: [Int32]
    /// Joins whose region is this (parallel) state: their partial progress is dropped when it exits.
    let joinsToReset: [Int32]
    var isFinal = false
    var hasTask = false
    /// History pseudo states of this state (recorded when it exits).
    var histories: [Int32] = []
    /// Delayed transitions of this state, as indexes into `Topology.timers`.
    var timers: [Int32] = []
    /// Event indexes this state defers.
    var deferred: [Int32] = []
}

/// A history pseudo state: which regions it remembers when its owner exits.
struct HistoryNode: Sendable {
    let name: String
    let owner: Int32
    let kind: StatechartHistoryKind
    /// The owner's own regions (shallow) or every region below it (deep), in document order.
    let regions: [Int32]
    /// Where the default transition leads, as (region, state) pairs below the owner; used
    /// by transitions that enter the history through `Switch.histories`.
    var defaultRegions: [Int32] = []
    var defaultStates: [Int32] = []
    /// The default transition has executable content (SCXML), run after the owner's entry.
    var hasDefaultAction = false
}

/// A delayed transition: the handler it fires through its own synthetic event.
struct TimerNode: Sendable {
    let state: Int32
    let event: Int32
    let delay: Duration
}

struct RegionNode: Sendable {
    /// TBStateMachine's machine name: the chart name, `<state>SubMachine` or `<state>SubMachine-<i>`.
    let name: String
    /// The state that owns the region, or -1 for the root.
    let parent: Int32
    let states: [Int32]
    let initial: Int32

    /// The same region with another initial state.
    func withInitial(_ state: Int32) -> RegionNode {
        RegionNode(name: name, parent: parent, states: states, initial: state)
    }
}

/// What a transition exits and enters, as the compiler computes it. `Topology` flattens
/// these into plain-value tables (`SwitchHot`) for the step.
struct Switch: Sendable {
    /// The regions whose active states are exited (deeply) and then re-entered: the least
    /// common ancestor region or, for a local transition, the region(s) inside the
    /// containing state.
    let scope: [Int32]
    /// For each region on the way down to the target(s), the state to enter instead of the
    /// region's initial state. Short, so a linear search beats a dictionary.
    let planRegions: [Int32]
    let planStates: [Int32]
    /// The name of the scope's region, for the debugger.
    let scopeName: String
    /// History pseudo states among the targets: each enters its record, or its default
    /// when it has none.
    var histories: [Int32] = []
}

/// A switch as the step reads it: ranges into the flat scope and plan tables (`SwitchTable`, then `TopologyTables`).
struct SwitchHot: Sendable {
    let scopeStart: Int32
    let scopeCount: Int32
    let planStart: Int32
    let planCount: Int32
    /// The history targets are `Topology.switchHistories[historyStart ..< historyStart + historyCount]`.
    let historyStart: Int32
    let historyCount: Int32
}

/// The switches a chart's compiler registers, flattened as the step reads them (into
/// `TopologyTables`): each ``Switch`` is appended as it is made, so a chart of many
/// transitions never holds an array per switch.
struct SwitchTable: Sendable {
    private(set) var hot: [SwitchHot] = []
    /// Per switch, the name of its scope's region, for the debugger.
    private(set) var scopeNames: [String] = []
    private(set) var scopeRegions: [Int32] = []
    private(set) var planRegions: [Int32] = []
    private(set) var planStates: [Int32] = []
    private(set) var histories: [Int32] = []

    var count: Int { hot.count }

    /// Makes room for `count` more switches of one scope region and one planned state each
    /// (a transition's usual switch), so that a large chart's table is not left with the
    /// slack of growing by doubling.
    mutating func reserveCapacity(adding count: Int) {
        hot.reserveCapacity(hot.count + count)
        scopeNames.reserveCapacity(scopeNames.count + count)
        scopeRegions.reserveCapacity(scopeRegions.count + count)
        planRegions.reserveCapacity(planRegions.count + count)
        planStates.reserveCapacity(planStates.count + count)
    }

    /// Appends `change`; its index is the count before.
    mutating func append(_ change: Switch) {
        hot.append(
            SwitchHot(
                scopeStart: Int32(scopeRegions.count),
                scopeCount: Int32(change.scope.count),
                planStart: Int32(planRegions.count),
                planCount: Int32(change.planRegions.count),
                historyStart: Int32(histories.count),
                historyCount: Int32(change.histories.count)
            )
        )
        scopeNames.append(change.scopeName)
        scopeRegions += change.scope
        planRegions += change.planRegions
        planStates += change.planStates
        histories += change.histories
    }
}

/// What a handler does once its guard passes. Switches are referred to by index into
/// `TopologyTables.switches`, so the value is plain and copying it costs no reference counting.
enum Effect: Sendable {
    case internalAction
    case transition(Int32)
    case fork(Int32)
    case join(join: Int32, slot: Int32, change: Int32)
    /// The switch of path `p` is `firstPath + p`.
    case junction(junction: Int32, firstPath: Int32)
    /// A transition to a history pseudo state: `remembered` enters its owner (the record
    /// then picks the children), `fallback` goes to its default target (or the owner's
    /// initial states) when nothing is recorded yet.
    case history(history: Int32, remembered: Int32, fallback: Int32)
}

struct HandlerNode: Sendable {
    let source: Int32
    let hasGuard: Bool
    let hasAction: Bool
    let effect: Effect
}

struct JoinNode: Sendable {
    let name: String
    let sources: [Int32]
    var sourceCount: Int { sources.count }
}

/// The per-state facts a step reads, as plain values: copying one costs no reference
/// counting, unlike `StateNode` with its names and arrays.
struct StateHot: Sendable {
    let parent: Int32
    let kind: StateKind
    let hasEnter: Bool
    let hasExit: Bool
    /// The state's nested regions are `TopologyTables.childRegions[regionStart ..< regionStart + regionCount]`.
    let regionStart: Int32
    let regionCount: Int32
    /// The joins to reset on exit are `Topology.resetJoins[joinStart ..< joinStart + joinCount]`.
    let joinStart: Int32
    let joinCount: Int32
    /// The state's delayed transitions are `Topology.stateTimers[timerStart ..< timerStart + timerCount]`.
    let timerStart: Int32
    let timerCount: Int32
    /// The histories it owns are `Topology.stateHistories[historyStart ..< historyStart + historyCount]`.
    let historyStart: Int32
    let historyCount: Int32
    /// Whether entering or exiting the state has more to do than its blocks: histories to
    /// record, timers or a task to start and cancel, a final state to report.
    let isFinal: Bool
    let hasExtras: Bool
    let hasTask: Bool
    /// Neither the state nor any state below it records a history or stops a timer or a
    /// task when it exits: exiting it is only observers, exit blocks and joins to reset.
    let exitsPlainly: Bool
    /// The state's (event, handlers) pairs are `TopologyTables.pairEvents[pairStart ..< pairStart + pairCount]`,
    /// in event order.
    let pairStart: Int32
    let pairCount: Int32
    /// Bit `e % 64` is set when the state has handlers for some event `e` of that residue:
    /// most events a state does not handle are turned away by this one test.
    let eventMask: UInt64
}

/// The immutable compiled chart, shared by every chart made from the same definition (see
/// `Statechart.Definition`'s compiled cache): a class, so that an engine holds one reference
/// to it, and the owner of ``tables``, the block of hot tables the engines read.
final class Topology: Sendable {
    let name: String
    let states: [StateNode]
    let regions: [RegionNode]
    /// TBStateMachine's transition names by handler: `a --> b`, `c --> fork --> p/[a,b]`...
    let handlerNames: [String]
    let joins: [JoinNode]
    let junctionNames: [String]
    /// Event names by index, for the debugger and error messages.
    let eventNames: [String]
    let switchScopeNames: [String]

    let histories: [HistoryNode]
    let timers: [TimerNode]
    /// The synthetic event of eventless transitions, or -1 when the chart has none.
    let eventlessEvent: Int32
    /// Per state, the synthetic `done.state.<name>` event, or -1 when nothing handles it.
    let doneEvents: [Int32]
    /// Events `0 ..< userEventCount` are the user's; the rest are synthetic.
    let userEventCount: Int
    let switchHistories: [Int32]
    /// Per region: the switch of its initial transition (SCXML), or -1 for a plain
    /// default entry into `RegionNode.initial`.
    let regionDefaults: [Int32]
    let hasRegionDefaults: Bool
    /// Some region's initial transition has executable content.
    let hasInitialActions: Bool
    /// Some history's default transition has executable content.
    let hasHistoryDefaultActions: Bool
    /// With prefix matching (SCXML), every composite and parallel state raises its done
    /// event when it completes, even when no handler matches it (it still shows in traces).
    let raisesEveryDoneEvent: Bool
    /// `ParallelCompletion.everyRegionInFinalState`: a parallel state completes when each
    /// region's state is in a final state at any depth, not only when it is one.
    let completesThroughChildren: Bool
    // Which of the newer features the chart uses, so that steps of charts without them
    // skip their state entirely (see `StatechartEngine.settles`).
    let hasDeferrals: Bool
    let hasHistories: Bool
    /// Histories, joins, timers or final states: the state a snapshot reads besides the configuration.
    let hasSnapshotExtras: Bool

    let resetJoins: [Int32]
    let stateTimers: [Int32]
    let stateHistories: [Int32]
    /// History `h` remembers `historyRegions[historyRegionStart[h] ..< historyRegionStart[h + 1]]`.
    let historyRegions: [Int32]
    let historyRegionStart: [Int32]
    /// The states with eventless transitions: while none of them is active, no eventless
    /// transition can be enabled, and a step need not look for one.
    let eventlessSources: [Int32]
    /// The tables a step reads on every event (states, handlers, switches and their
    /// scopes, plans and entries, the sparse handler table), made here and kept only in
    /// one block this topology owns and frees: every engine made from it reads them there
    /// (see `TopologyTables`).
    let tables: TopologyTables
    /// How many values some of ``tables``' buffers hold (their `Slots` keep no count): the
    /// per-state facts (`hot`), and the sparse handler table's listings and (state, event) pairs.
    let tableSizes: (hot: Int, handlerList: Int, pairEvents: Int)

    init(
        name: String,
        states: [StateNode],
        regions: [RegionNode],
        handlers: [HandlerNode],
        handlerNames: [String],
        switches: SwitchTable,
        joins: [JoinNode],
        junctionNames: [String],
        eventNames: [String],
        handlerTable: HandlerTable,
        histories: [HistoryNode],
        timers: [TimerNode],
        eventlessEvent: Int32,
        doneEvents: [Int32],
        userEventCount: Int,
        regionDefaults: [Int32],
        hasInitialActions: Bool,
        raisesEveryDoneEvent: Bool,
        completesThroughChildren: Bool
    ) {
        self.regionDefaults = regionDefaults
        hasRegionDefaults = regionDefaults.contains { $0 >= 0 }
        self.hasInitialActions = hasInitialActions
        hasHistoryDefaultActions = histories.contains(where: \.hasDefaultAction)
        self.raisesEveryDoneEvent = raisesEveryDoneEvent
        self.completesThroughChildren = completesThroughChildren
        self.histories = histories
        self.timers = timers
        self.eventlessEvent = eventlessEvent
        self.doneEvents = doneEvents
        self.userEventCount = userEventCount
        hasDeferrals = states.contains { !$0.deferred.isEmpty }
        hasHistories = !histories.isEmpty
        hasSnapshotExtras =
            !histories.isEmpty || !joins.isEmpty || !timers.isEmpty || states.contains(where: \.isFinal)
            || completesThroughChildren
        self.name = name
        self.states = states
        self.regions = regions
        self.handlerNames = handlerNames
        let hotSwitches = switches.hot
        let scopeRegions = switches.scopeRegions
        let planRegions = switches.planRegions
        let planStates = switches.planStates
        switchHistories = switches.histories
        switchScopeNames = switches.scopeNames
        self.joins = joins
        self.junctionNames = junctionNames
        self.eventNames = eventNames
        // The tables below are built here, then copied into `tables`' one block: each is
        // reserved at its size (or its usual size), so that none holds the slack of growing
        // by doubling while the block is made.
        var hot: [StateHot] = []
        hot.reserveCapacity(states.count)
        var childRegions: [Int32] = []
        childRegions.reserveCapacity(regions.count)
        var resetJoins: [Int32] = []
        var stateTimers: [Int32] = []
        var stateHistories: [Int32] = []
        let plainExits = Self.plainExits(states: states, regions: regions)
        for (index, state) in states.enumerated() {
            let pairs = handlerTable.pairs(of: index)
            hot.append(
                StateHot(
                    parent: state.parent,
                    kind: state.kind,
                    hasEnter: state.hasEnter,
                    hasExit: state.hasExit,
                    regionStart: Int32(childRegions.count),
                    regionCount: Int32(state.regions.count),
                    joinStart: Int32(resetJoins.count),
                    joinCount: Int32(state.joinsToReset.count),
                    timerStart: Int32(stateTimers.count),
                    timerCount: Int32(state.timers.count),
                    historyStart: Int32(stateHistories.count),
                    historyCount: Int32(state.histories.count),
                    isFinal: state.isFinal,
                    hasExtras: state.isFinal || state.hasTask || !state.histories.isEmpty || !state.timers.isEmpty,
                    hasTask: state.hasTask,
                    exitsPlainly: !state.hasTask && state.histories.isEmpty && state.timers.isEmpty
                        && state.regions.allSatisfy { plainExits[Int($0)] },
                    pairStart: Int32(pairs.lowerBound),
                    pairCount: Int32(pairs.count),
                    eventMask: pairs.reduce(0) { $0 | 1 << (UInt64(handlerTable.pairEvents[$1]) % 64) }
                )
            )
            childRegions += state.regions
            resetJoins += state.joinsToReset
            stateTimers += state.timers
            stateHistories += state.histories
        }
        self.resetJoins = resetJoins
        self.stateTimers = stateTimers
        self.stateHistories = stateHistories
        historyRegions = histories.flatMap(\.regions)
        historyRegionStart = histories.reduce(into: [0]) { starts, history in
            starts.append(starts[starts.count - 1] + Int32(history.regions.count))
        }
        let regionInitial = regions.map(\.initial)
        eventlessSources =
            eventlessEvent < 0
            ? []
            : states.indices.compactMap { state in
                handlerTable.handlers(of: state, for: eventlessEvent).isEmpty ? nil : Int32(state)
            }
        let explicitChild = { (region: Int32, change: Int32) -> Int32? in
            let entry = hotSwitches[Int(change)]
            let plan = Int(entry.planStart)..<Int(entry.planStart + entry.planCount)
            return plan.first { planRegions[$0] == region }.map { planStates[$0] }
        }
        let directTargets = handlers.map { handler in
            Self.directTarget(
                of: handler,
                hot: hot,
                switches: hotSwitches,
                scopeRegions: scopeRegions,
                explicitChild: explicitChild
            )
        }
        // What `StatechartEngine.enterRegion` does when no history applies, run ahead.
        var entryStart: [Int32] = [0]
        var entryRegions: [Int32] = []
        var entryStates: [Int32] = []
        var hasStaticEntry: [Bool] = []
        var hasPlainEntry: [Bool] = []
        entryStart.reserveCapacity(hotSwitches.count + 1)
        entryRegions.reserveCapacity(hotSwitches.count)
        entryStates.reserveCapacity(hotSwitches.count)
        hasStaticEntry.reserveCapacity(hotSwitches.count)
        hasPlainEntry.reserveCapacity(hotSwitches.count)
        for (change, entry) in hotSwitches.enumerated() {
            var isStatic = true
            func enter(_ region: Int32, plan: Int32) {
                let explicit = plan >= 0 ? explicitChild(region, plan) : nil
                if explicit == nil, regionDefaults[Int(region)] >= 0 {
                    isStatic = false
                    return
                }
                let target = explicit ?? regions[Int(region)].initial
                entryRegions.append(region)
                entryStates.append(target)
                let state = hot[Int(target)]
                let inner = Int(state.regionStart)..<Int(state.regionStart + state.regionCount)
                switch state.kind {
                case .simple:
                    break
                case .composite:
                    enter(childRegions[inner.lowerBound], plan: plan)
                case .parallel:
                    for slot in inner {
                        let region = childRegions[slot]
                        enter(region, plan: plan >= 0 && explicitChild(region, plan) != nil ? plan : -1)
                    }
                }
            }
            for slot in Int(entry.scopeStart)..<Int(entry.scopeStart + entry.scopeCount) {
                enter(scopeRegions[slot], plan: Int32(change))
            }
            if !isStatic {
                entryRegions.removeLast(entryRegions.count - Int(entryStart[change]))
                entryStates.removeLast(entryStates.count - Int(entryStart[change]))
            }
            entryStart.append(Int32(entryRegions.count))
            hasStaticEntry.append(isStatic)
            hasPlainEntry.append(
                isStatic && !hasHistoryDefaultActions
                    && entryStates[Int(entryStart[change])...].allSatisfy { state in
                        !hot[Int(state)].hasEnter && !hot[Int(state)].hasExtras
                    }
            )
        }
        tableSizes = (hot.count, handlerTable.list.count, handlerTable.pairEvents.count)
        let isPlainSwitch = hotSwitches.indices.map { change in
            let entry = hotSwitches[change]
            let scope = Int(entry.scopeStart)..<Int(entry.scopeStart + entry.scopeCount)
            return hasPlainEntry[change] && entry.historyCount == 0
                && scope.allSatisfy { plainExits[Int(scopeRegions[$0])] }
        }
        tables = TopologyTables(
            hot: hot,
            childRegions: childRegions,
            handlers: handlers,
            handlerTable: handlerTable,
            directTargets: directTargets,
            switches: hotSwitches,
            scopeRegions: scopeRegions,
            entryStart: entryStart,
            entryRegions: entryRegions,
            entryStates: entryStates,
            hasStaticEntry: hasStaticEntry,
            hasPlainEntry: hasPlainEntry,
            isPlainSwitch: isPlainSwitch,
            regionInitial: regionInitial,
            regionParents: regions.map(\.parent),
            planRegions: planRegions,
            planStates: planStates,
            dispatch: DispatchCandidates(
                table: handlerTable,
                parents: states.map(\.parent),
                regionCount: regions.count,
                eventCount: eventNames.count
            )
        )
    }

    deinit {
        tables.release()
    }

    /// The state `handler` moves to when its transition is a plain move between two states
    /// of one region: both simple, without blocks, timers, tasks, histories or joins, the
    /// scope that region alone, no history target. Such a transition exits the source and
    /// enters the target with nothing else to run (but its action), so the step can take it
    /// without walking the scope. -1 otherwise.
    private static func directTarget(
        of handler: HandlerNode,
        hot: [StateHot],
        switches: [SwitchHot],
        scopeRegions: [Int32],
        explicitChild: (Int32, Int32) -> Int32?
    ) -> Int32 {
        guard case .transition(let change) = handler.effect else { return -1 }
        let entry = switches[Int(change)]
        let source = hot[Int(handler.source)]
        guard entry.scopeCount == 1, entry.historyCount == 0,
            scopeRegions[Int(entry.scopeStart)] == source.parent,
            let target = explicitChild(source.parent, change)
        else { return -1 }
        let destination = hot[Int(target)]
        func isPlain(_ state: StateHot) -> Bool {
            state.kind == .simple && !state.hasEnter && !state.hasExit && !state.hasExtras && !state.isFinal
                && state.joinCount == 0
        }
        return isPlain(source) && isPlain(destination) ? target : -1
    }

    /// Per region, whether no state at or below it records a history or stops a timer or a
    /// task when it exits (see `StateHot.exitsPlainly`). Regions are numbered in document
    /// order (pre-order), so walking them backwards settles every region below one first.
    private static func plainExits(states: [StateNode], regions: [RegionNode]) -> [Bool] {
        var plain = [Bool](repeating: true, count: regions.count)
        for region in regions.indices.reversed() {
            plain[region] = regions[region].states.allSatisfy { index in
                let state = states[Int(index)]
                return !state.hasTask && state.histories.isEmpty && state.timers.isEmpty
                    && state.regions.allSatisfy { plain[Int($0)] }
            }
        }
        return plain
    }

    /// The slots in `historyRegions` of the regions `history` remembers.
    @inline(__always)
    func historyRegionSlots(_ history: Int) -> Range<Int> {
        Int(historyRegionStart[history])..<Int(historyRegionStart[history + 1])
    }

    /// The slots in `handlerTable.list` of the handlers `state` tries for `event`, in order.
    func handlerRange(state: Int32, event: Int32) -> Range<Int> {
        tables.handlerRange(state: state, event: event)
    }
}
