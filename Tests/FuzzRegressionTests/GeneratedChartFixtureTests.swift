import Foundation
import StateMachineECMAScript
import StateMachineSCXML
import Testing

// The fixed set of generated charts that also goes through the ChartCompilerPlugin: the first
// charts of the semantics fuzzer's generator (on fixed pseudo-random inputs) that export and
// run their whole script, written into the client package Samples/ChartsAsSwift as
// Sources/Charts/generated-NN.scxml (the plugin compiles each into the class GeneratedNN),
// with the steps the typed original takes in Tests/ChartsTests/GeneratedSteps/generated-NN.json.
// This test checks that both files are what the export and the typed chart give today;
// Samples/ChartsAsSwift's tests check that the generated Swift takes those steps.
// CHART_FIXTURES=write rewrites them (after a change of the export or the generator).

/// The repository.
private let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // FuzzRegressionTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()

/// What Samples/ChartsAsSwift's tests replay: the script, and the typed original's active
/// states after `start` and after each step.
struct GeneratedChartSteps: Codable, Equatable {
    /// One step of the script: an event sent, or the clock advanced.
    struct Step: Codable, Equatable {
        /// The event's name, for an event.
        var event: String?
        /// The seconds the clock moves, for an advance.
        var advance: Int?
    }

    /// The chart's input: `GeneratedChartFixtureTests.input(_:)` of this number.
    var input: UInt64
    /// The script.
    var steps: [Step]
    /// The active states (sorted) after `start`, then after each step.
    var configurations: [[String]]
}

@Suite("Generated charts through the plugin: the fixed set")
struct GeneratedChartFixtureTests {
    /// How many charts the set holds.
    static let count = 6

    /// The input bytes of generated chart `k`: 512 bytes of SplitMix64 seeded with `k`
    /// (the generator reads its structure from them, as from a fuzzer's input).
    static func input(_ k: UInt64) -> Data {
        var state = k
        var bytes: [UInt8] = []
        while bytes.count < 512 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            withUnsafeBytes(of: z.littleEndian) { bytes.append(contentsOf: $0) }
        }
        return Data(bytes)
    }

    /// The set, computed now: (file stem, document, steps) of the first charts, by `k` from
    /// 0, that export, run their whole script without a failed step (typed and exported) and
    /// reach at least three configurations.
    static func fixtures() throws -> [(String, String, GeneratedChartSteps)] {
        var fixtures: [(String, String, GeneratedChartSteps)] = []
        for k in UInt64(0)..<2_000 where fixtures.count < count {
            let chart = SemanticsChart(decoding: input(k))
            guard
                !chart.script.isEmpty,
                let xml = try? SCXMLDocument.export(
                    chart.typedDefinition(probe: SemanticsProbe(), named: true),
                    options: SCXMLExportOptions(guardValues: chart.guardValues)
                )
            else { continue }
            let checker = ChartSemanticsHarness.Checker(chart: chart, exportedXML: xml)
            let run = try checker.runTyped()
            // A chart whose start or a step fails (an eventless loop the typed chart stops
            // while SCXML reports it) is not one whose steps the round trip compares: skipped.
            let exported = try checker.runSCXML(try SCXMLDocument(xml: xml, dataModel: .ecmascript))
            guard run.failedAt == nil, exported.failedAt == nil else { continue }
            let configurations = (0...chart.script.count).map { run.records[$0]?.configuration.sorted() ?? [] }
            guard Set(configurations).count >= 3 else { continue }
            let number = String(format: "%02d", fixtures.count + 1)
            guard let name = xml.range(of: #" name="semantics""#) else { throw FixtureError.unnamed(k) }
            let document = xml.replacingCharacters(in: name, with: #" name="generated \#(number)""#)
            let steps = chart.script.map { step -> GeneratedChartSteps.Step in
                switch step {
                case .event(let event): GeneratedChartSteps.Step(event: event)
                case .advance(let seconds): GeneratedChartSteps.Step(advance: seconds)
                }
            }
            fixtures.append(
                (
                    "generated-\(number)", document,
                    GeneratedChartSteps(input: k, steps: steps, configurations: configurations)
                )
            )
        }
        return fixtures
    }

    enum FixtureError: Error { case unnamed(UInt64) }

    @Test("Samples/ChartsAsSwift holds the export of the first generated charts and the steps of their typed originals")
    func fixturesAreCurrent() throws {
        let fixtures = try Self.fixtures()
        #expect(fixtures.count == Self.count, "only \(fixtures.count) generated charts qualify")
        let sample = repository.appendingPathComponent("Samples/ChartsAsSwift")
        let charts = sample.appendingPathComponent("Sources/Charts")
        let stepsFolder = sample.appendingPathComponent("Tests/ChartsTests/GeneratedSteps")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let write = ProcessInfo.processInfo.environment["CHART_FIXTURES"] == "write"
        for (stem, document, steps) in fixtures {
            let json = String(decoding: try encoder.encode(steps), as: UTF8.self) + "\n"
            let chartFile = charts.appendingPathComponent("\(stem).scxml")
            let stepsFile = stepsFolder.appendingPathComponent("\(stem).json")
            if write {
                try FileManager.default.createDirectory(at: stepsFolder, withIntermediateDirectories: true)
                try document.write(to: chartFile, atomically: true, encoding: .utf8)
                try json.write(to: stepsFile, atomically: true, encoding: .utf8)
            }
            let hint = "; CHART_FIXTURES=write swift test --filter GeneratedChartFixtureTests rewrites it"
            #expect(
                (try? String(contentsOf: chartFile, encoding: .utf8)) == document,
                "\(chartFile.path) differs\(hint)"
            )
            #expect((try? String(contentsOf: stepsFile, encoding: .utf8)) == json, "\(stepsFile.path) differs\(hint)")
            // The exported document loads and takes the same steps as its typed original
            // (the export fuzz target's check), so the steps are the document's too.
            #expect(ExportHarness.findings(in: SemanticsChart(decoding: Self.input(steps.input))) == nil, "\(stem)")
        }
    }
}
