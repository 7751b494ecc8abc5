import Terminal
import Testing

/// A screen whose commands keep their case (like a statechart's events).
@MainActor
private final class CasedScreen: Screen {
    var received: [ParsedCommand] = []
    var title: String { "Cased" }
    func body(style: TerminalStyle) -> [String] { ["received: \(received.map(\.name))"] }
    var commands: [CommandSpec] {
        [
            CommandSpec("goNow", "Go now", isEnabled: false),
            CommandSpec("GoNow", "Go now, the enabled one"),
            CommandSpec("stay", "Stay"),
        ]
    }
    func perform(_ command: ParsedCommand) async -> CommandResult {
        received.append(command)
        return .done
    }
}

@Suite("Commands and case", .timeLimit(.minutes(1)))
@MainActor
struct CommandCaseTests {
    @Test("a command matches whatever its case, an enabled one first, and the screen gets its declared name")
    func declaredName() async {
        let screen = CasedScreen()
        let console = ScriptedConsole()
        let app = TerminalApp(name: "t", console: console, style: TerminalStyle(isEnabled: false), home: screen)
        ["gonow", "GONOW x", "Stay"].forEach(console.type)
        console.endInput()
        #expect(await app.run() == 0)
        #expect(
            screen.received == [
                ParsedCommand(name: "GoNow"), ParsedCommand(name: "GoNow", arguments: ["x"]),
                ParsedCommand(name: "stay"),
            ]
        )
    }
}
