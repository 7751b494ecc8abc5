extension Statechart {
    /// Every state of the chart, in document order (depth first, regions in index order).
    public var states: [StateID] { model.ids }

    /// Every event some handler of the chart reacts to or some state defers, in the order
    /// the chart first declares it (eventless, delayed and done transitions have no event).
    public var events: [EventID] { model.eventIDs }

    /// The events that an active state has a handler for, as of the last completed step,
    /// in the order of ``events``. Guards are not evaluated (they may have side effects),
    /// so a listed event may still be unhandled. Empty when the chart is not running.
    public var acceptedEvents: [EventID] {
        let active = activeStates.compactMap { model.stateIndex[$0] }
        guard !active.isEmpty else { return [] }
        return model.eventIDs.indices.filter { event in
            active.contains { !topology.handlerRange(state: $0, event: Int32(event)).isEmpty }
        }.map { model.eventIDs[$0] }
    }
}
