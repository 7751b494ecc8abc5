import Terminal
import Testing

/// A screen that takes names it does not list: the statechart tool's events that a chart
/// matches by prefix (`coin.dollar` where a transition is on `coin`).
@MainActor
private final class PrefixScreen: Screen {
    var received: [ParsedCommand] = []
    var title: String { "Prefixes" }
    func body(style: TerminalStyle) -> [String] { ["received: \(received.map(\.name))"] }
    var commands: [CommandSpec] { [CommandSpec("coin", "Insert a coin")] }
    var stateName: String? { "idle" }
    func command(forUnlisted name: String) -> CommandSpec? {
        if name.hasPrefix("coin.") { return CommandSpec(name, "A coin of some kind") }
        if name.hasPrefix("select.") {
            return CommandSpec(name, "A choice", isEnabled: false, availableWhen: "once a coin is in")
        }
        return nil
    }
    func perform(_ command: ParsedCommand) async -> CommandResult {
        received.append(command)
        return .done
    }
}

@Suite("Commands a screen takes without listing them", .timeLimit(.minutes(1)))
@MainActor
struct UnlistedCommandTests {
    @Test("an unlisted name the screen takes is performed with its case; a disabled one is refused; others are unknown")
    func unlisted() async {
        let screen = PrefixScreen()
        let console = ScriptedConsole()
        let app = TerminalApp(name: "t", console: console, style: TerminalStyle(isEnabled: false), home: screen)
        ["coin.Dollar 2", "select.cola", "bogus"].forEach(console.type)
        console.endInput()
        #expect(await app.run() == 0)
        #expect(screen.received == [ParsedCommand(name: "coin.Dollar", arguments: ["2"])])
        #expect(
            console.output.contains("'select.cola' is not available in state idle: it is available once a coin is in.")
        )
        #expect(console.output.contains { $0.hasPrefix("Unknown command 'bogus'.") })
    }

    @Test("a parsed line keeps the name as typed beside the lowercased one")
    func typedName() {
        let command = ParsedCommand("Coin.Dollar x")
        #expect(command?.name == "coin.dollar")
        #expect(command?.typedName == "Coin.Dollar")
    }
}
