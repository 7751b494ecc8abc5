/// The intermediate values of the table language. Users never name these: each is what
/// a `matching`, `when`, `then`, `|` or block returns, and which one it is decides what
/// may follow, so a statement that makes no sense does not compile.
///
/// Letters say what a value already has: **M**atching (or `condition`), **W**hen,
/// **T**hen, **A**ctions. A `define` or `SuperState` body takes complete `MWTA` rows; a
/// `when { }` body takes `MTA` rows, a `then { }` body `MWA` rows, and a
/// `when { then { } }` body `MA` rows.
public enum Syntax {
    /// `matching(...)` or `condition(...)`: followed by `| when`, `| then` or `| actions`.
    public struct Matching<State: FSMHashable, Event: FSMHashable> {
        let row: PartialRow<State, Event>
        let problems: [any TableProblem]
    }

    /// `when(...)`, or `matching(...) | when(...)`: followed by `| then` or `| actions`.
    public struct MatchingWhen<State: FSMHashable, Event: FSMHashable> {
        let fragment: Fragment<State, Event>
    }

    /// `then(...)`: only valid after `when` or `matching`, or opening a block.
    public struct Then<State: FSMHashable, Event: FSMHashable> {
        let next: NextState<State>
        let location: StatementLocation
    }

    /// `matching(...) | then(...)`: a row of a `when { }` block, optionally `| actions`.
    public struct MatchingThen<State: FSMHashable, Event: FSMHashable> {
        let fragment: Fragment<State, Event>
    }

    /// `when(...) | then(...)`: a complete row, optionally followed by `| actions`.
    public struct MatchingWhenThen<State: FSMHashable, Event: FSMHashable> {
        let fragment: Fragment<State, Event>
    }

    /// Complete rows: what `define` and `SuperState` bodies hold.
    public struct MWTA<State: FSMHashable, Event: FSMHashable> {
        let fragment: Fragment<State, Event>
    }

    /// Rows without a `then`: what a `then { }` body holds.
    public struct MWA<State: FSMHashable, Event: FSMHashable> {
        let fragment: Fragment<State, Event>
    }

    /// Rows without a `when`: what a `when { }` body holds.
    public struct MTA<State: FSMHashable, Event: FSMHashable> {
        let fragment: Fragment<State, Event>
    }

    /// Rows without `when` or `then`: what a `when { then { } }` body holds.
    public struct MA<State: FSMHashable, Event: FSMHashable> {
        let fragment: Fragment<State, Event>
    }

    /// One `define` statement: a state, its super states, entry and exit actions and rows.
    public struct Define<State: FSMHashable, Event: FSMHashable> {
        let state: State
        let superStates: [SuperState]
        let onEntry: [AnyAction]
        let onExit: [AnyAction]
        let fragment: Fragment<State, Event>
        let location: StatementLocation
        let id: Int
    }
}
