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
