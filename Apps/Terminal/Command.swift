/// A command a screen accepts, as `help` and the frame list it.
public struct CommandSpec: Sendable, Equatable {
    /// What the user types first (`add`).
    public let name: String
    /// The arguments' usage (`<amount>`), empty when there are none.
    public let arguments: String
    /// One line on what it does.
    public let summary: String
    /// Whether the current state allows it; unavailable commands are shown dimmed and refused.
    public let isEnabled: Bool
    /// The argument values Tab completes after the name (`wallet`, `poc://music`).
    public let completions: [String]
    /// What would allow the command when it is refused, said after "it is available"
    /// (`when the doors are open`); empty when there is nothing to say.
    public let availableWhen: String

    /// A command; `completions` are the argument values Tab offers, `availableWhen` says
    /// what would allow it when the state does not.
    public init(
        _ name: String,
        arguments: String = "",
        _ summary: String,
        isEnabled: Bool = true,
        availableWhen: String = "",
        completions: [String] = []
    ) {
        self.name = name
        self.arguments = arguments
        self.summary = summary
        self.isEnabled = isEnabled
        self.availableWhen = availableWhen
        self.completions = completions
    }

    /// What Tab completes for this command: its name, and its name followed by each
    /// argument value.
    public var completionPhrases: [String] { [name] + completions.map { "\(name) \($0)" } }

    /// `name <arguments>`.
    public var usage: String { arguments.isEmpty ? name : "\(name) \(arguments)" }
}

/// What a screen did with a command.
public enum CommandResult {
    /// Done; the screen re-renders if its state changed.
    case done
    /// Show a one-line message (an error or a confirmation) under the frame.
    case message(String)
    /// Open another screen on top of this one.
    case push(any Screen)
    /// Go back to the previous screen.
    case back
    /// Leave the app.
    case quit
}
