extension FSM {
    /// What a built table leaves out: states the machine can never reach, states it can
    /// never leave, and events no state handles. A table can be valid (it built) and
    /// still have these; ask for the report in a test to catch them.
    public struct ValidationReport: CustomStringConvertible {
        /// States no chain of transitions reaches from the initial state. With a
        /// `CaseIterable` state type, includes the cases the table never names.
        public let unreachableStates: [State]
        /// States with no transition to another state (once entered, never left).
        public let deadEndStates: [State]
        /// Events no state handles. Known only for a `CaseIterable` event type: other
        /// event types can only name events the table already uses.
        public let unhandledEvents: [Event]

        /// Whether the report found nothing.
        public var isClean: Bool { unreachableStates.isEmpty && deadEndStates.isEmpty && unhandledEvents.isEmpty }

        /// One line per finding, or `no findings`.
        public var description: String {
            var lines: [String] = []
            if !unreachableStates.isEmpty { lines.append("unreachable states: \(unreachableStates.map { "\($0)" })") }
            if !deadEndStates.isEmpty { lines.append("states with no way out: \(deadEndStates.map { "\($0)" })") }
            if !unhandledEvents.isEmpty { lines.append("events never handled: \(unhandledEvents.map { "\($0)" })") }
            return lines.isEmpty ? "no findings" : lines.joined(separator: "\n")
        }
    }

    /// Analyses the built table: reachability from the initial state (any predicate
    /// values, any condition results), exits, and event coverage.
    public func validationReport() -> ValidationReport {
        let rows = built?.rows ?? []
        var states = table.states
        if let all = (State.self as? any CaseIterable.Type).map({ Self.allCases($0) }) {
            for case let state as State in all where !states.contains(state) { states.append(state) }
        }

        var successors: [State: Set<State>] = [:]
        for row in rows { successors[row.state, default: []].insert(row.nextState) }

        var reached: Set<State> = [initialState]
        var frontier = [initialState]
        while let state = frontier.popLast() {
            for next in successors[state] ?? [] where reached.insert(next).inserted { frontier.append(next) }
        }

        let deadEnds = states.filter { state in (successors[state] ?? []).allSatisfy { $0 == state } }

        var unhandled: [Event] = []
        if let all = (Event.self as? any CaseIterable.Type).map({ Self.allCases($0) }) {
            for case let event as Event in all where !rows.contains(where: { $0.event == event }) {
                unhandled.append(event)
            }
        }
        return ValidationReport(
            unreachableStates: states.filter { !reached.contains($0) },
            deadEndStates: deadEnds,
            unhandledEvents: unhandled
        )
    }

    private static func allCases<T: CaseIterable>(_ type: T.Type) -> [Any] {
        type.allCases.map { $0 }
    }
}
