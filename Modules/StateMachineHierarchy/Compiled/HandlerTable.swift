/// Which handlers a state tries for an event, in order, stored sparsely: only the
/// (state, event) pairs that have handlers take room, so a chart of many states and many
/// events costs what its transitions cost, not states x events.
///
/// State `s`'s pairs are `pairStart[s] ..< pairStart[s + 1]`, sorted by event; pair `p`
/// is event `pairEvents[p]`, whose handlers are `list[pairHandlerStart[p] ..< pairHandlerStart[p + 1]]`
/// in registration order. A step finds a pair through `StateHot` (see `TopologyTables.handlerRange`).
struct HandlerTable: Sendable {
    let pairStart: [Int32]
    let pairEvents: [Int32]
    let pairHandlerStart: [Int32]
    let list: [Int32]

    /// The table of `stateCount` states whose handler `h` belongs to state `sources[h]`,
    /// each listed under the events `listings` pair it with (in any order; a pair given twice
    /// is listed twice). Time and memory linear in the listings, but for sorting each state's.
    init(stateCount: Int, sources: [Int32], listings: [(handler: Int32, event: Int32)]) {
        var byState = [[(event: Int32, handler: Int32)]](repeating: [], count: stateCount)
        for listing in listings {
            byState[Int(sources[Int(listing.handler)])].append((listing.event, listing.handler))
        }
        var pairStart: [Int32] = [0]
        var pairEvents: [Int32] = []
        var pairHandlerStart: [Int32] = [0]
        var list: [Int32] = []
        pairStart.reserveCapacity(stateCount + 1)
        for var listings in byState {
            listings.sort { ($0.event, $0.handler) < ($1.event, $1.handler) }
            for (position, listing) in listings.enumerated() {
                if position > 0, listings[position - 1].event == listing.event {
                    list.append(listing.handler)
                    pairHandlerStart[pairHandlerStart.count - 1] += 1
                    continue
                }
                pairEvents.append(listing.event)
                list.append(listing.handler)
                pairHandlerStart.append(Int32(list.count))
            }
            pairStart.append(Int32(pairEvents.count))
        }
        self.pairStart = pairStart
        self.pairEvents = pairEvents
        self.pairHandlerStart = pairHandlerStart
        self.list = list
    }

    /// State `state`'s pairs.
    func pairs(of state: Int) -> Range<Int> {
        Int(pairStart[state])..<Int(pairStart[state + 1])
    }

    /// The slots in `list` of `state`'s handlers for `event` (at compile time; steps use
    /// `TopologyTables.handlerRange`).
    func handlers(of state: Int, for event: Int32) -> Range<Int> {
        guard let pair = pairs(of: state).first(where: { pairEvents[$0] == event }) else { return 0..<0 }
        return Int(pairHandlerStart[pair])..<Int(pairHandlerStart[pair + 1])
    }
}
