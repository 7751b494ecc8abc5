extension Syntax {
    /// Builds a `define`, `SuperState`, `overriding` or top-level block body from complete rows.
    @resultBuilder
    public enum MWTABuilder<State: FSMHashable, Event: FSMHashable> {
        /// Accepts a complete row or block.
        public static func buildExpression(_ rows: MWTA<State, Event>) -> MWTA<State, Event> { rows }
        /// Accepts `when | then` with no actions.
        public static func buildExpression(_ row: MatchingWhenThen<State, Event>) -> MWTA<State, Event> {
            MWTA(fragment: row.fragment)
        }
        /// Joins the rows of the block, in order.
        public static func buildBlock(_ parts: MWTA<State, Event>...) -> MWTA<State, Event> {
            MWTA(fragment: Fragment(joining: parts.map(\.fragment)))
        }
    }

    /// Builds a `then { }` body from rows that have no `then`.
    @resultBuilder
    public enum MWABuilder<State: FSMHashable, Event: FSMHashable> {
        /// Accepts rows or blocks without a `then`.
        public static func buildExpression(_ rows: MWA<State, Event>) -> MWA<State, Event> { rows }
        /// Accepts `when(...)` or `matching(...) | when(...)` with no actions.
        public static func buildExpression(_ row: MatchingWhen<State, Event>) -> MWA<State, Event> {
            MWA(fragment: row.fragment)
        }
        /// Joins the rows of the block, in order.
        public static func buildBlock(_ parts: MWA<State, Event>...) -> MWA<State, Event> {
            MWA(fragment: Fragment(joining: parts.map(\.fragment)))
        }
    }

    /// Builds a `when { }` body from rows that have no `when`.
    @resultBuilder
    public enum MTABuilder<State: FSMHashable, Event: FSMHashable> {
        /// Accepts rows or blocks without a `when`.
        public static func buildExpression(_ rows: MTA<State, Event>) -> MTA<State, Event> { rows }
        /// Accepts `matching(...) | then(...)` with no actions.
        public static func buildExpression(_ row: MatchingThen<State, Event>) -> MTA<State, Event> {
            MTA(fragment: row.fragment)
        }
        /// Joins the rows of the block, in order.
        public static func buildBlock(_ parts: MTA<State, Event>...) -> MTA<State, Event> {
            MTA(fragment: Fragment(joining: parts.map(\.fragment)))
        }
    }

    /// Builds a `when { then { } }` body from rows that have neither `when` nor `then`.
    @resultBuilder
    public enum MABuilder<State: FSMHashable, Event: FSMHashable> {
        /// Accepts `matching(...) | actions`.
        public static func buildExpression(_ rows: MA<State, Event>) -> MA<State, Event> { rows }
        /// Accepts a bare `matching(...)` or `condition(...)`.
        public static func buildExpression(_ row: Matching<State, Event>) -> MA<State, Event> {
            MA(fragment: Fragment(rows: [row.row], problems: row.problems))
        }
        /// Joins the rows of the block, in order.
        public static func buildBlock(_ parts: MA<State, Event>...) -> MA<State, Event> {
            MA(fragment: Fragment(joining: parts.map(\.fragment)))
        }
    }

    /// Builds the body of `buildTable` from `define` statements.
    @resultBuilder
    public enum TableBuilder<State: FSMHashable, Event: FSMHashable> {
        /// Accepts one `define`.
        public static func buildExpression(_ define: Define<State, Event>) -> [Define<State, Event>] { [define] }
        /// Joins the defines of the table, in order.
        public static func buildBlock(_ parts: [Define<State, Event>]...) -> [Define<State, Event>] {
            parts.flatMap { $0 }
        }
    }
}
