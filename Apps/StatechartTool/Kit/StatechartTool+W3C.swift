import Foundation
import StateMachineECMAScript
import StateMachineHierarchy
import StateMachineSCXML

// `statechart check` on the W3C SCXML tests: a directory with the W3C's manifest.xml, one
// `.txml` test (converted with xsltproc), or one converted `.scxml` (no `.json` beside it).

extension StatechartTool {
    /// Whether `url` is W3C tests: a directory with a manifest, a `.txml`, or a `.scxml`
    /// without the `.json` that would make it a SCION test.
    static func isW3C(_ url: URL, isDirectory: Bool) -> Bool {
        if isDirectory { return W3CSuite.isSuite(url) }
        switch url.pathExtension.lowercased() {
        case "txml": return true
        case "scxml":
            return !FileManager.default.fileExists(atPath: url.deletingPathExtension().path + ".json")
        default: return false
        }
    }

    /// Runs the W3C tests at `url` (see ``isW3C(_:isDirectory:)``): a `SKIP` line per
    /// manual test, a `FAIL` line per test that did not reach `pass` (with the outcome),
    /// then the summary.
    /// - Returns: 0 when every test that ran passed, 1 otherwise.
    /// - Throws: ``StatechartToolFailure``: status 2 when the manifest or the stylesheet is
    ///   missing, 1 when xsltproc is.
    static func checkW3C(
        _ url: URL,
        stylesheet: URL?,
        sources: SCXMLSourcePolicy,
        output: Output
    ) throws(StatechartToolFailure) -> Int32 {
        let path = url.path
        if url.pathExtension.lowercased() == "scxml" {
            return report(
                single: url,
                W3CConformance.run(url, dataModel: .ecmascript, sources: sources),
                output: output
            )
        }
        do {
            try W3CConverter.checkProgram()
        } catch {
            throw StatechartToolFailure(error.description, status: 1)
        }
        if url.pathExtension.lowercased() == "txml" {
            do {
                return report(
                    single: url,
                    try W3CSuite.run(file: url, stylesheet: stylesheet, dataModel: .ecmascript, sources: sources),
                    output: output
                )
            } catch {
                throw StatechartToolFailure(error.description)
            }
        }
        let suite: W3CSuite
        do {
            suite = try W3CSuite(directory: url, stylesheet: stylesheet)
        } catch {
            throw StatechartToolFailure(error.description)
        }
        guard !suite.tests.isEmpty else { throw StatechartToolFailure("\(path): the manifest lists no test") }
        let report = suite.runAll(dataModel: .ecmascript, sources: sources)
        var text = ""
        for skipped in report.skipped { text += "SKIP \(skipped.name): \(skipped.reason)\n" }
        for failure in report.failures { text += "FAIL \(failure.name): \(failure.outcome)\n" }
        text += report.summary + "\n"
        let passed = Set(report.passed)
        for conformance in [W3CTest.Conformance.mandatory, .optional] {
            let automatic = suite.tests.filter { !$0.isManual && $0.conformance == conformance }
            guard !automatic.isEmpty else { continue }
            let count = automatic.filter { passed.contains($0.name) }.count
            text += "\(conformance) automatic tests: \(count)/\(automatic.count) passed\n"
        }
        output.standardOutput(text)
        return report.allPassed ? 0 : 1
    }

    /// Prints the outcome of the one test `file`; returns the exit status.
    private static func report(single file: URL, _ outcome: W3CConformance.Outcome, output: Output) -> Int32 {
        let name = file.deletingPathExtension().lastPathComponent
        guard outcome != .pass else {
            output.standardOutput("1 passed, 0 failed\n")
            return 0
        }
        output.standardOutput("FAIL \(name): \(outcome)\n0 passed, 1 failed\n")
        return 1
    }
}
