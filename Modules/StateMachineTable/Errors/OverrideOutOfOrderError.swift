/// An `overriding { }` transition in a super state that a later (child) statement
/// contradicts without `overriding`: overrides must be written in the child.
public struct OverrideOutOfOrderError: TableProblem {
    /// The override written in the parent.
    public let override: TableStatement
    /// The child's plain statements that come after it.
    public let later: [TableStatement]
    /// Explains the problem and lists the statements.
    public var description: String {
        "Overrides out of order: the override\n    \(override)\nis followed by its child's plain transition:\n"
            + later.map { "    \($0)" }.joined(separator: "\n")
    }
}
