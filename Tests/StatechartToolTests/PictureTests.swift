import Foundation
import StateMachineHierarchy
import TestSupport
import Testing

/// `diagram --format svg|png`, `run --record` and `view`: pictures of charts and the page
/// that steps through a run.
@Suite("statechart pictures")
@MainActor
struct PictureTests {
    static let playerStates = [
        "boot", "selftest", "booted", "on", "deck", "transport", "stopped", "playing", "paused", "volume", "loud",
        "muted", "off",
    ]

    @Test(
        "diagram --format svg -o and --format png -o write images; the SVG names every state",
        arguments: ["scxml", "json"]
    )
    func images(kind: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let svg = directory.url.appendingPathComponent("p.svg").path
        let png = directory.url.appendingPathComponent("p.png").path
        let file = Paths.sample("player.\(kind)")
        #expect(await runTool(["diagram", file, "--format", "svg", "-o", svg]).status == 0)
        #expect(await runTool(["diagram", file, "--format", "png", "--output", png]).status == 0)
        let svgBytes = Array(try Data(contentsOf: URL(fileURLWithPath: svg)))
        // The JSON chart's parallel state has two unnamed regions, the SCXML document's two states.
        let states =
            kind == "json" ? Self.playerStates.filter { $0 != "transport" && $0 != "volume" } : Self.playerStates
        #expect(ImageChecks.statesMissing(from: svgBytes, states) == [])
        let size = try #require(ImageChecks.pngSize(Array(try Data(contentsOf: URL(fileURLWithPath: png)))))
        #expect(size.width > 200 && size.height > 200)
    }

