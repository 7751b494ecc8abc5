import Foundation
import StateMachineSupport

/// Turns the W3C's data-model-neutral tests (`.txml`) into SCXML documents with the W3C's
/// own stylesheet (`confEcma.xsl`, for the ECMAScript data model), run by Debian's
/// `xsltproc` (libxslt) as a child process: the `conf:` markers become `<final id="pass">`,
/// `target="fail"`, `datamodel="ecmascript"` and ECMAScript expressions.
///
/// `xsltproc` implements XSLT 1.0, and `confEcma.xsl` says `version="2.0"`: its templates that
/// use XSLT 2.0's `xsl:analyze-string` (`conf:idVal`, `conf:compareIDVal`..., conditions on
/// data-model variables, in 64 tests) would produce an empty attribute (`cond=""`). So
/// `confEcma.xsl` is applied through a stylesheet that imports it and restates those
/// templates in XSLT 1.0 (see ``restatesXSLT2``). A template `xsltproc` still cannot apply is
/// reported in ``Conversion/unappliedInstructions``.
public struct W3CConverter: Sendable {
    /// The W3C stylesheet's file name.
    public static let stylesheetName = "confEcma.xsl"
    /// The XSLT processor run, looked up on `PATH`.
    public static let program = "xsltproc"

    /// The stylesheet applied.
    public let stylesheet: URL
    /// Whether the stylesheet is applied through one that restates confEcma.xsl's XSLT 2.0
    /// templates in XSLT 1.0 (`W3CConverter+XSLT1.swift`).
    public let restatesXSLT2: Bool

    /// A converter applying `stylesheet`; `restatesXSLT2` defaults to whether it is named
    /// `confEcma.xsl` (the templates restated are that stylesheet's).
    public init(stylesheet: URL, restatesXSLT2: Bool? = nil) {
        self.stylesheet = stylesheet
        self.restatesXSLT2 = restatesXSLT2 ?? (stylesheet.lastPathComponent == Self.stylesheetName)
    }

    /// `confEcma.xsl` in `folder` or in the folder above it (the W3C layout keeps it beside
    /// `manifest.xml`, the tests in `txml/`); nil when neither has it.
    public static func stylesheet(near folder: URL) -> URL? {
        [folder, folder.deletingLastPathComponent()].map { $0.appendingPathComponent(stylesheetName) }
            .first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// Checks that `xsltproc` can be run, so that a missing program is said once, not for
    /// every test.
    /// - Throws: ``W3CConformanceError`` saying how to install it.
    public static func checkProgram() throws(W3CConformanceError) {
        do {
            _ = try Graphviz.run([program, "--version"], input: [], timeoutSeconds: 60)
        } catch .graphvizMissing {
            throw missingProgram
        } catch {
            throw W3CConformanceError("\(program) could not run: \(error)")
        }
    }

    private static let missingProgram = W3CConformanceError(
        "'\(program)' is not installed (or not on PATH); install Debian's xsltproc package (apt-get install xsltproc, or scripts/setup)"
    )

    /// One converted document.
    public struct Conversion: Sendable, Equatable {
        /// The SCXML document.
        public var scxml: [UInt8]
        /// The XSLT instructions `xsltproc` could not apply (`analyze-string`), whose
        /// attributes came out empty; empty when the conversion is complete.
        public var unappliedInstructions: [String]
    }

    /// Converts the `.txml` file `test`.
    /// - Throws: ``W3CConformanceError`` when `xsltproc` is missing or fails.
    public func convert(_ test: URL) throws(W3CConformanceError) -> Conversion {
        var applied = stylesheet
        if restatesXSLT2 {
            applied = FileManager.default.temporaryDirectory.appendingPathComponent(
                "w3c-xslt1-\(UUID().uuidString).xsl"
            )
            do {
                try Data(Self.xslt1Overlay(importing: stylesheet).utf8).write(to: applied)
            } catch {
                throw W3CConformanceError("\(applied.path): cannot be written (\(error.localizedDescription))")
            }
        }
        defer { if applied != stylesheet { try? FileManager.default.removeItem(at: applied) } }
        let outcome: Graphviz.Outcome
        do {
            // Graphviz.run is the package's one way to run a program with a deadline.
            outcome = try Graphviz.run(
                [Self.program, "--nonet", applied.path, test.path],
                input: [],
                timeoutSeconds: 60
            )
        } catch .graphvizMissing {
            throw Self.missingProgram
        } catch {
            throw W3CConformanceError("\(test.path): \(Self.program) could not run: \(error)")
        }
        let messages = String(decoding: outcome.error, as: UTF8.self)
        guard outcome.status == 0, !outcome.output.isEmpty else {
            throw W3CConformanceError(
                "\(test.path): \(Self.program) failed (exit status \(outcome.status)): \(messages.trimmingCharacters(in: .whitespacesAndNewlines))"
            )
        }
        // libxslt: "xsltApplySequenceConstructor: analyze-string was not compiled".
        var unapplied: [String] = []
        for line in messages.split(separator: "\n") where line.hasSuffix(" was not compiled") {
            let instruction = String(line.dropLast(" was not compiled".count).split(separator: " ").last ?? "")
            if !unapplied.contains(instruction) { unapplied.append(instruction) }
        }
        return Conversion(scxml: outcome.output, unappliedInstructions: unapplied)
    }

    /// Writes `test`'s documents and dependencies from the folder `source` into
    /// `destination`, side by side as the tests name them (`file:test239sub1.scxml`):
    /// each `.txml` converted to `.scxml`, other files (`.txt` data) copied.
    /// - Returns: the instructions `xsltproc` could not apply, by converted file name.
    /// - Throws: ``W3CConformanceError`` when a file is missing or a conversion fails.
    @discardableResult
    public func prepare(
        _ test: W3CTest,
        from source: URL,
        into destination: URL
    ) throws(W3CConformanceError) -> [String: [String]] {
        var unapplied: [String: [String]] = [:]
        for file in test.documents + test.dependencies {
            let input = source.appendingPathComponent(file)
            guard FileManager.default.fileExists(atPath: input.path) else {
                throw W3CConformanceError("\(input.path): no such file (named by \(test.name) in the manifest)")
            }
            do {
                if input.pathExtension == "txml" {
                    let name = Self.convertedName(file)
                    let conversion = try convert(input)
                    try Data(conversion.scxml).write(to: destination.appendingPathComponent(name))
                    if !conversion.unappliedInstructions.isEmpty { unapplied[name] = conversion.unappliedInstructions }
                } else {
                    try Data(contentsOf: input).write(to: destination.appendingPathComponent(file))
                }
            } catch let error as W3CConformanceError {
                throw error
            } catch {
                throw W3CConformanceError("\(destination.path): cannot write \(file) (\(error.localizedDescription))")
            }
        }
        return unapplied
    }

    /// The converted document's name: `test144.txml` is `test144.scxml`.
    public static func convertedName(_ file: String) -> String {
        file.hasSuffix(".txml") ? String(file.dropLast(".txml".count)) + ".scxml" : file
    }
}
