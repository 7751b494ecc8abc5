/// The drainer's fixed buffers, in one block: per region, per state and per timer values
/// (drainer-confined: see `StatechartEngine`). The topology's tables the step reads are
/// shared by every engine of a chart, in ``TopologyTables``. Owned by its engine, which
/// calls ``release()`` once, in `deinit`.
struct EngineSlots {
    /// Per region (`regionCount` of them), its active state (-1 when inactive): the configuration.
    let current: Slots<Int32>
    let regionCount: Int
    /// While a history transition enters its owner: per region, the state to enter instead
    /// of the initial one (-1 for none).
    let restoreTargets: Slots<Int32>
    /// Per state, bumped on every entry: timers and task results carry the generation they
    /// were started in, and are dropped when it is no longer current.
    let generations: Slots<UInt64>
    /// Per delayed transition (`timerCount` of them): its pending timer's deadline on the
    /// chart's clock, nil when none (the timers themselves are references, kept apart in
    /// the engine).
    let timerDeadlines: Slots<Duration?>
    let timerCount: Int
    /// Per join source (join `j`'s are `joinArrived[joinStart[j] ..< joinStart[j + 1]]`):
    /// whether it has arrived (`JoinSemantics.rememberArrivals`); and per join, how many have.
    let joinArrived: Slots<Bool>
    let joinStart: Slots<Int32>
    let joinArrivals: Slots<Int32>
    /// Per history, whether it has a record (its owner exited since the chart started); and
    /// per region it remembers (`Topology.historyRegions`'s slots), the state recorded.
    let historyRecorded: Slots<Bool>
    let historyStates: Slots<Int32>

    private let block: UnsafeMutableRawPointer

    init(topology: Topology) {
        var layout = SlotLayout()
        let current = layout.reserve(Int32.self, count: topology.regions.count)
        let restoreTargets = layout.reserve(Int32.self, count: topology.regions.count)
        let generations = layout.reserve(UInt64.self, count: topology.states.count)
        let timerDeadlines = layout.reserve(Duration?.self, count: topology.timers.count)
        let joinArrived = layout.reserve(Bool.self, count: topology.joins.reduce(0) { $0 + $1.sourceCount })
        // None for a chart without joins, whose block then is no larger than before joins
        // moved into it (the allocator's size classes count in the chart's memory).
        let joinStart = layout.reserve(Int32.self, count: topology.joins.isEmpty ? 0 : topology.joins.count + 1)
        let joinArrivals = layout.reserve(Int32.self, count: topology.joins.count)
        let historyRecorded = layout.reserve(Bool.self, count: topology.histories.count)
        let historyStates = layout.reserve(Int32.self, count: topology.historyRegions.count)

        let block = layout.allocate()
        self.block = block
        self.current = Slots(current, in: block, repeating: -1)
        regionCount = topology.regions.count
        timerCount = topology.timers.count
        self.restoreTargets = Slots(restoreTargets, in: block, repeating: -1)
        self.generations = Slots(generations, in: block, repeating: 0)
        self.timerDeadlines = Slots(timerDeadlines, in: block, repeating: nil)
        self.joinArrived = Slots(joinArrived, in: block, repeating: false)
        self.joinStart = Slots(joinStart, in: block, repeating: 0)
        self.joinArrivals = Slots(joinArrivals, in: block, repeating: 0)
        self.historyRecorded = Slots(historyRecorded, in: block, repeating: false)
        self.historyStates = Slots(historyStates, in: block, repeating: -1)
        // Filled in place: a temporary array here would be one more allocation per chart,
        // whose freed chunk stays among the chart's memory.
        var sources: Int32 = 0
        for (join, node) in topology.joins.enumerated() {
            sources += Int32(node.sourceCount)
            self.joinStart[join + 1] = sources
        }
    }

    /// The slots in ``joinArrived`` of `join`'s sources.
    @inline(__always)
    func sources(ofJoin join: Int) -> Range<Int> {
        Int(joinStart[join])..<Int(joinStart[join &+ 1])
    }

    /// Frees every buffer. Their values are plain (see ``SlotLayout``), so nothing is
    /// deinitialized.
    func release() {
        block.deallocate()
    }
}
