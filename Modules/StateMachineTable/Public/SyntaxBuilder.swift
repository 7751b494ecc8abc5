/// Gives a type the table language: `define`, `when`, `then`, `actions` and `overriding`.
///
/// Conform the type that builds the table and name its state and event types:
///
/// ```swift
/// final class Turnstile: SyntaxBuilder {
///     enum State { case locked, unlocked }
///     enum Event { case coin, pass }
///     let fsm = FSM<State, Event>(initialState: .locked)
/// }
/// ```
///
/// Every statement takes hidden `file:` and `line:` arguments so errors can name the
/// line of the table that is wrong; there is no reason to pass them.
public protocol SyntaxBuilder {
    /// The table's state type.
    associatedtype State: FSMHashable
    /// The table's event type.
    associatedtype Event: FSMHashable
}

extension SyntaxBuilder {
    /// Defines a state's transitions: the SMC `Given`. One `define` per state.
    public func define(
        _ state: State,
        adopts superStates: SuperState...,
        onEntry: [AnyAction] = [],
        onExit: [AnyAction] = [],
        file: String = #file,
        line: Int = #line,
        @Syntax.MWTABuilder<State, Event> _ block: () -> Syntax.MWTA<State, Event>
    ) -> Syntax.Define<State, Event> {
        let location = StatementLocation(file: file, line: line)
        return Syntax.Define(
            state: state,
            superStates: superStates,
            onEntry: onEntry,
            onExit: onExit,
            fragment: block().fragment.inBlock("define(\(state))", at: location) { _ in },
            location: location,
            id: ScopeID.next()
        )
    }

    /// Defines a state that takes all its transitions from super states.
    public func define(
        _ state: State,
        adopts superState: SuperState,
        _ andSuperStates: SuperState...,
        onEntry: [AnyAction] = [],
        onExit: [AnyAction] = [],
        file: String = #file,
        line: Int = #line
    ) -> Syntax.Define<State, Event> {
        Syntax.Define(
            state: state,
            superStates: [superState] + andSuperStates,
            onEntry: onEntry,
            onExit: onExit,
            fragment: Fragment(),
            location: StatementLocation(file: file, line: line),
            id: ScopeID.next()
        )
    }

    /// The event a row responds to; `or:` writes one row per event.
    public func when(
        _ event: Event,
        or otherEvents: Event...,
        file: String = #file,
        line: Int = #line
    ) -> Syntax.MatchingWhen<State, Event> {
        var row = PartialRow<State, Event>()
        row.events = [event] + otherEvents
        row.locations = [StatementLocation(file: file, line: line)]
        return Syntax.MatchingWhen(fragment: Fragment(row))
    }

    /// A block whose rows all respond to `event` (and to `otherEvents`).
    public func when(
        _ event: Event,
        or otherEvents: Event...,
        file: String = #file,
        line: Int = #line,
        @Syntax.MTABuilder<State, Event> _ block: () -> Syntax.MTA<State, Event>
    ) -> Syntax.MWTA<State, Event> {
        Syntax.MWTA(fragment: whenBlock([event] + otherEvents, file, line, block().fragment))
    }

    /// A block inside `then { }` whose rows all respond to `event` (and to `otherEvents`).
    public func when(
        _ event: Event,
        or otherEvents: Event...,
        file: String = #file,
        line: Int = #line,
        @Syntax.MABuilder<State, Event> _ block: () -> Syntax.MA<State, Event>
    ) -> Syntax.MWA<State, Event> {
        Syntax.MWA(fragment: whenBlock([event] + otherEvents, file, line, block().fragment))
    }

    private func whenBlock(
        _ events: [Event],
        _ file: String,
        _ line: Int,
        _ fragment: Fragment<State, Event>
    ) -> Fragment<State, Event> {
        let location = StatementLocation(file: file, line: line)
        return fragment.inBlock("when(\(events.map { "\($0)" }.joined(separator: ", ")))", at: location) {
            $0.events = events
            $0.locations.insert(location, at: 0)
        }
    }

    /// The state a row goes to; `then()` stays in the current state.
    public func then(_ state: State? = nil, file: String = #file, line: Int = #line) -> Syntax.Then<State, Event> {
        Syntax.Then(next: state.map(NextState.state) ?? .stay, location: StatementLocation(file: file, line: line))
    }

    /// A block whose rows all go to `state` (or stay, for `nil`).
    public func then(
        _ state: State? = nil,
        file: String = #file,
        line: Int = #line,
        @Syntax.MWABuilder<State, Event> _ block: () -> Syntax.MWA<State, Event>
    ) -> Syntax.MWTA<State, Event> {
        Syntax.MWTA(fragment: thenBlock(state, file, line, block().fragment))
    }

    /// A block inside `when { }` whose rows all go to `state` (or stay, for `nil`).
    public func then(
        _ state: State? = nil,
        file: String = #file,
        line: Int = #line,
        @Syntax.MABuilder<State, Event> _ block: () -> Syntax.MA<State, Event>
    ) -> Syntax.MTA<State, Event> {
        Syntax.MTA(fragment: thenBlock(state, file, line, block().fragment))
    }

    private func thenBlock(
        _ state: State?,
        _ file: String,
        _ line: Int,
        _ fragment: Fragment<State, Event>
    ) -> Fragment<State, Event> {
        let location = StatementLocation(file: file, line: line)
        let next: NextState<State> = state.map(NextState.state) ?? .stay
        return fragment.inBlock("then(\(state.map { "\($0)" } ?? ""))", at: location) {
            $0.next = next
            $0.locations.insert(location, at: 0)
        }
    }

    /// Rows that replace the transitions with the same predicates and event inherited
    /// from adopted super states. With nothing to replace, `buildTable` throws.
    public func overriding(
        file: String = #file,
        line: Int = #line,
        @Syntax.MWTABuilder<State, Event> _ block: () -> Syntax.MWTA<State, Event>
    ) -> Syntax.MWTA<State, Event> {
        let location = StatementLocation(file: file, line: line)
        return Syntax.MWTA(fragment: block().fragment.inBlock("overriding", at: location) { $0.isOverride = true })
    }
}
