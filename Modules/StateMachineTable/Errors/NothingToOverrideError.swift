/// An `overriding { }` transition with no inherited transition to replace.
public struct NothingToOverrideError: TableProblem {
    /// The overriding statement.
    public let statement: TableStatement
    /// Explains the problem and names the statement.
    public var description: String { "Nothing to override: no super state declares\n    \(statement)" }
}
