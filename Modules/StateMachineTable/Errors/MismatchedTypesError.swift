/// A `SuperState` or action made for other `State`/`Event` types than the table's.
public struct MismatchedTypesError: TableProblem {
    /// What was mismatched.
    public let detail: String
    /// Where it was used.
    public let location: StatementLocation
    /// Explains the problem and names its location.
    public var description: String { "Mismatched types at \(location): \(detail)" }
}
