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
        /// The event's name.
        public let name: EventID
        /// The event's index in the chart's event table, -1 when no handler names it.
        @usableFromInline let index: Int32
        /// The name traces give the event when the table does not hold it as is (an
        /// unknown name, or one that prefix matching sends to another event's handlers).
        @usableFromInline let unlisted: String?
        /// The engine of the chart that resolved it.
        @usableFromInline let chart: ObjectIdentifier
    }

    /// Looks `name` up in the chart's event table once, for handling it many times.
    ///
    /// A name no handler uses resolves too (its events are unhandled, or match by prefix
    /// with ``StatechartOptions/EventMatching/prefix``).
    /// - Throws: ``StatechartError/emptyName(what:location:)`` when `name` is empty.
    public func resolve(_ name: EventID) throws(StatechartError) -> ResolvedEvent {
        let (index, unlisted) = try hooks.lookUp(name)
        return ResolvedEvent(name: name, index: index, unlisted: unlisted, chart: ObjectIdentifier(engine))
    }
}
