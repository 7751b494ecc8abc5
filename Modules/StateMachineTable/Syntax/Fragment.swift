/// Where a row goes: a named state, or "stay" for `then()`.
enum NextState<State: FSMHashable>: Hashable {
    case state(State)
    case stay
}

/// A row of the table while it is being written: the syntax fills its parts in as the
/// pipes and blocks around it are evaluated. The type system guarantees each part is
/// set at most once (a `when` block cannot contain another `when`).
struct PartialRow<State: FSMHashable, Event: FSMHashable> {
    var events: [Event] = []
    var next: NextState<State>?
    /// An OR of ANDs: `matching(A.x, or: A.y, and: B.x)` is `[[A.x, B.x], [A.y, B.x]]`.
    var matches: [[PredicateValue]] = [[]]
    var matchLocations: [StatementLocation] = []
    var conditions: [() -> Bool] = []
    var actions: [AnyAction] = []
    var isOverride = false
    var locations: [StatementLocation] = []
}

/// The value every statement and block evaluates to: its rows, plus the problems found
/// while writing them (reported by `buildTable`, all at once).
struct Fragment<State: FSMHashable, Event: FSMHashable> {
    var rows: [PartialRow<State, Event>] = []
    var problems: [any TableProblem] = []

    init(rows: [PartialRow<State, Event>] = [], problems: [any TableProblem] = []) {
        self.rows = rows
        self.problems = problems
    }

    init(_ row: PartialRow<State, Event>) {
        rows = [row]
    }

    init(joining fragments: [Fragment]) {
        for fragment in fragments {
            rows += fragment.rows
            problems += fragment.problems
        }
    }

    /// Applies a block's context to every row in it; an empty block is a problem.
    func inBlock(
        _ name: @autoclosure () -> String,
        at location: StatementLocation,
        _ apply: (inout PartialRow<State, Event>) -> Void
    ) -> Fragment {
        var result = self
        if rows.isEmpty && problems.isEmpty {
            result.problems.append(EmptyBlockError(block: name(), location: location))
        }
        for index in result.rows.indices {
            apply(&result.rows[index])
        }
        return result
    }

    /// Adds a context `matching` to every row (nested matchings are ANDed).
    func matching(_ context: PartialRow<State, Event>, blockName: String, at location: StatementLocation) -> Fragment {
        var result = inBlock(blockName, at: location) { _ in }
        var problems: [any TableProblem] = []
        for index in result.rows.indices {
            let row = result.rows[index]
            let combined = MatchAlgebra.and(
                context.matches,
                context.matchLocations,
                row.matches,
                row.matchLocations,
                problems: &problems
            )
            result.rows[index].matches = combined
            result.rows[index].matchLocations = context.matchLocations + row.matchLocations
            result.rows[index].conditions = context.conditions + row.conditions
            result.rows[index].locations = context.locations + row.locations
        }
        result.problems += problems
        return result
    }
}

/// ANDing and ORing of predicate lists, reporting impossible or repeated predicates.
enum MatchAlgebra {
    /// `matching(first, or: others..., and: all...)` as an OR of ANDs.
    static func statement(
        first: any Predicate,
        or others: [any Predicate],
        and all: [any Predicate],
        at location: StatementLocation,
        problems: inout [any TableProblem]
    ) -> [[PredicateValue]] {
        var alternatives: [PredicateValue] = []
        for value in ([first] + others).map(PredicateValue.init) {
            if alternatives.contains(value) {
                problems.append(DuplicatePredicateError(predicate: value.description, locations: [location]))
            } else {
                alternatives.append(value)
            }
        }
        let conjunction = all.map(PredicateValue.init)
        return and(alternatives.map { [$0] }, [location], [conjunction], [], problems: &problems)
    }

    /// Every pairing of the two OR lists, each pair ANDed; impossible pairs are
    /// reported and dropped.
    static func and(
        _ lhs: [[PredicateValue]],
        _ lhsLocations: [StatementLocation],
        _ rhs: [[PredicateValue]],
        _ rhsLocations: [StatementLocation],
        problems: inout [any TableProblem]
    ) -> [[PredicateValue]] {
        let locations = Array(Set(lhsLocations + rhsLocations)).sorted { ($0.file, $0.line) < ($1.file, $1.line) }
        var result: [[PredicateValue]] = []
        for left in lhs {
            for right in rhs {
                var merged = left
                var possible = true
                for value in right {
                    if merged.contains(value) {
                        problems.append(DuplicatePredicateError(predicate: value.description, locations: locations))
                    } else if let clash = merged.first(where: { $0.type == value.type }) {
                        problems.append(
                            ConflictingPredicatesError(
                                predicates: [clash.description, value.description],
                                locations: locations
                            )
                        )
                        possible = false
                    } else {
                        merged.append(value)
                    }
                }
                if possible && !result.contains(where: { Set($0) == Set(merged) }) {
                    result.append(merged)
                }
            }
        }
        return result
    }
}
