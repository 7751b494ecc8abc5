/// A predicate named twice in one `matching` statement or in nested `matching` blocks.
public struct DuplicatePredicateError: TableProblem {
    /// The repeated predicate, such as `A.x`.
    public let predicate: String
    /// Where the `matching` statements were written.
    public let locations: [StatementLocation]
    /// Explains the problem and names its location.
    public var description: String {
        "Matching error: duplicate predicate \(predicate) at " + locations.map(\.description).joined(separator: ", ")
    }
}
