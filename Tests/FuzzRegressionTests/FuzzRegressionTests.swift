import Foundation
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
