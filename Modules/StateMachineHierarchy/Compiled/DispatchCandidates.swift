/// Per event, the regions whose states have handlers for it, so that TBStateMachine's
/// dispatch can start from the few regions an event concerns instead of walking the active
/// configuration down from the root.
///
/// Event `e`'s regions are `regions[start[e] ..< start[e + 1]]`, in region order, each
/// once. A region has one active state at a time: when exactly one of these regions is
/// active with an active state that has handlers for the event, that state is the only
/// active state with handlers for it, so the recursive dispatch would try its handlers and
/// no others, and the step tries them directly (see `StatechartEngine.dispatch(event:)`).
/// Time and memory linear in the handler table's (state, event) pairs and the events.
struct DispatchCandidates: Sendable {
    let start: [Int32]
    let regions: [Int32]

    /// The candidate regions of `table`, whose state `s` lives in region `parents[s]`, for
    /// events `0 ..< eventCount` (and any event a pair names beyond them).
    init(table: HandlerTable, parents: [Int32], regionCount: Int, eventCount: Int) {
        let events = max(eventCount, Int(table.pairEvents.max() ?? -1) + 1)
        // Each pair's region, grouped by event (a counting sort), once per event.
        var pairCount = [Int32](repeating: 0, count: events + 1)
        for event in table.pairEvents { pairCount[Int(event) + 1] += 1 }
        for event in 0..<events { pairCount[event + 1] += pairCount[event] }
        var next = pairCount
        var pairRegions = [Int32](repeating: -1, count: table.pairEvents.count)
        for state in parents.indices {
            for pair in table.pairs(of: state) {
                let event = Int(table.pairEvents[pair])
                pairRegions[Int(next[event])] = parents[state]
                next[event] += 1
            }
        }
        var start: [Int32] = [0]
        start.reserveCapacity(events + 1)
        var regions: [Int32] = []
        // The last event each region was listed for, to list it once per event.
        var listedFor = [Int32](repeating: -1, count: regionCount)
        for event in 0..<events {
            let first = regions.count
            for slot in Int(pairCount[event])..<Int(pairCount[event + 1]) {
                let region = pairRegions[slot]
                guard listedFor[Int(region)] != Int32(event) else { continue }
                listedFor[Int(region)] = Int32(event)
                regions.append(region)
            }
            regions[first...].sort()
            start.append(Int32(regions.count))
        }
        self.start = start
        self.regions = regions
    }
}
