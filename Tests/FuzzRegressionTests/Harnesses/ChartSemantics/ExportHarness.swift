import Foundation
import StateMachineECMAScript
import StateMachineHierarchy
import StateMachineSCXML

/// Fuzz harness: the SCXML export round trip. The bytes decode into a ``SemanticsChart``
/// (the semantics fuzzer's structure-aware generator) and its script; the chart is built
/// as a typed DSL chart whose every block is named (enter `in.<id>`, exit `out.<id>`,
/// action `t<n>`, guard `g<n>` holding a constant: see
/// `SemanticsChart.typedDefinition(probe:named:)`), exported with
/// `SCXMLDocument.export(_:options:)` (the guards' values in its `guards` table), loaded
/// again (with the ECMAScript data model that `guard('NAME')` needs) and run beside the
/// typed chart on manual clocks. After `start` and every step both configurations must be
/// legal, and both forms must have the same active states and the same trace: entries,
/// exits, and the placeholder `<log>`s of every enter, exit and transition action in the
/// order the typed blocks ran them (delayed transitions fire as the clock advances); a
/// macrostep that fails must fail in both at the same event. The export must accept
/// every such chart: all its blocks are named and its wildcards avoid timers' events.
///
/// A failure prints the exported document, the typed chart as Swift, the script and both
/// runs, then traps, so that libFuzzer keeps the input. Shared by `FuzzExport` and the
/// regression tests (the same file, linked).
enum ExportHarness {
    /// Decodes `data` and checks the round trip; traps, after printing the report, when
    /// a check fails.
    static func run(_ data: Data) {
        let chart = SemanticsChart(decoding: data)
        guard let finding = findings(in: chart) else { return }
        FileHandle.standardError.write(Data(finding.report.utf8))
        fatalError("export round trip: \(finding.message)")
    }

    /// The first check the round trip of `chart` fails, or nil.
    static func findings(in chart: SemanticsChart) -> ChartSemanticsHarness.Finding? {
        let definition = chart.typedDefinition(probe: SemanticsProbe(), named: true)
        let xml: String
        do {
            xml = try SCXMLDocument.export(definition, options: SCXMLExportOptions(guardValues: chart.guardValues))
        } catch {
            return ChartSemanticsHarness.Checker(chart: chart, exportedXML: "(not exported)")
                .fail("the export refuses the typed chart", detail: "\(error)")
        }
        let checker = ChartSemanticsHarness.Checker(chart: chart, exportedXML: xml)
        let document: SCXMLDocument
        do {
            document = try SCXMLDocument(xml: xml, dataModel: .ecmascript)
        } catch {
            return checker.fail("the exported document does not load", detail: "\(error)")
        }
        do {
            try checker.checkRoundTrip(document)
            return nil
        } catch {
            return error
        }
    }
}
