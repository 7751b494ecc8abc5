import Foundation
import StateMachineHierarchy
import StateMachineSCXML

/// A folder of W3C tests as the W3C publishes them: `manifest.xml`, the tests in `txml/`
/// beside it (or in the same folder) and the stylesheet `confEcma.xsl` beside the manifest.
public struct W3CSuite: Sendable {
    /// The manifest's tests, in its order.
    public let tests: [W3CTest]
    /// The folder of the `.txml` files.
    public let source: URL
    /// The converter, with the stylesheet given or found beside the manifest.
    public let converter: W3CConverter

    /// Whether `directory` holds a W3C manifest.
    public static func isSuite(_ directory: URL) -> Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent("manifest.xml").path)
    }

    /// The suite of `directory`, converted with `stylesheet` (nil: `confEcma.xsl` beside the
    /// manifest or in the tests' folder).
    /// - Throws: ``W3CConformanceError`` when the manifest cannot be read or the stylesheet
    ///   is not found.
    public init(directory: URL, stylesheet: URL? = nil) throws(W3CConformanceError) {
        tests = try W3CTest.manifest(contentsOf: directory.appendingPathComponent("manifest.xml"))
        let txml = directory.appendingPathComponent("txml")
        var isDirectory: ObjCBool = false
        source =
            FileManager.default.fileExists(atPath: txml.path, isDirectory: &isDirectory) && isDirectory.boolValue
            ? txml : directory
        converter = W3CConverter(stylesheet: try Self.stylesheet(stylesheet, near: source))
    }

    /// `given`, or `confEcma.xsl` near `folder`.
    static func stylesheet(_ given: URL?, near folder: URL) throws(W3CConformanceError) -> URL {
        if let given {
            guard FileManager.default.fileExists(atPath: given.path) else {
                throw W3CConformanceError("\(given.path): no such stylesheet")
            }
            return given
        }
        guard let found = W3CConverter.stylesheet(near: folder) else {
            throw W3CConformanceError(
                "\(folder.path): no \(W3CConverter.stylesheetName) here or in the folder above (give one with --stylesheet)"
            )
        }
        return found
    }

    /// The outcome of a whole suite.
    public struct Report: Sendable {
        /// The names of the tests that passed, in the manifest's order.
        public var passed: [String] = []
        /// The tests that did not pass, each with its outcome.
        public var failures: [(name: String, outcome: W3CConformance.Outcome)] = []
        /// The manual tests, not run, each with why.
        public var skipped: [(name: String, reason: String)] = []

        /// `N passed, M failed`, and `, K skipped` when tests were skipped.
        public var summary: String {
            "\(passed.count) passed, \(failures.count) failed" + (skipped.isEmpty ? "" : ", \(skipped.count) skipped")
        }

        /// Whether every test that ran passed.
        public var allPassed: Bool { failures.isEmpty }
    }

    /// Runs every automatic test (see ``W3CConformance/run(_:from:converter:dataModel:limits:)``),
    /// in the manifest's order; manual tests are skipped.
    public func runAll(
        dataModel: SCXMLDataModel? = nil,
        sources: SCXMLSourcePolicy = .documentFolder,
        limits: W3CConformance.Limits = W3CConformance.Limits()
    ) -> Report {
        var report = Report()
        for test in tests {
            if test.isManual {
                report.skipped.append((test.name, "a manual test (a person judges its outcome)"))
                continue
            }
            let outcome = W3CConformance.run(
                test,
                from: source,
                converter: converter,
                dataModel: dataModel,
                sources: sources,
                limits: limits
            )
            if outcome == .pass {
                report.passed.append(test.name)
            } else {
                report.failures.append((test.name, outcome))
            }
        }
        return report
    }

    /// Runs the one `.txml` test `file`: with its dependencies from the manifest when one is
    /// beside it or in the folder above (the W3C layout), else with the files beside it that
    /// it names (`file:test239sub1.scxml` names `test239sub1.txml`, `test446.txt` itself).
    /// - Throws: ``W3CConformanceError`` when no stylesheet is given or found.
    public static func run(
        file: URL,
        stylesheet: URL? = nil,
        dataModel: SCXMLDataModel? = nil,
        sources: SCXMLSourcePolicy = .documentFolder,
        limits: W3CConformance.Limits = W3CConformance.Limits()
    ) throws(W3CConformanceError) -> W3CConformance.Outcome {
        let folder = file.deletingLastPathComponent()
        let converter = W3CConverter(stylesheet: try Self.stylesheet(stylesheet, near: folder))
        return W3CConformance.run(
            test(forFile: file),
            from: folder,
            converter: converter,
            dataModel: dataModel,
            sources: sources,
            limits: limits
        )
    }

    /// The test of the one `.txml` file `file`: as the manifest beside it or in the folder
    /// above lists it (its conformance and dependencies), else a mandatory test with the
    /// files beside it that it names (see ``run(file:stylesheet:dataModel:sources:limits:)``).
    public static func test(forFile file: URL) -> W3CTest {
        let folder = file.deletingLastPathComponent()
        let name = file.lastPathComponent
        let manifest = [folder, folder.deletingLastPathComponent()].map { $0.appendingPathComponent("manifest.xml") }
            .first { FileManager.default.fileExists(atPath: $0.path) }
        let listed = manifest.flatMap { try? W3CTest.manifest(contentsOf: $0) }?.first { $0.documents.contains(name) }
        return W3CTest(
            id: listed?.id ?? String(name.dropLast(".txml".count)),
            conformance: listed?.conformance ?? .mandatory,
            isManual: listed?.isManual ?? false,
            specSection: listed?.specSection ?? "",
            documents: [name],
            dependencies: listed?.dependencies ?? namedFiles(in: file)
        )
    }

    /// The files beside `file` that it names: `NAME.scxml` stands for `NAME.txml`.
    static func namedFiles(in file: URL) -> [String] {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return [] }
        let folder = file.deletingLastPathComponent()
        var names: [String] = []
        for token in text.split(whereSeparator: { !($0.isLetter || $0.isNumber || "_.-".contains($0)) }) {
            var candidate = String(token)
            if candidate.hasSuffix(".scxml") { candidate = String(candidate.dropLast(".scxml".count)) + ".txml" }
            guard candidate.hasSuffix(".txml") || candidate.hasSuffix(".txt"), candidate != file.lastPathComponent,
                !names.contains(candidate),
                FileManager.default.fileExists(atPath: folder.appendingPathComponent(candidate).path)
            else { continue }
            names.append(candidate)
        }
        return names
    }
}
