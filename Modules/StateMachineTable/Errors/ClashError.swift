/// Transitions that share state, predicates and event but lead to different states
/// (the "logical clash"). An event written with `FSMValue.any` clashes with the same
/// event written with a value, because `.any` matches every value.
public struct ClashError: TableProblem {
    /// The clashing statements, in table order.
    public let statements: [TableStatement]
    /// Whether the events differ as written, so a `.any` wildcard made them equal.
    public let involvesWildcard: Bool
    /// Explains the problem and lists the statements.
    public var description: String {
        let why = involvesWildcard ? " (FSMValue.any matches every value)" : ""
        return "Logical clash: same state, predicates and event\(why), different next states:\n"
            + statements.map { "    \($0)" }.joined(separator: "\n")
    }
}
