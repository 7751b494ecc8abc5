/// A transition ready to fire: everything resolved to indices and typed actions.
@usableFromInline
struct CompiledTransition<Event: FSMHashable> {
    @usableFromInline let next: Int
    @usableFromInline let actions: [ActionBody<Event>]
    @usableFromInline let conditions: [() -> Bool]
}

/// What a (state, event) pair leads to.
@usableFromInline
enum Cell {
    /// The table has no row for the pair.
    case none
    /// One row that names no predicates: the transition's index.
    case direct(Int)
    /// Rows that name predicates: the index of their ``PredicateGroup``.
    case predicated(Int)
}

/// The rows of one (state, event) pair that name predicates.
@usableFromInline
struct PredicateGroup {
    /// For each predicate type of the table, its multiplier in ``dense``; 0 when no row
    /// of the group names the type.
    @usableFromInline let strides: [Int]
    /// The predicate types some row of the group names.
    @usableFromInline let relevant: [Int]
    /// Eager tables: the winning transition for every combination of the relevant types'
    /// cases (-1 for none). Empty for lazy tables.
    @usableFromInline let dense: [Int32]
    /// Every row as (type, case) constraints, most specific first, for lazy lookup and for
    /// calls that leave out a relevant predicate type.
    @usableFromInline let rows: [(constraints: [(type: Int, case: Int)], transition: Int)]

    /// The transition for the given case of each predicate type (-1 where not passed).
    @inlinable
    func transition(for cases: UnsafeMutableBufferPointer<Int>) -> Int? {
        if !dense.isEmpty {
            var offset = 0
            var complete = true
            for type in relevant {
                let value = cases[type]
                if value < 0 {
                    complete = false
                    break
                }
                offset &+= value &* strides[type]
            }
            if complete {
                let found = dense[offset]
                return found < 0 ? nil : Int(found)
            }
        }
        return scan(cases)
    }

    @usableFromInline
    func scan(_ cases: UnsafeMutableBufferPointer<Int>) -> Int? {
        rows.first { row in row.constraints.allSatisfy { cases[$0.type] == $0.case } }?.transition
    }
}

/// A built table, in the form `handleEvent` reads: states and events as indices, one
/// cell per (state, event), typed actions, entry and exit actions per state.
@usableFromInline
struct CompiledTable<State: FSMHashable, Event: FSMHashable> {
    @usableFromInline var states: [State]
    @usableFromInline var events: EventIndex<Event>
    @usableFromInline var cells: [Cell]
    @usableFromInline var transitions: [CompiledTransition<Event>]
    @usableFromInline var groups: [PredicateGroup]
    @usableFromInline var onEntry: [[ActionBody<Event>]]
    @usableFromInline var onExit: [[ActionBody<Event>]]
    @usableFromInline var predicates: PredicateIndex

    /// The table before `buildTable`: only the initial state, nothing handled.
    init(initialState: State) {
        states = [initialState]
        events = EventIndex()
        cells = []
        transitions = []
        groups = []
        onEntry = [[]]
        onExit = [[]]
        predicates = PredicateIndex(types: [])
    }

    init(
        states: [State],
        events: EventIndex<Event>,
        cells: [Cell],
        transitions: [CompiledTransition<Event>],
        groups: [PredicateGroup],
        onEntry: [[ActionBody<Event>]],
        onExit: [[ActionBody<Event>]],
        predicates: PredicateIndex
    ) {
        self.states = states
        self.events = events
        self.cells = cells
        self.transitions = transitions
        self.groups = groups
        self.onEntry = onEntry
        self.onExit = onExit
        self.predicates = predicates
    }
}
