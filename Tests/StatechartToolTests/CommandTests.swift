import Foundation
import StatechartToolKit
import Terminal
import Testing

/// Every subcommand, in-process, with its output and exit status.
@Suite("statechart: subcommands in-process", .timeLimit(.minutes(2)))
@MainActor
struct CommandTests {
    nonisolated static let playerMermaid = """
        stateDiagram-v2
            state boot {
                selftest
                booted
                [*] --> selftest
                selftest --> booted : ready
                booted --> [*]
            }
            state on {
                state "H*" as resume
                state deck {
                    state transport {
                        stopped
                        playing
                        paused
                        [*] --> stopped
                        stopped --> playing : play
                        playing --> paused : pause
                        paused --> playing : play
                    }
                    transport --> stopped : stop
                    --
                    state volume {
                        loud
                        muted
                        [*] --> loud
                        loud --> muted : mute
                        muted --> loud : mute
                    }
                }
                [*] --> deck
                resume --> deck
            }
            off
            [*] --> boot
            boot --> on : done.state.boot
            on --> off : power
            off --> resume : power

        """

    @Test("--help prints the usage on standard output and exits 0")
    func help() async {
        let run = await runTool(["--help"])
        #expect(run.status == 0)
        #expect(run.standardOutput == StatechartTool.usage + "\n")
        #expect(run.standardError.isEmpty)
    }

