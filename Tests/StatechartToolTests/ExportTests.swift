import Foundation
import StateMachineHierarchy
import StatechartToolKit
import Terminal
import Testing

/// `statechart export`: the JSON chart as SCXML, its usage errors, what SCXML cannot
/// express, and the exported sample, which loads in `statechart check` and steps as the
/// JSON chart does.
@Suite("statechart export", .timeLimit(.minutes(2)))
@MainActor
struct ExportTests {
    @Test("export prints the document; the checked-in Samples/Statecharts/player-exported.scxml is what it prints")
    func sample() async throws {
        let run = await runTool(["export", Paths.sample("player.json")])
        #expect(run.status == 0)
        #expect(run.standardError.isEmpty)
        let kept = try String(contentsOfFile: Paths.sample("player-exported.scxml"), encoding: .utf8)
        #expect(
            run.standardOutput == kept,
            "Samples/Statecharts/player-exported.scxml is out of date: run 'swift run statechart export Samples/Statecharts/player.json -o Samples/Statecharts/player-exported.scxml'"
        )
    }

    @Test("export -o writes the file, which statechart check runs with the JSON chart's own steps")
    func roundTripThroughCheck() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let document = directory.url.appendingPathComponent("player.scxml").path
        let run = await runTool(["export", Paths.sample("player.json"), "-o", document])
        #expect(run.status == 0)
        #expect(run.standardOutput.isEmpty && run.standardError.isEmpty)

        // The expectations: the JSON chart's atomic states, run with SCXML's semantics but
        // the least common region as a transition's domain: the export gives each of the
        // deck's regions (several states each) a state of its own, so `mute` stays in its
        // region, where W3C's least common compound ancestor would exit the whole deck.
        typealias Chart = Statechart<String, String, String>
        var options = StatechartOptions.scxml
        options.transitionDomain = .leastCommonRegion
        let atomic: Set = ["selftest", "booted", "stopped", "playing", "paused", "loud", "muted", "off"]
        let clock = ManualStatechartClock()
        let chart = try Chart(
            Chart.definition(fromFile: Paths.sample("player.json")),
            options: options,
            clock: clock
        )
        chart.start()
        func configuration() -> String {
            "[" + chart.activeStates.filter(atomic.contains).sorted().map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        }
        let initial = configuration()
        var events: [String] = []
        for (name, after) in [
            ("ready", 0), ("play", 0), ("mute", 0), ("pause", 0), ("play", 0), ("pause", 0), ("mute", 31_000),
            ("power", 0), ("power", 0), ("play", 0),
        ] {
            clock.advance(by: .milliseconds(after))
            _ = try chart.handle(name)
            events.append(
                #"{"event": {"name": "\#(name)"}, "after": \#(after), "nextConfiguration": \#(configuration())}"#
            )
        }
        try directory.write(
            "player.json",
            #"{"initialConfiguration": \#(initial), "events": [\#(events.joined(separator: ", "))]}"#
        )
        let check = await runTool(["check", document])
        #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
        #expect(check.standardOutput == "1 passed, 0 failed\n")
    }

    @Test(
        "usage errors are short and exit 2",
        arguments: [
            (["export"], "'export' needs a JSON chart (FILE: .json)"),
            (
                ["export", "a.json", "-o", "a.xml"],
                "cannot tell the format of 'a.xml' from its extension (.scxml); give --format scxml"
            ),
            (["export", "a.json", "--format", "dot"], "unknown format 'dot' for 'export' (expected scxml)"),
            (["diagram", "a.json", "--partial"], "--partial applies only to 'statechart export'"),
            (["export", "a.json", "--strict"], "--strict applies only to 'statechart check'"),
        ]
    )
    func usage(arguments: [String], message: String) async {
        let run = await runTool(arguments)
        #expect(run.status == 2)
        #expect(
            run.standardError == "statechart: \(message)\nsee 'statechart help export' for its options\n"
                || run.standardError == "statechart: \(message)\nsee 'statechart help diagram' for its options\n"
        )
    }

    @Test("an .scxml file, a missing file and an invalid chart exit 2, naming the file")
    func badInput() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let scxml = await runTool(["export", Paths.sample("player.scxml")])
        #expect(scxml.status == 2)
        #expect(
            scxml.standardError.hasSuffix(
                "player.scxml: export reads a JSON chart (.json); an .scxml file is SCXML already\n"
            )
        )
        let missing = await runTool(["export", directory.url.appendingPathComponent("none.json").path])
        #expect(missing.status == 2)
        #expect(missing.standardError.hasSuffix("none.json: no such file\n"))
        let invalid = try directory.write("bad.json", #"{"name": "x", "states": []}"#)
        let run = await runTool(["export", invalid])
        #expect(run.status == 2)
        #expect(run.standardError.contains("bad.json: "))
        #expect(run.standardError.contains("$.states"))
    }

    @Test("what SCXML cannot express fails with exit 1, each part listed; --partial writes the rest")
    func unexpressible() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write(
            "deferring.json",
            #"""
            {"name": "deferring", "states": [
              {"name": "a", "type": "state", "deferred": ["later"]},
              {"name": "b", "type": "state"}],
             "transitions": [{"type": "simple", "name": "go", "kind": "external", "source": "a", "target": "b"}]}
            """#
        )
        let failed = await runTool(["export", file])
        #expect(failed.status == 1)
        #expect(failed.standardOutput.isEmpty)
        #expect(failed.standardError.contains("cannot export the chart to SCXML: 1 part cannot be expressed"))
        #expect(failed.standardError.contains("  a: the deferred events 'later' are left out: SCXML has no deferral"))
        #expect(failed.standardError.hasSuffix("(--partial writes the rest)\n"))

        let output = directory.url.appendingPathComponent("deferring.scxml").path
        let partial = await runTool(["export", file, "--partial", "-o", output])
        #expect(partial.status == 0)
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(text.contains("     a: the deferred events 'later' are left out: SCXML has no deferral"))
        #expect(text.contains(#"<transition event="go" target="b"/>"#))
    }
}
