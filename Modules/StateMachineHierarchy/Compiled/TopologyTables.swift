/// The topology's tables a step reads on every event, copied into one block that the
/// ``Topology`` owns and frees: reading one is a load, with no array bounds check or buffer
/// look-up (the step's indices come from the topology itself). Every engine made from the
/// topology reads the same block; an engine keeps this struct of buffer pointers, and its
/// topology alive, so the block outlives every reader.
///
/// `@unchecked Sendable` invariant: the block is written only in `init`, before the
/// topology is shared, and only read afterwards; the topology frees it in `deinit`, when no
/// engine (each holds its topology) can read it any more.
struct TopologyTables: @unchecked Sendable {
    /// Per state, the facts a step reads.
    let hot: Slots<StateHot>
    /// A state's nested regions are `childRegions[regionStart ..< regionStart + regionCount]`.
    let childRegions: Slots<Int32>
    /// The sparse handler table's handlers (see `HandlerTable.list`).
    let handlerList: Slots<Int32>
    let handlers: Slots<HandlerNode>
    /// Per handler: the state its transition enters when it is a plain move between two
    /// sibling states (see `Topology.directTarget(of:)`), else -1.
    let directTargets: Slots<Int32>
    /// Per switch, ranges into `scopeRegions`, `planRegions` and `planStates`.
    let switches: Slots<SwitchHot>
    let scopeRegions: Slots<Int32>
    /// Per switch, the states it enters, in entry order, with their regions: switch `c`'s
    /// are `entryRegions/entryStates[entryStart[c] ..< entryStart[c + 1]]`, when
    /// `hasStaticEntry[c]`. A switch's entries are static unless it enters a region through
    /// an initial transition (SCXML's `<initial>`); a history target or a logging step
    /// makes them depend on the run too, which the step checks itself.
    let entryStart: Slots<Int32>
    let entryRegions: Slots<Int32>
    let entryStates: Slots<Int32>
    let hasStaticEntry: Slots<Bool>
    /// Per switch with a static entry: no state it enters has an enter block or anything
    /// else to start (timers, a task, a final state's completion), and the chart has no
    /// history default content, so entering is only setting regions and telling observers.
    let hasPlainEntry: Slots<Bool>
    /// Per switch: a plain entry (`hasPlainEntry`), no history target, and plain exits in
    /// every region of its scope (each of their states `StateHot.exitsPlainly`): taking it
    /// is leaving the scope, the content, and setting the entered regions (see
    /// `StatechartEngine.takePlainly(_:)`).
    let isPlainSwitch: Slots<Bool>
    /// Per region, its initial state.
    let regionInitial: Slots<Int32>
    /// Per region, the state that owns it (-1 for the root).
    let regionParents: Slots<Int32>
    /// `HandlerTable.pairEvents` and `pairHandlerStart`, for ``handlerRange(state:event:)``.
    let pairEvents: Slots<Int32>
    let pairHandlerStart: Slots<Int32>
    /// Per switch, the states it enters on the way to its targets, by region (`Switch.planRegions` and `planStates`), for `StatechartEngine.explicitChild(of:in:)`.
    let planRegions: Slots<Int32>
    let planStates: Slots<Int32>
    /// ``DispatchCandidates``: event `e`'s are `candidateRegions[candidateStart[e] ..< candidateStart[e + 1]]`.
    let candidateStart: Slots<Int32>
    let candidateRegions: Slots<Int32>
    /// The number of events `candidateStart` covers (one more entry than that).
    let candidateEventCount: Int

    private let block: UnsafeMutableRawPointer

