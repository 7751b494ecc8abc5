import Testing

@testable import Terminal

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

@Suite("Tab completion")
struct CompletionTests {
    let phrases = ["open", "open wallet", "open clics-cancel", "open clics-continue", "tab", "tab music", "quit"]

    @Test("the first word completes from the command names")
    func commandNames() {
        #expect(completionWords(phrases: phrases, typed: Array("op".utf8), wordStart: 0) == ["open"])
        #expect(completionWords(phrases: phrases, typed: Array("".utf8), wordStart: 0) == ["open", "tab", "quit"])
    }

    @Test("a later word completes from the arguments of the command typed before it")
    func arguments() {
        #expect(completionWords(phrases: phrases, typed: Array("open wa".utf8), wordStart: 5) == ["wallet"])
        #expect(
            completionWords(phrases: phrases, typed: Array("open clics".utf8), wordStart: 5)
                == ["clics-cancel", "clics-continue"]
        )
        #expect(completionWords(phrases: phrases, typed: Array("tab mu".utf8), wordStart: 4) == ["music"])
        #expect(completionWords(phrases: phrases, typed: Array("quit no".utf8), wordStart: 5).isEmpty)
    }

    @Test("a command lists its argument values after its name, for Tab")
    func phrasesOfASpec() {
        let spec = CommandSpec("tab", arguments: "<section>", "Select a tab", completions: ["music", "profile"])
        #expect(spec.completionPhrases == ["tab", "tab music", "tab profile"])
    }
}
