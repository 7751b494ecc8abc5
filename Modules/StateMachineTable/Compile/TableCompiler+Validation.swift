extension TableCompiler {
    /// Rows with the same trigger (state, event, predicates): duplicates when they go to
    /// the same state, a logical clash otherwise. `rows` share a state and event.
    static func duplicatesAndClashes(in rows: [Row<State, Event>]) -> [any TableProblem] {
        var problems: [any TableProblem] = []
        var seen = Set<Int>()
        for first in rows.indices where !seen.contains(first) {
            let same = rows.indices.filter { $0 >= first && rows[$0].predicateSet == rows[first].predicateSet }
            guard same.count > 1 else { continue }
            seen.formUnion(same)
            let statements = same.map { rows[$0].statement }
            let nextStates = Set(same.map { rows[$0].nextState })
            if nextStates.count == 1 {
                problems.append(DuplicatesError(statements: statements))
            } else {
                let written = Set(statements.map(\.event))
                problems.append(ClashError(statements: statements, involvesWildcard: written.count > 1))
            }
        }
        return problems
    }

    /// Rows of equal rank naming different predicates that both apply to some
    /// combination of predicate values no more specific row claims. `rows` share a
    /// state and event. Eager and lazy tables run the same check, so they accept the
    /// same tables.
    static func implicitClashes(in rows: [Row<State, Event>], types: [PredicateType]) -> [any TableProblem] {
        guard rows.count > 1 else { return [] }
        let typeIndex = Dictionary(types.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        let relevant = Set(rows.flatMap { $0.predicates.map(\.type) })
        var problems: [any TableProblem] = []
        for a in rows.indices {
            for b in rows.indices where b > a && rows[a].rank == rows[b].rank {
                let left = rows[a].predicateSet
                let right = rows[b].predicateSet
                guard left != right, compatible(left, right) else { continue }
                let both = left.union(right)
                let higher = rows.filter { $0.rank > rows[a].rank }.map(\.predicateSet)
                let free = relevant.subtracting(both.map(\.type)).compactMap { typeIndex[$0] }.sorted()
                if let uncovered = firstUncovered(both, free: free, types: types, higher: higher) {
                    problems.append(
                        ImplicitClashError(
                            statements: [rows[a].statement, rows[b].statement],
                            combination: uncovered.map(\.description).sorted()
                        )
                    )
                }
            }
        }
        return problems
    }

    private static func compatible(_ left: Set<PredicateValue>, _ right: Set<PredicateValue>) -> Bool {
        !left.contains { value in right.contains { $0.type == value.type && $0 != value } }
    }

    /// The first combination extending `base` over the `free` types that no `higher`
    /// row covers, or `nil` when they cover all of them.
    private static func firstUncovered(
        _ base: Set<PredicateValue>,
        free: [Int],
        types: [PredicateType],
        higher: [Set<PredicateValue>]
    ) -> [PredicateValue]? {
        let baseTypes = Set(base.map(\.type))
        let candidates = higher.filter { row in row.allSatisfy { !baseTypes.contains($0.type) || base.contains($0) } }
        if candidates.isEmpty { return Array(base) }
        var counter = [Int](repeating: 0, count: free.count)
        while true {
            var combination = base
            for (position, type) in free.enumerated() {
                combination.insert(types[type].value(at: counter[position]))
            }
            if !candidates.contains(where: { $0.isSubset(of: combination) }) { return Array(combination) }
            var position = 0
            while position < free.count {
                counter[position] += 1
                if counter[position] < types[free[position]].cases.count { break }
                counter[position] = 0
                position += 1
            }
            if position == free.count { return nil }
        }
    }

    /// Repeated problems (a super state adopted twice reports its own problems twice)
    /// are reported once.
    static func removingRepeats(_ problems: [any TableProblem]) -> [any TableProblem] {
        var seen = Set<String>()
        return problems.filter { seen.insert($0.description).inserted }
    }
}

extension PredicateType {
    func value(at index: Int) -> PredicateValue {
        // `cases` holds the type's own values, so the cast back always succeeds.
        PredicateValue(cases[index].base as! any Predicate)
    }
}
