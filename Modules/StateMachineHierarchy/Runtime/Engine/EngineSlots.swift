/// A fixed number of plain values the step reads all the time: the drainer's (one per
/// region, state or timer; the configuration, say) and the engine's copies of the
/// topology's hottest tables. A buffer rather than an array, because an array in a class's
/// property costs a retain, a release and a uniqueness check per write, and a bounds check
/// per read. It lives in its engine's ``EngineSlots`` block, which frees it; the drainer's
/// are drainer-confined like the rest of its state.
struct Slots<Element> {
    let buffer: UnsafeMutableBufferPointer<Element>

    subscript(position: Int) -> Element {
        get { buffer[position] }
        nonmutating set { buffer[position] = newValue }
    }

    var indices: Range<Int> { buffer.indices }

    /// The reserved part of `block`, holding a copy of `values`.
    init(_ place: SlotLayout.Place<Element>, in block: UnsafeMutableRawPointer, copying values: [Element]) {
        precondition(values.count == place.count, "a slot buffer was reserved for another count")
        buffer = place.buffer(in: block)
        _ = buffer.initialize(from: values)
    }

    /// The reserved part of `block`, every value `value`.
    init(_ place: SlotLayout.Place<Element>, in block: UnsafeMutableRawPointer, repeating value: Element) {
        buffer = place.buffer(in: block)
        buffer.initialize(repeating: value)
    }
}

/// Where each of an engine's ``Slots`` lies in one allocation: reserve every buffer, then
/// allocate the block and place each buffer at its reserved offset.
///
/// Only plain values (no references, no existentials) may be reserved, so the block is
/// freed with one deallocation and nothing to deinitialize: a buffer added to
/// ``EngineSlots`` is reserved and placed in its `init` and freed with the rest, so it
/// cannot be forgotten in `release()`.
struct SlotLayout {
    /// A reserved buffer: its offset in the block and its number of elements.
    struct Place<Element> {
        let offset: Int
        let count: Int

        /// The reserved buffer in `block` (bound to `Element`).
        func buffer(in block: UnsafeMutableRawPointer) -> UnsafeMutableBufferPointer<Element> {
            UnsafeMutableBufferPointer(
                start: (block + offset).bindMemory(to: Element.self, capacity: count),
                count: count
            )
        }
    }

    private(set) var byteCount = 0
    /// The strictest alignment reserved so far.
    private(set) var alignment = 1

    /// Reserves room for `count` values of `type`, aligned for it.
    mutating func reserve<Element>(_ type: Element.Type, count: Int) -> Place<Element> {
        precondition(_isPOD(Element.self), "slot buffers hold plain values only (they are never deinitialized)")
        let align = MemoryLayout<Element>.alignment
        let offset = (byteCount + align - 1) / align * align
        byteCount = offset + MemoryLayout<Element>.stride * count
        alignment = max(alignment, align)
        return Place(offset: offset, count: count)
    }

    /// The block for everything reserved (at least one byte).
    func allocate() -> UnsafeMutableRawPointer {
        .allocate(byteCount: max(byteCount, 1), alignment: alignment)
    }
}

/// Every fixed buffer of an engine, in one block: copies of the topology's tables the step
/// reads most (reading one is a load, with no array bounds check or buffer look-up; the
/// step's indices come from the topology itself), and the drainer's per-region, per-state
/// and per-timer values. Owned by its engine, which calls ``release()`` once, in `deinit`.
struct EngineSlots {
    // Copies of the topology's tables (see `Topology`).
    let hot: Slots<StateHot>
    let childRegions: Slots<Int32>
    let handlerList: Slots<Int32>
    let handlers: Slots<HandlerNode>
    let directTargets: Slots<Int32>
    let switches: Slots<SwitchHot>
    let scopeRegions: Slots<Int32>
    let entryStart: Slots<Int32>
    let entryRegions: Slots<Int32>
    let entryStates: Slots<Int32>
    let hasStaticEntry: Slots<Bool>
    let regionInitial: Slots<Int32>
    /// `Topology.handlerStart`, for `StatechartEngine.handlerRange(state:event:)`.
    let handlerStart: Slots<Int32>
    /// `Topology.planRegions` and `planStates`, for `StatechartEngine.explicitChild(of:in:)`.
    let planRegions: Slots<Int32>
    let planStates: Slots<Int32>

