/// `buildTable { }` with no `define` in it.
public struct EmptyTableError: TableProblem {
    /// Where `buildTable` was called.
    public let location: StatementLocation
    /// Explains the problem and names its location.
    public var description: String { "Empty table: buildTable at \(location) defines no states." }
}
