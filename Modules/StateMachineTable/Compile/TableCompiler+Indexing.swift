extension TableCompiler {
    /// Every state the table names, the initial state first.
    static func states(initial: State, rows: [Row<State, Event>], defined: [State]) -> [State] {
        var list = [initial]
        var seen: Set<State> = [initial]
        for state in defined + rows.flatMap({ [$0.state, $0.nextState] }) where seen.insert(state).inserted {
            list.append(state)
        }
        return list
    }

    /// The predicate types the table names, in order of first use.
    static func predicateTypes(in rows: [Row<State, Event>]) -> [PredicateType] {
        var types: [PredicateType] = []
        var seen = Set<ObjectIdentifier>()
        for row in rows {
            for value in row.predicates where seen.insert(value.type).inserted {
                types.append(PredicateType(of: value.predicate))
            }
        }
        return types
    }

    /// The group of a (state, event) whose rows name predicates. Eager tables precompute
    /// the winner of every combination: rows are laid down least specific first so more
    /// specific rows overwrite them.
    static func predicateGroup(
        _ members: [Int],
        rows: [Row<State, Event>],
        types: [PredicateType],
        eager: Bool
    ) -> PredicateGroup {
        let typeIndex = Dictionary(types.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        let constraints = members.map { member in
            rows[member].predicates.map { value in
                let type = typeIndex[value.type]!
                return (type: type, case: types[type].caseIndex[value.value]!)
            }
        }
        let relevant = Set(constraints.flatMap { $0.map(\.type) }).sorted()
        var strides = [Int](repeating: 0, count: types.count)
        var size = 1
        for type in relevant {
            strides[type] = size
            size *= types[type].cases.count
        }
        let ranked = zip(constraints, members)
            .map { (constraints: $0, transition: $1) }
            .sorted { $0.constraints.count > $1.constraints.count }

        // Each combination's winner as its position in `ranked` plus one (0 for none).
        var dense: [Int32] = []
        if eager {
            dense = [Int32](repeating: 0, count: size)
            for (position, row) in ranked.enumerated().reversed() {
                let fixed = Dictionary(
                    row.constraints.map { ($0.type, $0.case) },
                    uniquingKeysWith: { first, _ in first }
                )
                let free = relevant.filter { fixed[$0] == nil }
                let base = fixed.reduce(0) { $0 + $1.value * strides[$1.key] }
                var counter = [Int](repeating: 0, count: free.count)
                while true {
                    var offset = base
                    for (position, type) in free.enumerated() { offset += counter[position] * strides[type] }
                    dense[offset] = Int32(position + 1)
                    var position = 0
                    while position < free.count {
                        counter[position] += 1
                        if counter[position] < types[free[position]].cases.count { break }
                        counter[position] = 0
                        position += 1
                    }
                    if position == free.count { break }
                }
            }
        }
        return PredicateGroup(strides: strides, relevant: relevant, dense: dense, rows: ranked)
    }

    /// Types every action for this table's `Event`, reporting actions made for another.
    static func typedActions(
        rows: [Row<State, Event>],
        onEntry: [State: [AnyAction]],
        onExit: [State: [AnyAction]],
        problems: inout [any TableProblem]
    ) -> (rows: [[ActionBody<Event>]], onEntry: [State: [ActionBody<Event>]], onExit: [State: [ActionBody<Event>]]) {
        func typed(_ actions: [AnyAction], at location: StatementLocation) -> [ActionBody<Event>] {
            actions.compactMap { action in
                guard let body = ActionBody<Event>(action) else {
                    problems.append(
                        MismatchedTypesError(
                            detail: "an action takes an event of another type than \(Event.self)",
                            location: location
                        )
                    )
                    return nil
                }
                return body
            }
        }
        let rowActions = rows.map { typed($0.actions, at: $0.statement.location) }
        let location = rows.first?.defineLocation ?? StatementLocation(file: "", line: 0)
        return (
            rowActions,
            onEntry.mapValues { typed($0, at: location) },
            onExit.mapValues { typed($0, at: location) }
        )
    }
}
