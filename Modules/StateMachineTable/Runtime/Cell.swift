/// What a (state, event) pair leads to.
@usableFromInline
enum Cell {
    /// The table has no row for the pair.
    case none
    /// One row that names no predicates: the transition's index.
    case direct(Int)
    /// Rows that name predicates: the index of their ``PredicateGroup``.
    case predicated(Int)
    /// Rows that name predicates, in a group whose every combination was resolved when the
    /// table was built (``PredicateGroup/eagerTransition(for:_:)`` applies): the index of
    /// their group.
    case eager(Int)
}