    @Test("a usage error prints the message and one line naming 'statechart help COMMAND', and exits 2")
    func usageError() async {
        let run = await runTool(["draw", "x"])
        #expect(run.status == 2)
        #expect(run.standardOutput.isEmpty)
        #expect(
            run.standardError
                == "statechart: unknown subcommand 'draw' (expected run, check, diagram, view or export)\nsee 'statechart help' for the commands\n"
        )
        let option = await runTool(["diagram", "x.scxml", "--colour"])
        #expect(option.status == 2)
        #expect(
            option.standardError
                == "statechart: unknown option '--colour'\nsee 'statechart help diagram' for its options\n"
        )
    }

    @Test("help COMMAND and COMMAND --help print that command's options")
    func commandHelp() async {
        for command in ["run", "check", "diagram", "view"] {
            let help = await runTool(["help", command])
            #expect(help.status == 0)
            #expect(help.standardOutput.hasPrefix("usage: statechart \(command) "), "\(help.standardOutput)")
            #expect(help.standardOutput == StatechartTool.commandHelp[command]! + "\n")
            #expect(await runTool([command, "--help"]).standardOutput == help.standardOutput)
        }
        #expect(StatechartTool.commandHelp["diagram"]!.contains(".svg, .png, .dot, .gv or .mmd"))
        #expect(StatechartTool.commandHelp["check"]!.contains("--strict"))
    }

    @Test("diagram: the sample's Mermaid diagram (the README shows it)")
    func diagramMermaid() async {
        let run = await runTool(["diagram", Paths.sample("player.scxml")])
        #expect(run.status == 0)
        #expect(run.standardOutput == Self.playerMermaid)
        #expect(run.standardError.isEmpty)
    }

    @Test("diagram --format dot, for a JSON chart")
    func diagramDOT() async {
        let run = await runTool(["diagram", Paths.sample("player.json"), "--format", "dot"])
        #expect(run.status == 0)
        #expect(run.standardOutput.hasPrefix("digraph \"player\" {\n    compound=true;\n"))
        #expect(run.standardOutput.contains(#""on" -> "off" [label=" power ", ltail="cluster_1"];"#))
        #expect(run.standardOutput.contains(#""off" -> "resume" [label=" power "];"#))
        #expect(run.standardOutput.contains(#""resume" [shape=circle, label="H*", width=0.3, fixedsize=true];"#))
        #expect(run.standardOutput.contains(#""paused" -> "stopped" [label=" after 30s "];"#))
        #expect(run.standardOutput.contains(#""stopped" -> "playing" [label=" play "];"#))
        #expect(run.standardOutput.hasSuffix("}\n"))
    }

    @Test("check: all passing prints the summary and exits 0")
    func checkPasses() async throws {
        let directory = try scionDirectory(wrong: false)
        defer { directory.remove() }
        let run = await runTool(["check", directory.path])
        #expect(run.status == 0)
        #expect(run.standardOutput == "1 passed, 0 failed\n")
    }

    @Test("check: a wrong expectation prints its first difference and exits 1")
    func checkFails() async throws {
        let directory = try scionDirectory(wrong: true)
        defer { directory.remove() }
        let run = await runTool(["check", directory.path])
        #expect(run.status == 1)
        #expect(
            run.standardOutput == """
                FAIL group/wrong: after event #2 'u': expected ["b"], got ["a"]
                1 passed, 1 failed

                """
        )
    }

    @Test(
        "check: the real SCION tests all pass",
        .enabled(if: Paths.scion != nil, Comment(rawValue: Paths.scionSkipReason))
    )
    func checkSCION() async throws {
        let run = await runTool(["check", try #require(Paths.scion)])
        #expect(run.status == 0)
        #expect(run.standardOutput == "55 passed, 0 failed\n")
    }

    @Test("check FILE runs that one test, by its .scxml or its .json")
    func checkOneFile() async throws {
        let directory = try scionDirectory(wrong: true)
        defer { directory.remove() }
        let right = await runTool(["check", directory.path + "/group/right.scxml"])
        #expect(right.status == 0)
        #expect(right.standardOutput == "1 passed, 0 failed\n")
        let wrong = await runTool(["check", directory.path + "/group/wrong.json"])
        #expect(wrong.status == 1)
        #expect(
            wrong.standardOutput
                == "FAIL wrong: after event #2 'u': expected [\"b\"], got [\"a\"]\n0 passed, 1 failed\n"
        )
        // A .scxml without its .json is a W3C test (see W3CCheckTests); another file is no test.
        let lonely = try directory.write("lonely.txt", "<scxml/>")
        let alone = await runTool(["check", lonely])
        #expect(alone.status == 2)
        #expect(
            alone.standardError
                == "statechart: \(lonely): not a conformance test (a .scxml with a .json beside it, a W3C .txml or .scxml) nor a directory of them\n"
        )
    }

    static let playerSkip =
        "player.json is not a SCION expectation file (no 'initialConfiguration' or 'events'); it looks like a statechart ('statechart run' reads it)"

    @Test("check skips a .scxml/.json pair that is not a test (a chart beside its SCXML twin), with a one-line reason")
    func checkSkipsCharts() async throws {
        let directory = try scionDirectory(wrong: false)
        defer { directory.remove() }
        for name in ["player.scxml", "player.json"] {
            try directory.write(name, try String(contentsOfFile: Paths.sample(name), encoding: .utf8))
        }
        let run = await runTool(["check", directory.path])
        #expect(run.status == 0)
        #expect(run.standardOutput == "SKIP player: \(Self.playerSkip)\n1 passed, 0 failed, 1 skipped\n")
        // The samples hold only the chart: it is skipped, and no test is left to run.
        let samples = await runTool(["check", Paths.sample("")])
        #expect(samples.status == 2)
        #expect(samples.standardOutput == "SKIP player: \(Self.playerSkip)\n")
        #expect(!samples.standardOutput.contains("DecodingError"))
        let one = await runTool(["check", Paths.sample("player.json")])
        #expect(one.status == 2)
        #expect(
            one.standardError == "statechart: \(Paths.sample("player.json")): not a SCION test: \(Self.playerSkip)\n"
        )
    }

    @Test(
        "check: expectations that do not decode fail the test with the reason in words",
        arguments: [
            (
                #"{"initialConfiguration": "a", "events": []}"#,
                "cannot read the expectations: initialConfiguration is not a list"
            ),
            (
                #"{"initialConfiguration": ["a"], "events": [{"event": {}, "nextConfiguration": []}]}"#,
                "cannot read the expectations: no 'name' in events[0].event"
            ),
            (
                #"{"initialConfiguration": ["a"], "events": [{"event": {"name": 3}, "nextConfiguration": []}]}"#,
                "cannot read the expectations: events[0].event.name is not a string"
            ),
            (
                #"{"initialConfiguration": ["a"], "events": [{"event": {"name": "t"}}]}"#,
                "cannot read the expectations: no 'nextConfiguration' in events[0]"
            ),
            (
                #"{"initialConfiguration": ["a"], "events": [{"event": {"name": "t"}, "after": "soon", "nextConfiguration": []}]}"#,
                "cannot read the expectations: events[0].after is not a whole number"
            ),
        ]
    )
    func checkExpectationErrors(json: String, reason: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("bad.scxml", "<scxml/>")
        try directory.write("bad.json", json)
        let run = await runTool(["check", directory.path])
        #expect(run.status == 1)
        #expect(run.standardOutput == "FAIL bad: \(reason)\n0 passed, 1 failed\n")
    }

    @Test("check: a missing path, or a directory without tests, exits 2")
    func checkBadDirectory() async throws {
        let missing = await runTool(["check", "/nonexistent/scion"])
        #expect(missing.status == 2)
        #expect(missing.standardError == "statechart: /nonexistent/scion: no such file or directory\n")
        let empty = try TemporaryDirectory()
        defer { empty.remove() }
        let none = await runTool(["check", empty.path])
        #expect(none.status == 2)
        #expect(
            none.standardError
                == "statechart: \(empty.path): no SCION tests (a .scxml with a .json beside it) nor W3C tests (a manifest.xml)\n"
        )
    }

    @Test(
        "bad files exit 2 with a message naming the file and the line, JSON path or element",
        arguments: [
            (
                "script.scxml",
                """
                <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
                  <state id="a">
                    <onentry><script>if (a && b) x = 1;</script></onentry>
                  </state>
                </scxml>
                """,
                "line 3, column 29: malformed XML: a name is required here; a bare '&' must be written '&amp;' (or put the text of <script> in <![CDATA[ ... ]]>)"
            ),
            (
                "broken.scxml",
                "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\">\n  <state id=\"a\">\n</scxml>\n",
                "line 3, column 9: malformed XML: an end tag does not match its start tag"
            ),
            (
                "target.scxml",
                """
                <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
                  <state id="a"><transition event="t" target="nowhere"/></state>
                </scxml>
                """,
                "line 2: <transition> refers to unknown state 'nowhere'"
            ),
            (
                "schema.json",
                #"{"name": "m", "states": [{"name": "a", "type": "box"}]}"#,
                "$.states[0].type: unknown state type 'box' (expected 'state', 'sub', 'parallel' or 'final')"
            ),
            (
                "malformed.json", "{\"name\": \"m\",\n \"states\": [}",
                "$: malformed JSON at line 2, column 13: Invalid value around character 26."
            ),
            ("chart.txt", "anything", "unknown kind of file (expected a .scxml or a .json chart)"),
        ]
    )
    func badFile(name: String, contents: String, message: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write(name, contents)
        for subcommand in ["diagram", "run"] {
            let run = await runTool([subcommand, file], input: ["quit"])
            #expect(run.status == 2, "\(subcommand) \(name)")
            #expect(run.standardError.hasPrefix("statechart: \(file): "), "\(run.standardError)")
            #expect(run.standardError.contains(message), "\(run.standardError)")
            #expect(run.standardOutput.isEmpty)
        }
    }

    @Test("a missing file exits 2")
    func missingFile() async {
        let run = await runTool(["run", "/nonexistent/chart.scxml"])
        #expect(run.status == 2)
        #expect(run.standardError == "statechart: /nonexistent/chart.scxml: no such file\n")
    }
}
