import Foundation
import StateMachineECMAScript
import StateMachineSCXML
import Testing

// Every input in Fuzz/Regressions/<target>/ (each once made a fuzz target crash, hang or
// fail its checks) and in the seed corpora Fuzz/Corpus/<target>/ runs through the same
// harness the fuzz target uses, as an ordinary test: a crash fails the run, and the
// harnesses check what must hold (snapshots survive JSON and restore, links read back).

/// The repository's `Fuzz` folder.
private let fuzzRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // FuzzRegressionTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // the repository
    .appendingPathComponent("Fuzz")

/// The files of `Fuzz/Regressions/<target>` and `Fuzz/Corpus/<target>`, sorted by name.
private func inputs(_ target: String) -> [URL] {
    ["Regressions", "Corpus"].flatMap { folder -> [URL] in
        let directory = fuzzRoot.appendingPathComponent(folder).appendingPathComponent(target)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { directory.appendingPathComponent($0) }
    }
}

@Suite("Fuzz regressions and seed corpora")
struct FuzzRegressionTests {
    static let targets: [(String, @Sendable (Data) -> Void)] = [
        ("scxml", SCXMLHarness.run),
        ("jsonchart", JSONChartHarness.run),
        ("snapshot", SnapshotHarness.run),
        ("semantics", ChartSemanticsHarness.run),
        ("export", ExportHarness.run),
        ("deeplink", DeepLinkHarness.run),
        ("commands", CommandHarness.run),
    ]

    @Test("Each kept input runs through its harness", arguments: targets.map(\.0))
    func replay(target: String) throws {
        let harness = try #require(Self.targets.first { $0.0 == target }?.1)
        let files = inputs(target)
        #expect(!files.isEmpty, "no inputs for \(target) in \(fuzzRoot.path)")
        for file in files {
            harness(try Data(contentsOf: file))
        }
    }
}

@Suite("Export round trip: the check can fail")
struct ExportRoundTripCheckTests {
    @Test("A document that differs from the export's output fails the round trip, for every seed chart")
    func alteredDocumentFails() throws {
        let files = inputs("export")
        #expect(!files.isEmpty)
        var checked = 0
        for file in files {
            let chart = SemanticsChart(decoding: try Data(contentsOf: file))
            #expect(ExportHarness.findings(in: chart) == nil, "\(file.lastPathComponent)")
            let exported = try SCXMLDocument.export(
                chart.typedDefinition(probe: SemanticsProbe(), named: true),
                options: SCXMLExportOptions(guardValues: chart.guardValues)
            )
            // Every state's enter placeholder renamed: the traces differ from the start.
            let altered = exported.replacingOccurrences(of: "<log label=\"in.", with: "<log label=\"altered.")
            let checker = ChartSemanticsHarness.Checker(chart: chart, exportedXML: altered)
            let document = try SCXMLDocument(xml: altered, dataModel: .ecmascript)
            // A chart whose start fails (an eventless loop) is compared no further: skipped.
            guard try checker.runSCXML(document).failedAt != 0 else { continue }
            checked += 1
            #expect(throws: ChartSemanticsHarness.Finding.self, "\(file.lastPathComponent)") {
                try checker.checkRoundTrip(document)
            }
        }
        #expect(checked >= files.count / 2, "only \(checked) of \(files.count) seed charts start")
    }
}