    // The drainer's values (drainer-confined: see `StatechartEngine`).
    /// Per region, its active state (-1 when inactive): the configuration.
    let current: Slots<Int32>
    /// While a history transition enters its owner: per region, the state to enter instead
    /// of the initial one (-1 for none).
    let restoreTargets: Slots<Int32>
    /// Per state, bumped on every entry: timers and task results carry the generation they
    /// were started in, and are dropped when it is no longer current.
    let generations: Slots<UInt64>
    /// Per delayed transition: its pending timer's deadline on the chart's clock, nil when
    /// none (the timers themselves are references, kept apart in the engine).
    let timerDeadlines: Slots<Duration?>

    private let block: UnsafeMutableRawPointer

    init(topology: Topology) {
        var layout = SlotLayout()
        let hot = layout.reserve(StateHot.self, count: topology.hot.count)
        let childRegions = layout.reserve(Int32.self, count: topology.childRegions.count)
        let handlerList = layout.reserve(Int32.self, count: topology.handlerList.count)
        let handlers = layout.reserve(HandlerNode.self, count: topology.handlers.count)
        let directTargets = layout.reserve(Int32.self, count: topology.directTargets.count)
        let switches = layout.reserve(SwitchHot.self, count: topology.switches.count)
        let scopeRegions = layout.reserve(Int32.self, count: topology.scopeRegions.count)
        let entryStart = layout.reserve(Int32.self, count: topology.entryStart.count)
        let entryRegions = layout.reserve(Int32.self, count: topology.entryRegions.count)
        let entryStates = layout.reserve(Int32.self, count: topology.entryStates.count)
        let hasStaticEntry = layout.reserve(Bool.self, count: topology.hasStaticEntry.count)
        let regionInitial = layout.reserve(Int32.self, count: topology.regionInitial.count)
        let handlerStart = layout.reserve(Int32.self, count: topology.handlerStart.count)
        let planRegions = layout.reserve(Int32.self, count: topology.planRegions.count)
        let planStates = layout.reserve(Int32.self, count: topology.planStates.count)
        let current = layout.reserve(Int32.self, count: topology.regions.count)
        let restoreTargets = layout.reserve(Int32.self, count: topology.regions.count)
        let generations = layout.reserve(UInt64.self, count: topology.states.count)
        let timerDeadlines = layout.reserve(Duration?.self, count: topology.timers.count)

        let block = layout.allocate()
        self.block = block
        self.hot = Slots(hot, in: block, copying: topology.hot)
        self.childRegions = Slots(childRegions, in: block, copying: topology.childRegions)
        self.handlerList = Slots(handlerList, in: block, copying: topology.handlerList)
        self.handlers = Slots(handlers, in: block, copying: topology.handlers)
        self.directTargets = Slots(directTargets, in: block, copying: topology.directTargets)
        self.switches = Slots(switches, in: block, copying: topology.switches)
        self.scopeRegions = Slots(scopeRegions, in: block, copying: topology.scopeRegions)
        self.entryStart = Slots(entryStart, in: block, copying: topology.entryStart)
        self.entryRegions = Slots(entryRegions, in: block, copying: topology.entryRegions)
        self.entryStates = Slots(entryStates, in: block, copying: topology.entryStates)
        self.hasStaticEntry = Slots(hasStaticEntry, in: block, copying: topology.hasStaticEntry)
        self.regionInitial = Slots(regionInitial, in: block, copying: topology.regionInitial)
        self.handlerStart = Slots(handlerStart, in: block, copying: topology.handlerStart)
        self.planRegions = Slots(planRegions, in: block, copying: topology.planRegions)
        self.planStates = Slots(planStates, in: block, copying: topology.planStates)
        self.current = Slots(current, in: block, repeating: -1)
        self.restoreTargets = Slots(restoreTargets, in: block, repeating: -1)
        self.generations = Slots(generations, in: block, repeating: 0)
        self.timerDeadlines = Slots(timerDeadlines, in: block, repeating: nil)
    }

    /// Frees every buffer. Their values are plain (see ``SlotLayout``), so nothing is
    /// deinitialized.
    func release() {
        block.deallocate()
    }
}
