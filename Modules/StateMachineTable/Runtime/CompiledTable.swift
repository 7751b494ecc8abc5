/// A built table, in the form `handleEvent` reads: states and events as indices, one
/// cell per (state, event), transitions with their actions resolved. Immutable, and a
/// class, so reading it costs one reference count, not one per array.
@usableFromInline
final class CompiledTable<State: FSMHashable, Event: FSMHashable> {
    @usableFromInline let states: [State]
    @usableFromInline let events: EventIndex<Event>
    @usableFromInline let cells: [Cell]
    @usableFromInline let transitions: [CompiledTransition<Event>]
    @usableFromInline let groups: [PredicateGroup]
    @usableFromInline let predicates: PredicateIndex

    /// The table before `buildTable`: only the initial state, nothing handled.
    convenience init(initialState: State) {
        self.init(
            states: [initialState],
            events: EventIndex(),
            cells: [],
            transitions: [],
            groups: [],
            predicates: PredicateIndex(types: [])
        )
    }

    init(
        states: [State],
        events: EventIndex<Event>,
        cells: [Cell],
        transitions: [CompiledTransition<Event>],
        groups: [PredicateGroup],
        predicates: PredicateIndex
    ) {
        self.states = states
        self.events = events
        self.cells = cells
        self.transitions = transitions
        self.groups = groups
        self.predicates = predicates
    }

    /// The transition `event` fires from `state` given `predicates`, if any.
    @inlinable
    func transition(
        from state: Int,
        on event: Event,
        predicates passed: [any Predicate]
    ) -> CompiledTransition<Event>? {
        guard let eventIndex = events.index(of: event) else { return nil }
        switch cells[state &* events.events.count &+ eventIndex] {
        case .none:
            return nil
        case .direct(let index):
            return transitions[index]
        case .predicated(let index):
            let group = groups[index]
            let found = withUnsafeTemporaryAllocation(of: Int.self, capacity: predicates.count) { cases in
                cases.initialize(repeating: -1)
                predicates.fill(cases, from: passed)
                return group.transition(for: cases)
            }
            return found.map { transitions[$0] }
        }
    }
}
