import Terminal

/// The list of case studies; `open N` or `open name` shows one.
@MainActor
public final class HomeScreen: Screen {
    private let environment: CaseStudiesEnvironment
    private let entries = CaseStudiesApp.caseStudies

    /// The home screen.
    public init(environment: CaseStudiesEnvironment) {
        self.environment = environment
    }

    /// "CaseStudies".
    public var title: String { "CaseStudies" }

    /// The numbered list.
    public func body(style: TerminalStyle) -> [String] {
        entries.enumerated().map { index, entry in
            "  \(index + 1). \(entry.title)  \(style.dim("(\(entry.name))"))"
        }
    }

    /// `open`.
    public var commands: [CommandSpec] {
        [CommandSpec("open", arguments: "<number|name>", "Open a case study", completions: entries.map(\.name))]
    }

    /// Opens the chosen case study, or says what would work.
    public func perform(_ command: ParsedCommand) async -> CommandResult {
        let choices = "a number from 1 to \(entries.count) or a name (\(entries.map(\.name).joined(separator: ", ")))"
        guard let argument = command.arguments.first, command.arguments.count == 1 else {
            return .message("Usage: open <number|name>, with \(choices).")
        }
        if NumberArgument.looksLikeInteger(argument) {
            switch NumberArgument.integer(argument, in: 1...entries.count, what: "The case study number") {
            case .success(let number): return .push(entries[number - 1].make(environment))
            case .failure(let error):
                return .message("\(error.message), or a name: \(entries.map(\.name).joined(separator: ", ")).")
            }
        }
        if let entry = entries.first(where: { $0.name == argument.lowercased() }) {
            return .push(entry.make(environment))
        }
        return .message("No case study '\(argument)'; choose \(choices).")
    }
}
