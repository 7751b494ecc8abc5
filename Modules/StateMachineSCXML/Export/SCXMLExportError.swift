/// Why a chart could not be exported to SCXML: every part of it that an SCXML document
/// cannot express, each with where it is (see ``SCXMLDocument/export(_:options:)``).
public struct SCXMLExportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// One part of the chart that SCXML cannot express.
    public struct Issue: Equatable, Sendable, CustomStringConvertible {
        /// Where it is: a state's path (`player/playing@1/loud`, as the definition's
        /// editing API takes it), or the chart's name for the chart as a whole.
        public let path: String
        /// What cannot be expressed, and why.
        public let message: String

        /// An issue at `path`.
        public init(path: String, message: String) {
            self.path = path
            self.message = message
        }

        /// `path: message`.
        public var description: String { "\(path): \(message)" }
    }

    /// Every part that cannot be expressed, in document order.
    public let issues: [Issue]

    /// An error listing `issues`.
    public init(issues: [Issue]) {
        self.issues = issues
    }

    /// One line for the count, then one line per issue.
    public var description: String {
        let count = issues.count == 1 ? "1 part" : "\(issues.count) parts"
        return
            (["cannot export the chart to SCXML: \(count) cannot be expressed"]
            + issues.map { "  \($0)" }).joined(separator: "\n")
    }
}
