/// Turns `define` statements into atomic rows: adopted super states first (depth first,
/// in adoption order), then the define's own rows; `or:` lists expanded; overrides applied.
struct Flattener<State: FSMHashable, Event: FSMHashable> {
    var problems: [any TableProblem] = []

    struct Flattened {
        var rows: [Row<State, Event>] = []
        var onEntry: [AnyAction] = []
        var onExit: [AnyAction] = []
    }

    mutating func flatten(_ define: Syntax.Define<State, Event>) -> Flattened {
        var result = Flattened()
        for superState in define.superStates {
            let inherited = flatten(superState, for: define)
            result.rows += inherited.rows
            result.onEntry += inherited.onEntry
            result.onExit += inherited.onExit
        }
        problems += define.fragment.problems
        result.rows += expand(define.fragment, scope: define.id, for: define)
        result.onEntry += define.onEntry
        result.onExit += define.onExit
        result.rows = applyingOverrides(result.rows)
        return result
    }

    private mutating func flatten(_ superState: SuperState, for define: Syntax.Define<State, Event>) -> Flattened {
        var result = Flattened()
        for adopted in superState.superStates {
            let inherited = flatten(adopted, for: define)
            result.rows += inherited.rows
            result.onEntry += inherited.onEntry
            result.onExit += inherited.onExit
        }
        if let erased = superState.fragment {
            if let fragment = erased as? Fragment<State, Event> {
                // A super state adopted by several defines reports its own problems once per define;
                // the compiler removes the repeats.
                problems += fragment.problems
                result.rows += expand(fragment, scope: superState.id, for: define)
            } else {
                problems.append(
                    MismatchedTypesError(
                        detail: "SuperState declared for other State/Event types than "
                            + "FSM<\(State.self), \(Event.self)>",
                        location: superState.location
                    )
                )
            }
        }
        result.onEntry += superState.onEntry
        result.onExit += superState.onExit
        return result
    }

    private func expand(
        _ fragment: Fragment<State, Event>,
        scope: Int,
        for define: Syntax.Define<State, Event>
    ) -> [Row<State, Event>] {
        var rows: [Row<State, Event>] = []
        for partial in fragment.rows {
            // The syntax guarantees `when` and `then` are present in a complete row.
            guard let next = partial.next else { continue }
            for event in partial.events {
                // At their exact size: the syntax grew them by appending, and the built
                // table keeps every row.
                for match in partial.matches.map({ $0.map { $0 } }) {
                    rows.append(
                        Row(
                            state: define.state,
                            event: event,
                            next: next,
                            predicates: match,
                            conditions: partial.conditions,
                            actions: partial.actions,
                            isOverride: partial.isOverride,
                            scope: scope,
                            locations: partial.locations,
                            defineLocation: define.location
                        )
                    )
                }
            }
        }
        return rows
    }

    /// An override replaces every earlier row with its trigger from another block (the
    /// rows it inherits). Overrides of rows in their own block mean nothing and are left
    /// for duplicate detection; an override with nothing before it is an error, and so is
    /// a plain row that follows an inherited override of its trigger.
    private mutating func applyingOverrides(_ rows: [Row<State, Event>]) -> [Row<State, Event>] {
        var result: [Row<State, Event>] = []
        var outOfOrder: [(override: TableStatement, later: [TableStatement])] = []
        for row in rows {
            if row.isOverride {
                let inherited = result.indices.filter {
                    result[$0].scope != row.scope && result[$0].sameTrigger(as: row)
                }
                if inherited.isEmpty && !result.contains(where: { $0.sameTrigger(as: row) }) {
                    problems.append(NothingToOverrideError(statement: row.statement))
                }
                for index in inherited.reversed() { result.remove(at: index) }
                result.append(row)
            } else {
                if let override = result.first(where: {
                    $0.isOverride && $0.scope != row.scope && $0.sameTrigger(as: row)
                }) {
                    let statement = override.statement
                    if let known = outOfOrder.firstIndex(where: { $0.override == statement }) {
                        outOfOrder[known].later.append(row.statement)
                    } else {
                        outOfOrder.append((statement, [row.statement]))
                    }
                }
                result.append(row)
            }
        }
        for (override, later) in outOfOrder {
            problems.append(OverrideOutOfOrderError(override: override, later: later))
        }
        return result
    }
}
