import Synchronization

/// A reusable set of transitions, entry and exit actions that `define` statements (and
/// other super states) adopt, like SMC's abstract `(Resetable)` states.
///
/// ```swift
/// let resetable = SuperState {
///     when(.reset) | then(.locked) | alarmOff & lock
/// }
/// define(.alarming, adopts: resetable)
/// ```
///
/// Adopted transitions cannot be contradicted by the adopter; write `overriding { }` to
/// replace them. Entry and exit actions are inherited, super states first.
public struct SuperState {
    let superStates: [SuperState]
    let onEntry: [AnyAction]
    let onExit: [AnyAction]
    /// A `Fragment<State, Event>` of the block's rows, `nil` when there is no block. Kept
    /// untyped so `SuperState` needs no generic arguments at the use site.
    let fragment: Any?
    let location: StatementLocation
    let id: Int

    /// Combines other super states, and optionally adds entry and exit actions.
    public init(
        adopts superState: SuperState,
        _ andSuperStates: SuperState...,
        onEntry: [AnyAction] = [],
        onExit: [AnyAction] = [],
        file: String = #file,
        line: Int = #line
    ) {
        superStates = [superState] + andSuperStates
        self.onEntry = onEntry
        self.onExit = onExit
        fragment = nil
        location = StatementLocation(file: file, line: line)
        id = ScopeID.next()
    }

    /// Declares transitions (and optionally entry and exit actions) on top of any adopted super states.
    public init<State: FSMHashable, Event: FSMHashable>(
        adopts superStates: SuperState...,
        onEntry: [AnyAction] = [],
        onExit: [AnyAction] = [],
        file: String = #file,
        line: Int = #line,
        @Syntax.MWTABuilder<State, Event> _ block: () -> Syntax.MWTA<State, Event>
    ) {
        self.superStates = superStates
        self.onEntry = onEntry
        self.onExit = onExit
        let location = StatementLocation(file: file, line: line)
        fragment = block().fragment.inBlock("SuperState", at: location) { _ in }
        self.location = location
        id = ScopeID.next()
    }
}

/// Unique identities for the blocks (`define` and `SuperState`) that own rows, so an
/// override can tell inherited rows from its own block's rows.
enum ScopeID {
    private static let counter = Atomic<Int>(0)

    static func next() -> Int {
        counter.add(1, ordering: .relaxed).newValue
    }
}
