/// One atomic transition after expansion: one state, one event, one combination of
/// predicate values (each of a different type), as the compiler validates and indexes it.
struct Row<State: FSMHashable, Event: FSMHashable> {
    let state: State
    let event: Event
    let next: NextState<State>
    /// At most one value per predicate type, in the order written.
    let predicates: [PredicateValue]
    let conditions: [() -> Bool]
    let actions: [AnyAction]
    let isOverride: Bool
    /// The `define` or `SuperState` block the row was written in.
    let scope: Int
    let locations: [StatementLocation]
    let defineLocation: StatementLocation

    var nextState: State {
        switch next {
        case .state(let state): state
        case .stay: state
        }
    }

    /// How specific the row is: the number of predicates it names.
    var rank: Int { predicates.count }

    var predicateSet: Set<PredicateValue> { Set(predicates) }

    /// The row without ``locations``, as a built table keeps it (``statement`` then names
    /// the `define`).
    var withoutLocations: Row {
        Row(
            state: state,
            event: event,
            next: next,
            predicates: predicates,
            conditions: conditions,
            actions: actions,
            isOverride: isOverride,
            scope: scope,
            locations: [],
            defineLocation: defineLocation
        )
    }

    /// The row as errors print it.
    var statement: TableStatement {
        let location = locations.max { ($0.file, $0.line) < ($1.file, $1.line) } ?? defineLocation
        let nextText: String? =
            switch next {
            case .state(let state): "\(state)"
            case .stay: nil
            }
        return TableStatement(
            state: "\(state)",
            predicates: predicates.map(\.description),
            event: "\(event)",
            nextState: nextText,
            location: location,
            defineLocation: defineLocation
        )
    }

    /// Whether the row and `other` respond to the same event, state and predicates.
    func sameTrigger(as other: Row) -> Bool {
        state == other.state && event == other.event && predicateSet == other.predicateSet
    }
}