    @Test("diagram -o PATH takes the format from the extension: real images, DOT, Mermaid, never text in an image")
    func formatFromExtension() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = Paths.sample("player.scxml")
        let png = directory.url.appendingPathComponent("p3.png").path
        let svg = directory.url.appendingPathComponent("p3.svg").path
        let dot = directory.url.appendingPathComponent("p3.gv").path
        let mermaid = directory.url.appendingPathComponent("p3.mmd").path
        for path in [png, svg, dot, mermaid] {
            let run = await runTool(["diagram", file, "-o", path])
            #expect(run.status == 0, "\(path): \(run.standardError)")
        }
        #expect(ImageChecks.pngSize(Array(try Data(contentsOf: URL(fileURLWithPath: png)))) != nil)
        #expect(
            ImageChecks.statesMissing(from: Array(try Data(contentsOf: URL(fileURLWithPath: svg))), Self.playerStates)
                == []
        )
        #expect(try String(contentsOfFile: dot, encoding: .utf8).hasPrefix("digraph \"player\" {"))
        #expect(try String(contentsOfFile: mermaid, encoding: .utf8).hasPrefix("stateDiagram-v2"))
        let jpeg = directory.url.appendingPathComponent("p3.jpg").path
        let refused = await runTool(["diagram", file, "-o", jpeg])
        #expect(refused.status == 2)
        #expect(refused.standardError.hasPrefix("statechart: cannot tell the format of '\(jpeg)' from its extension"))
        #expect(!FileManager.default.fileExists(atPath: jpeg))
    }

    @Test("diagram --format svg without -o prints the SVG")
    func svgToStandardOutput() async {
        let run = await runTool(["diagram", Paths.sample("player.scxml"), "--format", "svg"])
        #expect(run.status == 0)
        #expect(ImageChecks.statesMissing(from: Array(run.standardOutput.utf8), Self.playerStates) == [])
    }

    @Test("a file that cannot be written is exit status 1, naming the path")
    func unwritable() async {
        let run = await runTool([
            "diagram", Paths.sample("player.scxml"), "--format", "svg", "-o", "/nonexistent/dir/p.svg",
        ])
        #expect(run.status == 1)
        #expect(run.standardError.hasPrefix("statechart: /nonexistent/dir/p.svg: cannot write: "))
    }

    @Test("run --record writes each step; view turns it into a page whose data are those steps")
    func recordAndView() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let trace = directory.url.appendingPathComponent("trace.json").path
        let page = directory.url.appendingPathComponent("run.html").path
        let file = Paths.sample("player.scxml")
        let run = await runTool(["run", file, "--record", trace], input: ["ready", "play", "mute", "power", "power"])
        #expect(run.status == 0)
        // It says where it wrote.
        #expect(run.standardOutput == "Recorded 6 steps to \(trace)\n")
        let recorded = try JSONDecoder().decode(
            StatechartTrace.self,
            from: Data(contentsOf: URL(fileURLWithPath: trace))
        )
        #expect(recorded.chart == "player")
        #expect(recorded.steps.map(\.event) == [nil, "ready", "play", "mute", "power", "power"])
        #expect(recorded.steps[0].configuration == ["boot", "selftest"])
        #expect(recorded.steps[2].exited == ["stopped"])
        #expect(recorded.steps[2].entered == ["playing"])
        #expect(recorded.steps[4].configuration == ["off"])
        // The deep history brings back both regions.
        #expect(recorded.steps[5].configuration == ["on", "deck", "transport", "playing", "volume", "muted"])

        #expect(await runTool(["view", file, "--trace", trace, "-o", page]).status == 0)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<svg"))
        #expect(html.contains(#"{"event":"mute","exited":["loud"],"entered":["muted"]"#))
    }

    @Test("run --record on a chart with data records each step's executable content and variables; view shows them")
    func recordsContentAndVariables() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let trace = directory.url.appendingPathComponent("calc.json").path
        let page = directory.url.appendingPathComponent("calc.html").path
        let file = Paths.sample("calculator.scxml")
        let run = await runTool(
            ["run", file, "--record", trace],
            input: ["digit.7", "oper.plus", "digit.5", "equals"]
        )
        #expect(run.status == 0)
        let recorded = try JSONDecoder().decode(
            StatechartTrace.self,
            from: Data(contentsOf: URL(fileURLWithPath: trace))
        )
        #expect(recorded.steps.map(\.event) == [nil, "digit.7", "oper.plus", "digit.5", "equals"])
        #expect(recorded.steps[1].actions == ["assign display"])
        #expect(recorded.steps[2].actions == ["assign accumulator", "assign operator"])
        #expect(recorded.steps[0].variables == ["display": .string("0"), "accumulator": .number(0), "operator": .null])
        #expect(recorded.steps[1].variables?["display"] == .string("7"))
        #expect(
            recorded.steps[4].variables == ["display": .string("12"), "accumulator": .number(7), "operator": .null]
        )
        #expect(await runTool(["view", file, "--trace", trace, "-o", page]).status == 0)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(
            html.contains(
                #""actions":["assign display"],"configuration":["on","first"],"variables":[["accumulator","0"],["display","\"7\""],["operator","null"]]"#
            )
        )
        #expect(html.contains(#"<table id="variables">"#))
        // A chart without data records no variables, and its JSON has none.
        let player = directory.url.appendingPathComponent("player.json").path
        _ = await runTool(["run", Paths.sample("player.json"), "--record", player], input: ["ready"])
        #expect(!(try String(contentsOfFile: player, encoding: .utf8)).contains("variables"))
    }

    @Test("view without a trace shows the start; a JSON chart's run records its notifications")
    func viewWithoutTrace() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let page = directory.url.appendingPathComponent("start.html").path
        #expect(await runTool(["view", Paths.sample("player.json"), "-o", page]).status == 0)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains(#""steps":[{"event":null,"exited":[],"entered":["boot","selftest"]"#))
    }

    @Test("view with a trace that is not one, or one of another chart, says so and exits 2")
    func badTraces() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let page = directory.url.appendingPathComponent("p.html").path
        let notJSON = try directory.write("a.json", "[1, 2]")
        var run = await runTool(["view", Paths.sample("player.scxml"), "--trace", notJSON, "-o", page])
        #expect(run.status == 2)
        #expect(
            run.standardError.hasPrefix("statechart: \(notJSON): not a trace written by 'statechart run --record': ")
        )
        let other = try directory.write(
            "other.json",
            #"{"chart": "x", "steps": [{"exited": [], "entered": ["nowhere"], "actions": [], "configuration": ["nowhere"]}]}"#
        )
        run = await runTool(["view", Paths.sample("player.scxml"), "--trace", other, "-o", page])
        #expect(run.status == 2)
        #expect(
            run.standardError
                == "statechart: \(other): step 0 names the state 'nowhere', which the chart 'player' does not have (a trace of another chart?)\n"
        )
        let missingKey = try directory.write("m.json", #"{"chart": "x"}"#)
        run = await runTool(["view", Paths.sample("player.scxml"), "--trace", missingKey, "-o", page])
        #expect(run.standardError.hasSuffix("missing 'steps'\n"))
        run = await runTool([
            "view", Paths.sample("player.scxml"), "--trace", directory.path + "/none.json", "-o", page,
        ])
        #expect(run.status == 2)
        #expect(run.standardError.hasPrefix("statechart: \(directory.path)/none.json: cannot read the trace"))
        #expect(!FileManager.default.fileExists(atPath: page))
    }

    @Test("without Graphviz on PATH: a clear error and exit 1, nothing written (the built tool)")
    func graphvizMissing() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let svg = directory.url.appendingPathComponent("p.svg").path
        let (status, text) = try await runBinary(
            ["diagram", Paths.sample("player.scxml"), "--format", "svg", "-o", svg],
            environment: ["PATH": directory.path]
        )
        #expect(status == 1)
        #expect(
            text
                == "statechart: Graphviz's 'dot' program is not installed (or not on PATH); install Debian's graphviz package (apt-get install graphviz, or scripts/setup)\n"
        )
        #expect(!FileManager.default.fileExists(atPath: svg))
    }
}

/// The pictures of the sample charts in the Hierarchy and SCXML catalogs are the charts of today:
/// `scripts/diagrams` wrote each DOT file with `statechart diagram FILE --format dot`.
@Suite("statechart, the docs' pictures")
@MainActor
struct DocPictureTests {
    @Test(
        "the nested JSON chart's and the SCXML sample's pictures are drawn from the charts as they are",
        arguments: [
            ("Tests/StateMachineHierarchyTests/Fixtures/nested.json", "StateMachineHierarchy", "nested"),
            ("Samples/Statecharts/player.scxml", "StateMachineSCXML", "player-scxml"),
        ]
    )
    func pictures(file: String, catalog: String, picture: String) async throws {
        let run = await runTool(["diagram", Paths.root.appendingPathComponent(file).path, "--format", "dot"])
        #expect(run.status == 0)
        let checkedIn = try String(
            contentsOf: Paths.root.appendingPathComponent(
                "Modules/\(catalog)/\(catalog).docc/Resources/\(picture).dot"
            ),
            encoding: .utf8
        )
        #expect(
            run.standardOutput == checkedIn,
            "StateMachineHierarchy.docc/Resources/\(picture).svg no longer shows \(file): run scripts/diagrams"
        )
    }
}
