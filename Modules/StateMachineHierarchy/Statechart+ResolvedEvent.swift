extension Statechart {
    /// An event name looked up once in a chart's event table, for ``Statechart/handle(_:payload:)-(Statechart<StateID,EventID,Payload>.ResolvedEvent,_)``
    /// and ``Statechart/send(_:payload:)-(Statechart<StateID,EventID,Payload>.ResolvedEvent,_)`` in hot loops: handling it skips the lookup
    /// (a hash of the name) that handling by name costs on every call.
    ///
    /// ```swift
    /// let next = try chart.resolve("next")
    /// for _ in 0..<1_000 { try chart.handle(next) }
    /// ```
    ///
    /// A resolved event belongs to the chart that resolved it; handed to another chart it
    /// is looked up again by ``name``, so it is never misread.
    public struct ResolvedEvent: Sendable, Hashable {
        /// The event's index in the chart's event table, -1 when no handler names it.
        @usableFromInline let index: Int32
        /// Whether the table holds the event as is (it has no name of its own for traces):
        /// the fast path tests this flag and never reads the names.
        @usableFromInline let isListed: Bool
        /// The engine of the chart that resolved it.
        @usableFromInline let chart: ObjectIdentifier
        /// The names, boxed so that copying a resolved event (in a client's loop, say) is one
        /// retain rather than a copy of the names through the generic type's value witnesses.
        @usableFromInline let names: Names

        /// The event's name.
        public var name: EventID { names.name }

        /// The name traces give the event when the table does not hold it as is (an
        /// unknown name, or one that prefix matching sends to another event's handlers).
        @usableFromInline var unlisted: String? { names.unlisted }

        /// The names of a resolved event; immutable.
        @usableFromInline
        final class Names: Sendable {
            let name: EventID
            let unlisted: String?

            init(name: EventID, unlisted: String?) {
                self.name = name
                self.unlisted = unlisted
            }
        }

        /// Two resolved events are equal when they are the same event of the same chart.
        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.index == rhs.index && lhs.chart == rhs.chart && lhs.name == rhs.name && lhs.unlisted == rhs.unlisted
        }

        /// Hashes the event's name, index and chart.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(index)
            hasher.combine(chart)
        }
    }

    /// Looks `name` up in the chart's event table once, for handling it many times.
    ///
    /// A name no handler uses resolves too (its events are unhandled, or match by prefix
    /// with ``StatechartOptions/EventMatching/prefix``).
    /// - Throws: ``StatechartError/emptyName(what:location:)`` when `name` is empty.
    public func resolve(_ name: EventID) throws(StatechartError) -> ResolvedEvent {
        let (index, unlisted) = try hooks.lookUp(name)
        return ResolvedEvent(
            index: index,
            isListed: unlisted == nil,
            chart: ObjectIdentifier(engine),
            names: ResolvedEvent.Names(name: name, unlisted: unlisted)
        )
    }
}
