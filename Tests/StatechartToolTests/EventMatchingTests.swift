import StatechartToolKit
import Terminal
import Testing

/// `statechart run` matches events as the chart does (SCXML 1.0, section 3.12.1): what it
/// offers, accepts and refuses is what the chart would do, and its messages say which
/// transition would take an event or truthfully why none does.
@Suite("statechart run: the chart's own event matching", .timeLimit(.minutes(2)))
@MainActor
struct EventMatchingTests {
    /// A vending machine whose transitions name event prefixes (`coin`, `select`), with a
    /// `select.cola` elsewhere and a `*` in `broken`.
    static let vending = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="idle">
          <state id="idle">
            <transition event="coin" target="paid"/>
            <transition event="select" target="idle"/>
            <transition event="kick" target="broken"/>
          </state>
          <state id="paid">
            <transition event="select.cola" target="idle"/>
          </state>
          <state id="broken">
            <transition event="*" target="idle"/>
          </state>
        </scxml>
        """

    /// The same machine without its `broken` state, so that no `*` matches every name.
    static let vendingWithoutWildcard = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="idle">
          <state id="idle">
            <transition event="coin" target="paid"/>
            <transition event="select" target="idle"/>
          </state>
          <state id="paid">
            <transition event="select.cola" target="idle"/>
          </state>
        </scxml>
        """

    @Test("an event a transition matches by prefix is taken, and the frame says which transition took it")
    func prefixAccepted() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write("vending.scxml", Self.vending)
        let console = ScriptedConsole()
        _ = await runTool(["run", file], input: ["select.cola", "coin.dollar", "select.cola"], console: console)
        let output = console.output
        #expect(!output.contains { $0.contains("not available") || $0.hasPrefix("Unknown command") }, "\(output)")
        let frames = RunTests.frames(console)
        try #require(frames.count == 4, "\(output)")
        // In idle, `select.cola` (an event of the chart, listed) goes to idle's `select`.
        #expect(frames[0].contains("Commands: coin, select, kick, select.cola,"), "\(frames[0])")
        #expect(
            frames[1].contains(
                "  Step 1 (select.cola):\n    exit idle\n    enter idle\n  'select.cola' matches the transition on 'select' of idle (line 4)."
            )
        )
        // `coin.dollar`, which no transition names, is taken by idle's `coin`.
        #expect(frames[2].contains("  Active: paid\n  Step 2 (coin.dollar):\n    exit idle\n    enter paid\n"))
        #expect(frames[2].contains("'coin.dollar' matches the transition on 'coin' of idle (line 3)."))
        #expect(frames[3].contains("  Active: idle\n  Step 3 (select.cola):"))
        // A name matched by its own descriptor says nothing more.
        #expect(!frames[3].contains(" matches the transition"))
    }

    @Test("an event no active state matches is refused, naming the transitions that would take it")
    func refusedTruthfully() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write("vending.scxml", Self.vendingWithoutWildcard)
        let console = ScriptedConsole()
        _ = await runTool(["run", file], input: ["coin", "coin.euro", "money"], console: console)
        let output = console.output
        #expect(
            output.contains(
                "'coin.euro' is not available in state paid: it is available where a transition matches it: the transition on 'coin' of idle (line 3) ('send coin.euro' sends it anyway)."
            ),
            "\(output)"
        )
        // A name no transition of the chart matches is unknown, and the hint says so truthfully.
        #expect(
            output.contains {
                $0.hasPrefix(
                    "Unknown command 'money'; to send 'money' as an event, which no transition of the chart matches: send money."
                )
            }
        )
    }

    @Test("a '*' transition of an active state takes every event, listed or not")
    func wildcard() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write("vending.scxml", Self.vending)
        let console = ScriptedConsole()
        _ = await runTool(["run", file], input: ["kick", "anything.at.all"], console: console)
        let frames = RunTests.frames(console)
        try #require(frames.count == 3, "\(console.output)")
        #expect(frames[1].contains("Commands: coin, select, kick, select.cola, send"), "\(frames[1])")
        #expect(frames[2].contains("  Active: idle\n  Step 2 (anything.at.all):"))
        #expect(frames[2].contains("'anything.at.all' matches the transition on '*' of broken (line 11)."))
        let prompt = try #require(console.lastPrompt)
        #expect(prompt.completions.contains("coin"))
    }
}
