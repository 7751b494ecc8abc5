/// Transitions that name different predicates of equal rank but both apply to one
/// combination of predicate values, so neither can win (the "implicit clash").
public struct ImplicitClashError: TableProblem {
    /// The clashing statements, in table order.
    public let statements: [TableStatement]
    /// One combination of predicate values both statements match.
    public let combination: [String]
    /// Explains the problem and lists the statements.
    public var description: String {
        "Implicit clash: both transitions apply when \(combination.joined(separator: " and ")); "
            + "name more predicates in one of them to disambiguate:\n"
            + statements.map { "    \($0)" }.joined(separator: "\n")
    }
}
