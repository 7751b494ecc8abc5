/// One problem found in a table. `buildTable` collects every problem and throws them
/// together in a ``SwiftFSMError``; `catch` it and look for the concrete types below.
public protocol TableProblem: Error, Sendable, CustomStringConvertible {}

/// Everything wrong with a table, thrown once by `buildTable`.
public struct SwiftFSMError: Error, Sendable, CustomStringConvertible {
    /// Every problem, in the order the table states them.
    public let errors: [any TableProblem]

    /// A numbered list of every problem.
    public var description: String {
        let count = errors.count == 1 ? "1 error" : "\(errors.count) errors"
        let items = errors.enumerated().map { "\($0 + 1). \($1)" }
        return "The transition table has \(count):\n" + items.joined(separator: "\n")
    }
}

/// `buildTable { }` with no `define` in it.
public struct EmptyTableError: TableProblem {
    /// Where `buildTable` was called.
    public let location: StatementLocation
    /// Explains the problem and names its location.
    public var description: String { "Empty table: buildTable at \(location) defines no states." }
}

/// A block (`define`, `SuperState`, `when`, `then`, `matching`, `condition`, `actions`,
/// `overriding`) with no statements in it.
public struct EmptyBlockError: TableProblem {
    /// The statement that opened the block, such as `define(locked)`.
    public let block: String
    /// Where the block was opened.
    public let location: StatementLocation
    /// Explains the problem and names its location.
    public var description: String { "Empty block: \(block) at \(location) has no statements." }
}

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

/// An `overriding { }` transition with no inherited transition to replace.
public struct NothingToOverrideError: TableProblem {
    /// The overriding statement.
    public let statement: TableStatement
    /// Explains the problem and names the statement.
    public var description: String { "Nothing to override: no super state declares\n    \(statement)" }
}

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

/// A `SuperState` or action made for other `State`/`Event` types than the table's.
public struct MismatchedTypesError: TableProblem {
    /// What was mismatched.
    public let detail: String
    /// Where it was used.
    public let location: StatementLocation
    /// Explains the problem and names its location.
    public var description: String { "Mismatched types at \(location): \(detail)" }
}

/// Thrown by a second call to `buildTable`: a table is built once, because predicate
/// inference looks at the whole table.
public struct TableAlreadyBuiltError: Error, Sendable, CustomStringConvertible {
    /// Where the second `buildTable` was called.
    public let location: StatementLocation
    /// Explains the problem and names its location.
    public var description: String { "Table already built: buildTable called again at \(location)." }
}
