import Terminal
import Testing

@Suite("Command parsing")
struct CommandTests {
    @Test("a line splits into a lowercased name and its arguments; blank lines are nothing")
    func parsing() {
        #expect(ParsedCommand("  Add   10  ") == ParsedCommand(name: "add", arguments: ["10"]))
        #expect(ParsedCommand("open poc://music") == ParsedCommand(name: "open", arguments: ["poc://music"]))
        #expect(ParsedCommand("   ") == nil)
        #expect(CommandSpec("add", arguments: "<amount>", "Adds").usage == "add <amount>")
        #expect(CommandSpec("load", "Loads").usage == "load")
    }

    @Test("styles are plain text when disabled")
    func plainStyle() {
        let plain = TerminalStyle(isEnabled: false)
        #expect(plain.bold("x") == "x" && plain.dim("y") == "y")
        #expect(TerminalStyle(isEnabled: true).bold("x") == "\u{1B}[1mx\u{1B}[0m")
    }
}
