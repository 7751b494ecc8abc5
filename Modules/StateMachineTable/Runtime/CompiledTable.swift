/// A built table, in the form `handleEvent` reads: states and events as indices, one
/// cell per (state, event), and every transition as a position in flat arrays (its next
/// state, whether its actions are all synchronous, its conditions and its actions).
/// Immutable, and a class, so reading it costs one reference count, not one per array;
/// flat arrays of values, not an object per transition, so that firing a transition takes
/// no reference count either (see ``FSM/take(_:_:)``).
@usableFromInline
final class CompiledTable<State: FSMHashable, Event: FSMHashable> {
    @usableFromInline let states: [State]
    @usableFromInline let events: EventIndex<Event>
    @usableFromInline let cells: [Cell]
    /// Each transition's next state.
    @usableFromInline let next: [Int]
    /// Whether every action of each transition is synchronous, so firing it needs no `await`.
    @usableFromInline let isSync: [Bool]
    /// The `condition { }` blocks of transition `t` are at `conditionStarts[t]..<conditionStarts[t + 1]`.
    @usableFromInline let conditionStarts: [Int]
    @usableFromInline let conditions: [() -> Bool]
    /// What firing transition `t` runs, in order, at `actionStarts[t]..<actionStarts[t + 1]`:
    /// the transition's actions, then (on a state change, or always under `.executeAlways`)
    /// the exit actions of the state it leaves and the entry actions of the state it enters.
    /// Resolved once, when the table is built.
    @usableFromInline let actionStarts: [Int]
    @usableFromInline let actions: [ActionBody<Event>]
    @usableFromInline let groups: [PredicateGroup]
    @usableFromInline let predicates: PredicateIndex

    /// One transition as the compiler hands it over.
    struct Transition {
        let next: Int
        let firing: [ActionBody<Event>]
        let conditions: [() -> Bool]
    }

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
        transitions: [Transition],
        groups: [PredicateGroup],
        predicates: PredicateIndex
    ) {
        self.states = states
        self.events = events
        self.cells = cells
        next = transitions.map(\.next)
        isSync = transitions.map { $0.firing.allSatisfy(\.isSync) }
        conditionStarts = Self.starts(transitions.map(\.conditions.count))
        conditions = transitions.flatMap(\.conditions)
        actionStarts = Self.starts(transitions.map(\.firing.count))
        actions = transitions.flatMap(\.firing)
        self.groups = groups
        self.predicates = predicates
    }

    /// `[0, c0, c0 + c1, ...]`: where each of the lists of these counts starts when they are
    /// laid end to end, and where the last one ends.
    private static func starts(_ counts: [Int]) -> [Int] {
        var starts = [0]
        starts.reserveCapacity(counts.count + 1)
        for count in counts { starts.append(starts[starts.count - 1] + count) }
        return starts
    }

    /// The transition `event` fires from `state` given `predicates`, if any.
    @inlinable
    func transitionIndex(from state: Int, on event: Event, predicates passed: some PassedPredicates) -> Int? {
        guard let eventIndex = events.index(of: event) else { return nil }
        switch cells[state &* events.events.count &+ eventIndex] {
        case .none:
            return nil
        case .direct(let index):
            return index
        case .eager(let index):
            let found = Unmanaged.passUnretained(groups[index])._withUnsafeGuaranteedRef { group in
                group.eagerTransition(for: passed, predicates)
            }
            if let found { return found }
            return predicatedTransition(index, passed)
        case .predicated(let index):
            return predicatedTransition(index, passed)
        }
    }

    /// The transition of group `index` given the `passed` predicates (lazy groups, and eager
    /// ones when a relevant type is left out): through a key in a register when the group's
    /// rows are packed, through a buffer of the passed predicates' cases otherwise.
    @inlinable
    func predicatedTransition(_ index: Int, _ passed: some PassedPredicates) -> Int? {
        // Unretained, as in `FSM.take`: the table holds its groups for as long as it lives.
        Unmanaged.passUnretained(groups[index])._withUnsafeGuaranteedRef { group in
            if group.isPacked { return group.packedTransition(for: passed, predicates) }
            return withUnsafeTemporaryAllocation(of: Int.self, capacity: predicates.count) { cases in
                // -1 for every type: no value passed for it yet.
                for type in cases.indices { (cases.baseAddress! + type).initialize(to: -1) }
                predicates.fill(cases, from: passed)
                return group.transition(for: cases)
            }
        }
    }

    /// Whether every `condition { }` of transition `index` holds now.
    @inlinable
    func conditionsHold(_ index: Int) -> Bool {
        var position = conditionStarts[index]
        let end = conditionStarts[index &+ 1]
        while position < end {
            if !conditions[position]() { return false }
            position &+= 1
        }
        return true
    }

    /// Runs the actions of transition `index`, which are all synchronous, in order.
    @inlinable
    func fireSync(_ index: Int, with event: Event) {
        var position = actionStarts[index]
        let end = actionStarts[index &+ 1]
        while position < end {
            switch actions[position] {
            case .sync(let body): body()
            case .syncWithEvent(let body): body(event)
            case .async, .asyncWithEvent: preconditionFailure("fireSync on a transition with asynchronous actions")
            }
            position &+= 1
        }
    }

    /// Runs the actions of transition `index` in order, in the caller's isolation
    /// (asynchronous actions keep their own).
    @inlinable
    func fire(_ index: Int, with event: Event, isolation: isolated (any Actor)? = #isolation) async {
        for position in actionStarts[index]..<actionStarts[index &+ 1] {
            switch actions[position] {
            case .sync(let body): body()
            case .syncWithEvent(let body): body(event)
            case .async(let body): await body()
            case .asyncWithEvent(let body): await body(event)
            }
        }
    }
}
