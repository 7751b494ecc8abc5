/// Validates the `define` statements of a table and compiles them into a
/// ``CompiledTable``. All problems are collected before anything is thrown.
struct TableCompiler<State: FSMHashable, Event: FSMHashable> {
    let initialState: State
    let isEager: Bool
    let executeAlways: Bool

    /// What a successful compile produces: the runtime table and, for diagrams and
    /// reports, the validated rows and each state's entry and exit actions.
    struct Output {
        let table: CompiledTable<State, Event>
        /// The rows, for diagrams, graph rows and checks of the built table; without the
        /// locations of their statements, which only the errors of the build read (most of
        /// a row's memory besides its predicates, and a built table keeps every row).
        let rows: [Row<State, Event>]
        let onEntry: [State: [AnyAction]]
        let onExit: [State: [AnyAction]]
    }

    func compile(_ defines: [Syntax.Define<State, Event>], at location: StatementLocation) throws -> Output {
        guard !defines.isEmpty else { throw SwiftFSMError(errors: [EmptyTableError(location: location)]) }

        var flattener = Flattener<State, Event>()
        var rows: [Row<State, Event>] = []
        var onEntry: [State: [AnyAction]] = [:]
        var onExit: [State: [AnyAction]] = [:]
        for define in defines {
            let flat = flattener.flatten(define)
            rows += flat.rows
            onEntry[define.state, default: []] += flat.onEntry
            onExit[define.state, default: []] += flat.onExit
        }
        var problems = flattener.problems

        let stateList = Self.states(initial: initialState, rows: rows, defined: defines.map(\.state))
        let stateIndex = Dictionary(stateList.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var eventList: [Event] = []
        let eventOfRow = rows.map { row in
            if let index = eventList.firstIndex(of: row.event) { return index }
            eventList.append(row.event)
            return eventList.count - 1
        }
        let types = Self.predicateTypes(in: rows)

        // Rows grouped by (state, event), in table order.
        var groupOrder: [Int] = []
        var groupRows: [Int: [Int]] = [:]
        for (index, row) in rows.enumerated() {
            // Every row's state is a defined state, so it is in the index.
            let key = stateIndex[row.state]! * eventList.count + eventOfRow[index]
            if groupRows[key] == nil { groupOrder.append(key) }
            groupRows[key, default: []].append(index)
        }

        for key in groupOrder {
            let group = groupRows[key]!.map { rows[$0] }
            problems += Self.duplicatesAndClashes(in: group)
            problems += Self.implicitClashes(in: group, types: types)
        }

        let actions = Self.typedActions(rows: rows, onEntry: onEntry, onExit: onExit, problems: &problems)
        let unique = Self.removingRepeats(problems)
        guard unique.isEmpty else { throw SwiftFSMError(errors: unique) }

        var cells = [Cell](repeating: .none, count: stateList.count * eventList.count)
        var groups: [PredicateGroup] = []
        var compiled: [CompiledTable<State, Event>.Transition] = []
        for (index, row) in rows.enumerated() {
            var firing = actions.rows[index]
            if executeAlways || row.nextState != row.state {
                firing += actions.onExit[row.state] ?? []
                firing += actions.onEntry[row.nextState] ?? []
            }
            compiled.append(
                .init(next: stateIndex[row.nextState]!, firing: firing, conditions: row.conditions)
            )
        }
        for key in groupOrder {
            let members = groupRows[key]!
            if members.count == 1 && rows[members[0]].predicates.isEmpty {
                cells[key] = .direct(members[0])
            } else {
                let group = Self.predicateGroup(members, rows: rows, types: types, eager: isEager)
                cells[key] =
                    group.relevantMask != nil && !group.dense.isEmpty ? .eager(groups.count) : .predicated(groups.count)
                groups.append(group)
            }
        }

        let table = CompiledTable(
            states: stateList,
            events: EventIndex(eventList),
            cells: cells,
            transitions: compiled,
            groups: groups,
            predicates: PredicateIndex(types: types)
        )
        return Output(table: table, rows: rows.map(\.withoutLocations), onEntry: onEntry, onExit: onExit)
    }
}
