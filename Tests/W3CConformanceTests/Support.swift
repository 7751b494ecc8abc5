import Foundation
import StatechartToolKit

/// Where the W3C tests are: `$W3C_DIR`, else `../shared/conformance/w3c` next to the
/// repository (the files are not copied into it), and what is read from there once.
enum W3C {
    /// The repository root (#filePath is <root>/Tests/W3CConformanceTests/Support.swift).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `$W3C_DIR`, else `<repository>/../shared/conformance/w3c`, when it holds `manifest.xml`.
    static let directory: URL? = {
        let environment = ProcessInfo.processInfo.environment["W3C_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        let candidate =
            environment.map { URL(fileURLWithPath: $0) }
            ?? repository.deletingLastPathComponent().appendingPathComponent("shared/conformance/w3c")
        let manifest = candidate.appendingPathComponent("manifest.xml")
        return FileManager.default.fileExists(atPath: manifest.path) ? candidate : nil
    }()

    static let skipReason =
        "skipped: W3C tests not found (set W3C_DIR or provide ../shared/conformance/w3c next to the repository)"

    /// The `.txml` files: `txml/` beside the manifest.
    static var source: URL? { directory?.appendingPathComponent("txml") }

    /// The manifest's tests, by id; empty when the directory is absent or unreadable.
    static let tests: [String: W3CTest] = {
        guard let directory,
            let tests = try? W3CTest.manifest(contentsOf: directory.appendingPathComponent("manifest.xml"))
        else { return [:] }
        return Dictionary(tests.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }()

    /// The manifest's test ids in numeric order, the arguments of the parameterised tests.
    static let ids: [String] = tests.keys.sorted { Int($0) ?? 0 < Int($1) ?? 0 }

    /// The converter with the stylesheet beside the manifest.
    static var converter: W3CConverter? {
        directory.map { W3CConverter(stylesheet: $0.appendingPathComponent(W3CConverter.stylesheetName)) }
    }
}
