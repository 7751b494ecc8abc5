/// Thrown by a second call to `buildTable`: a table is built once, because predicate
/// inference looks at the whole table.
public struct TableAlreadyBuiltError: Error, Sendable, CustomStringConvertible {
    /// Where the second `buildTable` was called.
    public let location: StatementLocation
    /// Explains the problem and names its location.
    public var description: String { "Table already built: buildTable called again at \(location)." }
}
