/// A transition ready to fire: everything resolved to indices and typed actions.
/// A class, so `handleEvent` takes one reference instead of copying its arrays.
@usableFromInline
final class CompiledTransition<Event: FSMHashable> {
    @usableFromInline let next: Int
    /// What firing runs, in order: the transition's actions, then (on a state change,
    /// or always under `.executeAlways`) the exit actions of the state it leaves and the
    /// entry actions of the state it enters. Resolved once, when the table is built.
    @usableFromInline let firing: [ActionBody<Event>]
    /// Whether every action in ``firing`` is synchronous, so firing needs no `await`.
    @usableFromInline let isSync: Bool
    @usableFromInline let conditions: [() -> Bool]

    init(next: Int, firing: [ActionBody<Event>], conditions: [() -> Bool]) {
        self.next = next
        self.firing = firing
        self.conditions = conditions
        isSync = firing.allSatisfy(\.isSync)
    }

    /// Whether every `condition { }` of the row holds now.
    @inlinable
    func conditionsHold() -> Bool {
        for condition in conditions where !condition() { return false }
        return true
    }
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
final class PredicateGroup {
    /// For each predicate type of the table, its multiplier in ``dense``; 0 when no row
    /// of the group names the type.
    @usableFromInline let strides: [Int]
    /// The predicate types some row of the group names.
    @usableFromInline let relevant: [Int]
    /// Eager tables: the winning transition for every combination of the relevant types'
    /// cases (-1 for none). Empty for lazy tables.
    @usableFromInline let dense: [Int32]
    /// Every row, most specific first, for lazy lookup and for calls that leave out a
    /// relevant predicate type: row `r` has the (type, case) constraints at positions
    /// `rowStarts[r]..<rowStarts[r + 1]` of ``constraintTypes`` and ``constraintCases``,
    /// and fires ``rowTransitions``[r]. Flat arrays, so a scan touches no reference counts.
    @usableFromInline let rowStarts: [Int]
    @usableFromInline let constraintTypes: [Int]
    @usableFromInline let constraintCases: [Int]
    @usableFromInline let rowTransitions: [Int]

    init(
        strides: [Int],
        relevant: [Int],
        dense: [Int32],
        rows: [(constraints: [(type: Int, case: Int)], transition: Int)]
    ) {
        self.strides = strides
        self.relevant = relevant
        self.dense = dense
        var starts = [0]
        for row in rows { starts.append(starts.last! + row.constraints.count) }
        rowStarts = starts
        constraintTypes = rows.flatMap { $0.constraints.map(\.type) }
        constraintCases = rows.flatMap { $0.constraints.map(\.case) }
        rowTransitions = rows.map(\.transition)
    }

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

    /// The most specific row whose predicates were all passed.
    @inlinable
    func scan(_ cases: UnsafeMutableBufferPointer<Int>) -> Int? {
        var row = 0
        rowLoop: while row < rowTransitions.count {
            var position = rowStarts[row]
            let end = rowStarts[row &+ 1]
            while position < end {
                if cases[constraintTypes[position]] != constraintCases[position] {
                    row &+= 1
                    continue rowLoop
                }
                position &+= 1
            }
            return rowTransitions[row]
        }
        return nil
    }
}

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
    func transition(from state: Int, on event: Event, predicates passed: [any Predicate]) -> CompiledTransition<Event>? {
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
