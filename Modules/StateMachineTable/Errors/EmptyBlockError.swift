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
