import Foundation
import StateMachineHierarchy
import StateMachineSCXML
import Testing

// Check (e) of the chart semantics harness, on charts written out: a chart runs the same
// unobserved, observed and with a debug sink. The seed corpora and kept regressions run it
// too (FuzzRegressionTests); these pin the case that once differed.

@Suite("Chart semantics: being watched changes nothing")
struct WatchedDifferentialTests {
    /// A chart of one top-level final state `f1`, whose exit content is `onExit`, and a
    /// script of one event.
    static func finalChart(onExit: [SemanticsChart.Content]) -> SemanticsChart {
        var chart = SemanticsChart(decoding: Data())
        chart.states = [SemanticsChart.State(id: "f1", kind: .final, onExit: onExit)]
        chart.histories = []
        chart.transitions = []
        chart.rootChildren = [0]
        chart.rootInitial = 0
        chart.script = [.event("a")]
        chart.snapshotAfter = 0
        return chart
    }

    @Test("A session's final <onexit> logs the same unobserved, observed and with a debug sink")
    func finalExitLogs() throws {
        let chart = Self.finalChart(onExit: [.log("L0"), .raise("q")])
        let checker = ChartSemanticsHarness.Checker(chart: chart)
        let document = try SCXMLDocument(xml: checker.xml)
        var logs: [ChartSemanticsHarness.Watching: [String]] = [:]
        for watching in [ChartSemanticsHarness.Watching.observed, .unobserved, .debugSink] {
            let run = try checker.runSCXML(document, watching: watching)
            logs[watching] = try #require(run.records[0]).logs
        }
        #expect(logs[.observed] == ["log:L0"])
        #expect(logs[.unobserved] == ["log:L0"])
        #expect(logs[.debugSink] == ["log:L0"])
        // The typed twin under .scxml runs the same exit block, watched or not.
        for watching in [ChartSemanticsHarness.Watching.unobserved, .observed, .debugSink] {
            let run = try checker.runTyped(watching: watching)
            #expect(try #require(run.records[0]).trace == ["enter:f1", "exit:f1", "log:L0"])
        }
        #expect(ChartSemanticsHarness.findings(in: chart) == nil)
    }

    @Test("Every seed chart passes check (e) with its exits made to log")
    func seedsWithLoggingExits() throws {
        let corpus = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/Corpus/semantics")
        let names = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter { !$0.hasPrefix(".") }
        #expect(!names.isEmpty)
        for name in names.sorted() {
            var chart = SemanticsChart(decoding: try Data(contentsOf: corpus.appendingPathComponent(name)))
            for index in chart.states.indices {
                chart.states[index].onExit.append(.log("exit \(chart.states[index].id)"))
            }
            let finding = ChartSemanticsHarness.findings(in: chart)
            #expect(finding == nil, "\(name): \(finding?.report ?? "")")
        }
    }
}
