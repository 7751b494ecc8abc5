/// A `matching` statement (or nested `matching` blocks) asking for two cases of one
/// predicate type at once, such as `A.x AND A.y`.
public struct ConflictingPredicatesError: TableProblem {
    /// The conflicting predicates, such as `["A.x", "A.y"]`.
    public let predicates: [String]
    /// Where the `matching` statements were written.
    public let locations: [StatementLocation]
    /// Explains the problem and names its location.
    public var description: String {
        "Matching error: cannot match \(predicates.joined(separator: " AND ")) simultaneously at "
            + locations.map(\.description).joined(separator: ", ")
    }
}