    /// Copies of the tables, named as in ``Topology``.
    init(
        hot: [StateHot],
        childRegions: [Int32],
        handlers: [HandlerNode],
        handlerTable: HandlerTable,
        directTargets: [Int32],
        switches: [SwitchHot],
        scopeRegions: [Int32],
        entryStart: [Int32],
        entryRegions: [Int32],
        entryStates: [Int32],
        hasStaticEntry: [Bool],
        hasPlainEntry: [Bool],
        isPlainSwitch: [Bool],
        regionInitial: [Int32],
        regionParents: [Int32],
        planRegions: [Int32],
        planStates: [Int32],
        dispatch: DispatchCandidates
    ) {
        var layout = SlotLayout()
        let hotPlace = layout.reserve(StateHot.self, count: hot.count)
        let childRegionsPlace = layout.reserve(Int32.self, count: childRegions.count)
        let handlerListPlace = layout.reserve(Int32.self, count: handlerTable.list.count)
        let handlersPlace = layout.reserve(HandlerNode.self, count: handlers.count)
        let directTargetsPlace = layout.reserve(Int32.self, count: directTargets.count)
        let switchesPlace = layout.reserve(SwitchHot.self, count: switches.count)
        let scopeRegionsPlace = layout.reserve(Int32.self, count: scopeRegions.count)
        let entryStartPlace = layout.reserve(Int32.self, count: entryStart.count)
        let entryRegionsPlace = layout.reserve(Int32.self, count: entryRegions.count)
        let entryStatesPlace = layout.reserve(Int32.self, count: entryStates.count)
        let hasStaticEntryPlace = layout.reserve(Bool.self, count: hasStaticEntry.count)
        let hasPlainEntryPlace = layout.reserve(Bool.self, count: hasPlainEntry.count)
        let isPlainSwitchPlace = layout.reserve(Bool.self, count: isPlainSwitch.count)
        let regionInitialPlace = layout.reserve(Int32.self, count: regionInitial.count)
        let regionParentsPlace = layout.reserve(Int32.self, count: regionParents.count)
        let pairEventsPlace = layout.reserve(Int32.self, count: handlerTable.pairEvents.count)
        let pairHandlerStartPlace = layout.reserve(Int32.self, count: handlerTable.pairHandlerStart.count)
        let planRegionsPlace = layout.reserve(Int32.self, count: planRegions.count)
        let planStatesPlace = layout.reserve(Int32.self, count: planStates.count)
        let candidateStartPlace = layout.reserve(Int32.self, count: dispatch.start.count)
        let candidateRegionsPlace = layout.reserve(Int32.self, count: dispatch.regions.count)

        let block = layout.allocate()
        self.block = block
        self.hot = Slots(hotPlace, in: block, copying: hot)
        self.childRegions = Slots(childRegionsPlace, in: block, copying: childRegions)
        handlerList = Slots(handlerListPlace, in: block, copying: handlerTable.list)
        self.handlers = Slots(handlersPlace, in: block, copying: handlers)
        self.directTargets = Slots(directTargetsPlace, in: block, copying: directTargets)
        self.switches = Slots(switchesPlace, in: block, copying: switches)
        self.scopeRegions = Slots(scopeRegionsPlace, in: block, copying: scopeRegions)
        self.entryStart = Slots(entryStartPlace, in: block, copying: entryStart)
        self.entryRegions = Slots(entryRegionsPlace, in: block, copying: entryRegions)
        self.entryStates = Slots(entryStatesPlace, in: block, copying: entryStates)
        self.hasStaticEntry = Slots(hasStaticEntryPlace, in: block, copying: hasStaticEntry)
        self.hasPlainEntry = Slots(hasPlainEntryPlace, in: block, copying: hasPlainEntry)
        self.isPlainSwitch = Slots(isPlainSwitchPlace, in: block, copying: isPlainSwitch)
        self.regionInitial = Slots(regionInitialPlace, in: block, copying: regionInitial)
        self.regionParents = Slots(regionParentsPlace, in: block, copying: regionParents)
        pairEvents = Slots(pairEventsPlace, in: block, copying: handlerTable.pairEvents)
        pairHandlerStart = Slots(pairHandlerStartPlace, in: block, copying: handlerTable.pairHandlerStart)
        self.planRegions = Slots(planRegionsPlace, in: block, copying: planRegions)
        self.planStates = Slots(planStatesPlace, in: block, copying: planStates)
        candidateStart = Slots(candidateStartPlace, in: block, copying: dispatch.start)
        candidateRegions = Slots(candidateRegionsPlace, in: block, copying: dispatch.regions)
        candidateEventCount = dispatch.start.count - 1
    }

    /// Frees every buffer; called once, by the owning ``Topology``'s `deinit`.
    func release() {
        block.deallocate()
    }

    /// The slots in ``handlerList`` of the handlers `state` tries for `event`, in order:
    /// the state's event mask turns most unhandled events away, then its pairs (sorted by
    /// event, usually a few) are searched, halving long lists.
    @inline(__always)
    func handlerRange(state: Int32, event: Int32) -> Range<Int> {
        let node = hot[Int(state)]
        guard node.eventMask & (1 &<< (UInt64(truncatingIfNeeded: event) & 63)) != 0 else { return 0..<0 }
        var low = Int(node.pairStart)
        let end = low + Int(node.pairCount)
        // Halve a long list down to a few pairs: the first pair not before `event` stays
        // in `low ... high`.
        var high = end
        while high - low > 8 {
            let middle = (low + high) / 2
            if pairEvents[middle] < event { low = middle + 1 } else { high = middle }
        }
        while low < end {
            let candidate = pairEvents[low]
            if candidate == event { return Int(pairHandlerStart[low])..<Int(pairHandlerStart[low + 1]) }
            if candidate > event { break }
            low += 1
        }
        return 0..<0
    }
}
