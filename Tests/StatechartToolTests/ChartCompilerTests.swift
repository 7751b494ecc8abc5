import Foundation
import TestSupport
import Testing

/// The chart compiler the ChartCompilerPlugin runs at build time (`Apps/ChartCompiler`): what it
/// generates, and how a chart that does not load fails the build. Samples/ChartsAsSwift runs
/// the plugin itself, in a client package.
@Suite("ChartCompiler")
struct ChartCompilerTests {
    static let compiler = executable("ChartCompiler")

    /// Writes `text` to a file named `name` in a fresh folder, runs the compiler on it, and
    /// returns its status, its output and the generated Swift.
    static func compile(_ name: String, _ text: String) async throws -> (status: Int32, text: String, swift: String?) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chart-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let chart = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: chart)
        let output = folder.appendingPathComponent("out.swift")
        let (status, printed) = try await runPiped(compiler, [chart.path, output.path], input: "", seconds: 60)
        let swift = try? String(contentsOf: output, encoding: .utf8)
        return (status, printed.replacingOccurrences(of: folder.path + "/", with: ""), swift)
    }

    @Test("a chart that does not load fails with FILE:LINE:COLUMN: error: and the loader's message")
    func errors() async throws {
        let unknown = try await Self.compile(
            "door.scxml",
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="closed">
              <state id="closed">
                <transition event="open" target="nowhere"/>
              </state>
            </scxml>
            """
        )
        #expect(unknown.status == 1)
        #expect(unknown.text == "door.scxml:3:1: error: <transition> refers to unknown state 'nowhere'\n")
        #expect(unknown.swift == nil)
        let malformed = try await Self.compile(
            "bad.scxml",
            "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\">\n  <state id=\"a\">\n</scxml>\n"
        )
        #expect(malformed.status == 1)
        #expect(malformed.text.hasPrefix("bad.scxml:3:"))
        #expect(malformed.text.contains(": error: malformed XML"))
        let json = try await Self.compile("broken.chart.json", "{\"name\": \"x\", \"states\": [")
        #expect(json.status == 1)
        #expect(json.text.hasPrefix("broken.chart.json:"))
        #expect(json.text.contains(": error: "))
        let (usage, usageText) = try await runPiped(Self.compiler, [], input: "", seconds: 60)
        #expect(usage == 2)
        #expect(usageText.hasPrefix("usage: ChartCompiler"))
    }

    @Test("the generated class names every state and event, with the file and line of each")
    func generated() async throws {
        let result = try await Self.compile(
            "traffic-light.scxml",
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="red" name="traffic light">
              <state id="red"><transition event="timer.tick" target="green"/></state>
              <state id="green"><transition event="timer.*" target="red"><raise event="switched"/></transition></state>
              <final id="class"/>
            </scxml>
            """
        )
        #expect(result.status == 0, "\(result.text)")
        let swift = try #require(result.swift)
        #expect(swift.contains("public final class TrafficLight {"))
        #expect(swift.contains("/// `red` (atomic), traffic-light.scxml line 2.\n        case red = \"red\""))
        #expect(swift.contains("case `class` = \"class\""))
        #expect(
            swift.contains(
                "/// `timer.tick`: taken by the transitions of red (line 2).\n        case timerTick = \"timer.tick\""
            )
        )
        #expect(
            swift.contains("/// `timer`: taken by the transitions of green (line 3).\n        case timer = \"timer\"")
        )
        #expect(
            swift.contains(
                "/// `switched`: raised or sent by the chart (line 3).\n        case switched = \"switched\""
            )
        )
        #expect(swift.contains("dataModel: SCXMLDataModel? = nil"))
    }
}

extension ChartCompilerTests {
    /// The repository (this file is Tests/StatechartToolTests/ChartCompilerTests.swift).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test(
        "the article's generated code is what the compiler generates for the sample charts",
        arguments: [
            ("traffic-light.scxml", "TrafficLight+Chart.swift"),
            ("player-exported.scxml", "Player+ExportedChart.swift"),
        ]
    )
    func articleExample(chartName: String, snippetName: String) async throws {
        let chart = try String(
            contentsOf: Self.root.appendingPathComponent("Samples/Statecharts/\(chartName)"),
            encoding: .utf8
        )
        let result = try await Self.compile(chartName, chart)
        #expect(result.status == 0, "\(result.text)")
        let snippet = try String(
            contentsOf: Self.root.appendingPathComponent("Tests/ReadmeTests/Snippets/\(snippetName)"),
            encoding: .utf8
        )
        let shown = snippet.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(4).joined(
            separator: "\n"
        )
        #expect(
            result.swift == shown,
            "regenerate Tests/ReadmeTests/Snippets/\(snippetName) (its first four lines kept)"
        )
    }
}
