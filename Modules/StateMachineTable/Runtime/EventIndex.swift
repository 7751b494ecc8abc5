/// Finds an event's position in the table. Small tables compare with `==` in order
/// (cheaper than hashing a few cases); large ones hash. Both go through `==`, so an
/// `EventWithValues` event written with `.any` finds every value of its case.
@usableFromInline
struct EventIndex<Event: FSMHashable> {
    @usableFromInline let events: [Event]
    @usableFromInline let positions: [Event: Int]?

    /// Up to this many events, a linear scan beats hashing.
    static var linearLimit: Int { 16 }

    init() {
        events = []
        positions = nil
    }

    /// Indexes `events`, which are distinct under `==`.
    init(_ events: [Event]) {
        self.events = events
        positions =
            events.count > Self.linearLimit
            ? Dictionary(events.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            : nil
    }

    @inlinable
    func index(of event: Event) -> Int? {
        if let positions { return positions[event] }
        var index = 0
        while index < events.count {
            if events[index] == event { return index }
            index &+= 1
        }
        return nil
    }
}
