/// One problem found in a table. `buildTable` collects every problem and throws them
/// together in a ``SwiftFSMError``; `catch` it and look for the concrete types
/// (`ClashError`, `DuplicatesError`, ...).
public protocol TableProblem: Error, Sendable, CustomStringConvertible {}
