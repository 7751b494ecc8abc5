/// A line the user typed, split into a command name and its arguments.
public struct ParsedCommand: Sendable, Equatable {
    /// The first word, lowercased.
    public let name: String
    /// The first word as typed (case kept): what a screen that takes names it does not list
    /// (a chart's event) receives.
    public let typedName: String
    /// The other words.
    public let arguments: [String]

    /// Splits `line` on white space; nil for a blank line.
    public init?(_ line: String) {
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let first = words.first else { return nil }
        self.name = first.lowercased()
        self.typedName = first
        self.arguments = Array(words.dropFirst())
    }

    /// A command from its parts.
    public init(name: String, arguments: [String] = []) {
        self.name = name
        self.typedName = name
        self.arguments = arguments
    }

    /// Two commands are the same when their names and arguments are: how the first word was
    /// typed does not matter.
    public static func == (lhs: ParsedCommand, rhs: ParsedCommand) -> Bool {
        lhs.name == rhs.name && lhs.arguments == rhs.arguments
    }
}

extension ParsedCommand {
    /// The longest input a message repeats whole; longer ones are cut, ending in `...`.
    public static let longestEcho = 40

    /// `text`, or its first ``longestEcho`` characters followed by `...` when longer: what
    /// a message repeats of the user's input (an unknown 5,000-character command is not
    /// echoed whole).
    public static func shortened(_ text: String, to length: Int = longestEcho) -> String {
        text.count <= length ? text : String(text.prefix(length)) + "..."
    }
}
