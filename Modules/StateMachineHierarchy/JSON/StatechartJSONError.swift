/// Every problem found in a statechart JSON document, each with its JSON path.
///
/// The JSON builder validates the whole document before it builds anything, so one
/// error reports all problems at once (unknown states in transitions, duplicate names,
/// bad kinds, missing region indices...).
public struct StatechartJSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One problem at one place in the document.
    public struct Issue: Sendable, Hashable, CustomStringConvertible {
        /// Where the problem is, as a JSON path from the document root: `$.transitions[2].source`.
        public var path: String
        /// What is wrong there.
        public var message: String

        /// Creates an issue at `path`.
        public init(path: String, message: String) {
            self.path = path
            self.message = message
        }

        /// `<path>: <message>`.
        public var description: String { "\(path): \(message)" }
    }

    /// The problems, in document order.
    public var issues: [Issue]

    /// Creates an error from its issues.
    public init(issues: [Issue]) {
        self.issues = issues
    }

    /// One line per issue, after a summary line.
    public var description: String {
        let count = issues.count == 1 ? "1 problem" : "\(issues.count) problems"
        return (["Invalid statechart JSON (\(count)):"] + issues.map { "  \($0)" }).joined(separator: "\n")
    }
}
