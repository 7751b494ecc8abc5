extension FSM {
    /// One row of the built table as the state graph (`StateMachineGraph`) reads it.
    package struct GraphRow {
        /// The state the row leaves.
        package let state: State
        /// The row's event.
        package let event: Event
        /// The predicate values the row names, in the order written.
        package let predicates: [any Predicate]
        /// The state the row enters (its own state for a row that stays).
        package let nextState: State
        /// Whether the row has a `condition { }`.
        package let isConditional: Bool
    }

    /// The rows of the built table (super states, `or:` lists and overrides applied), in table order; nil before `buildTable`.
    package var graphRows: [GraphRow]? {
        built.map { output in
            output.rows.map { row in
                GraphRow(
                    state: row.state,
                    event: row.event,
                    predicates: row.predicates.map(\.predicate),
                    nextState: row.nextState,
                    isConditional: !row.conditions.isEmpty
                )
            }
        }
    }

    /// Handles `event` as ``handleEvent(_:predicates:isolation:)-(_,[Predicate],_)`` does, and says
    /// whether a row fired (a row that stays in its state included).
    package func handleEventReportingFired(
        _ event: Event,
        predicates: [any Predicate],
        isolation: isolated (any Actor)? = #isolation
    ) async -> Bool {
        if let checker { checker.check("handleEvent", isolation) }
        guard let index = predicates.withUnsafeBufferPointer({ take(event, PredicateBuffer($0)) }) else { return false }
        if !fireWithoutSuspending(index, with: event) { await table.fire(index, with: event) }
        return true
    }

    /// The state the table starts in.
    package var graphInitialState: State { initialState }
}
