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
    /// manual test, a `FAIL` line per test that did not reach `pass` (with the outcome, and
    /// `(optional)` for an optional test), then the summary, the mandatory and optional
    /// counts, and what the exit status counts.
    /// - Returns: 0 when every mandatory test that ran passed (with `strict`, every test), 1
    ///   otherwise.
    /// - Throws: ``StatechartToolFailure``: status 2 when the manifest or the stylesheet is
    ///   missing, 1 when xsltproc is.
    static func checkW3C(
        _ url: URL,
        stylesheet: URL?,
        sources: SCXMLSourcePolicy,
        strict: Bool = false,
        output: Output
    ) throws(StatechartToolFailure) -> Int32 {
        let path = url.path
        if url.pathExtension.lowercased() == "scxml" {
            return report(
                single: url,
                W3CConformance.run(url, dataModel: .ecmascript, sources: sources),
                conformance: .mandatory,
                strict: strict,
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
                    conformance: W3CSuite.test(forFile: url).conformance,
                    strict: strict,
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
        let conformance = Dictionary(suite.tests.map { ($0.name, $0.conformance) }) { first, _ in first }
        var text = ""
        for skipped in report.skipped { text += "SKIP \(skipped.name): \(skipped.reason)\n" }
        for failure in report.failures {
            let optional = conformance[failure.name] == .optional ? " (optional)" : ""
            text += "FAIL \(failure.name)\(optional): \(failure.outcome)\n"
        }
        text += report.summary + "\n"
        let passed = Set(report.passed)
        for kind in [W3CTest.Conformance.mandatory, .optional] {
            let automatic = suite.tests.filter { !$0.isManual && $0.conformance == kind }
            guard !automatic.isEmpty else { continue }
            let count = automatic.filter { passed.contains($0.name) }.count
            text += "\(kind) automatic tests: \(count)/\(automatic.count) passed\n"
        }
        let mandatoryFailed = report.failures.contains { conformance[$0.name] != .optional }
        let optionalFailed = report.failures.contains { conformance[$0.name] == .optional }
        if optionalFailed, !mandatoryFailed, !strict {
            text += "exit status 0: every mandatory test passed; optional failures count only with --strict\n"
        }
        output.standardOutput(text)
        return mandatoryFailed || (strict && optionalFailed) ? 1 : 0
    }

    /// Prints the outcome of the one test `file`, of `conformance`; returns the exit status
    /// (an optional test's failure is 0 unless `strict`).
    private static func report(
        single file: URL,
        _ outcome: W3CConformance.Outcome,
        conformance: W3CTest.Conformance,
        strict: Bool,
        output: Output
    ) -> Int32 {
        let name = file.deletingPathExtension().lastPathComponent
        guard outcome != .pass else {
            output.standardOutput("1 passed, 0 failed\n")
            return 0
        }
        guard conformance == .optional else {
            output.standardOutput("FAIL \(name): \(outcome)\n0 passed, 1 failed\n")
            return 1
        }
        output.standardOutput(
            "FAIL \(name) (optional): \(outcome)\n0 passed, 1 failed\n"
                + (strict ? "" : "exit status 0: an optional test; its failure counts only with --strict\n")
        )
        return strict ? 1 : 0
    }
}
