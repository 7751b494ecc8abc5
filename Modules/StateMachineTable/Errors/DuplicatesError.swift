/// Transitions that share state, predicates, event and next state.
public struct DuplicatesError: TableProblem {
    /// The duplicated statements, in table order.
    public let statements: [TableStatement]
    /// Explains the problem and lists the statements.
    public var description: String {
        "Duplicate transitions: same state, predicates, event and next state:\n"
            + statements.map { "    \($0)" }.joined(separator: "\n")
    }
}
