import Foundation
import StateMachineSupport
import StatechartToolKit
import Terminal
import TestSupport
import Testing

/// Paths the tests use: the repository's samples and the SCION tests beside it.
enum Paths {
    /// The repository root (#filePath is <root>/Tests/StatechartToolTests/Support.swift).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A file of `Samples/Statecharts`.
    static func sample(_ name: String) -> String {
        root.appendingPathComponent("Samples/Statecharts/\(name)").path
    }

    /// `$SCION_DIR`, else `<repository>/../shared/conformance/scion`, if it exists.
    static let scion: String? = {
        if let path = ProcessInfo.processInfo.environment["SCION_DIR"], !path.isEmpty {
            return FileManager.default.fileExists(atPath: path) ? path : nil
        }
        let candidate = root.deletingLastPathComponent().appendingPathComponent("shared/conformance/scion").path
        return FileManager.default.fileExists(atPath: candidate) ? candidate : nil
    }()

    static let scionSkipReason =
        "skipped: SCION tests not found (set SCION_DIR or provide ../shared/conformance/scion next to the repository)"

    /// `$W3C_DIR`, else `<repository>/../shared/conformance/w3c`, if it holds the manifest.
    static let w3c: String? = {
        let given = ProcessInfo.processInfo.environment["W3C_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        let candidate = given ?? root.deletingLastPathComponent().appendingPathComponent("shared/conformance/w3c").path
        return FileManager.default.fileExists(atPath: candidate + "/manifest.xml") ? candidate : nil
    }()

    static let w3cSkipReason =
        "skipped: W3C tests not found (set W3C_DIR or provide ../shared/conformance/w3c next to the repository)"
}

/// A temporary directory, removed by `remove()`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("statechart-tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `text` to `name` (creating folders) and returns the file's path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        try Data(text.utf8).write(to: file)
        return file.path
    }

    var path: String { url.path }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// A SCION test directory with one passing test and, when `wrong` is set, one whose
/// expectation is deliberately wrong.
func scionDirectory(wrong: Bool) throws -> TemporaryDirectory {
    let directory = try TemporaryDirectory()
    let chart = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="a">
          <state id="a"><transition event="t" target="b"/></state>
          <state id="b"><transition event="u" target="a"/></state>
        </scxml>
        """
    try directory.write("group/right.scxml", chart)
    try directory.write(
        "group/right.json",
        #"{"initialConfiguration": ["a"], "events": [{"event": {"name": "t"}, "nextConfiguration": ["b"]}]}"#
    )
    if wrong {
        try directory.write("group/wrong.scxml", chart)
        try directory.write(
            "group/wrong.json",
            #"""
            {"initialConfiguration": ["a"], "events": [{"event": {"name": "t"}, "nextConfiguration": ["b"]},
             {"event": {"name": "u"}, "nextConfiguration": ["b"]}]}
            """#
        )
    }
    return directory
}

/// What an in-process run of the tool wrote.
struct ToolRun {
    var status: Int32
    var standardOutput: String
    var standardError: String
}

/// Collects what the tool writes.
final class CapturedOutput: Sendable {
    private let out = Lock("")
    private let err = Lock("")

    var output: StatechartTool.Output {
        StatechartTool.Output(
            standardOutput: { text in self.out.withLock { $0 += text } },
            standardError: { text in self.err.withLock { $0 += text } }
        )
    }

    var standardOutput: String { out.withLock { $0 } }
    var standardError: String { err.withLock { $0 } }
}

/// Runs the tool in-process with `arguments`; `run` reads `input` (one event per line)
/// from a scripted console. Returns the exit status and what it wrote; `console` gets the
/// frames and messages of `run`.
@MainActor
func runTool(_ arguments: [String], input: [String] = [], console: ScriptedConsole = ScriptedConsole()) async -> ToolRun
{
    let captured = CapturedOutput()
    for line in input { console.type(line) }
    console.endInput()
    let status = await StatechartTool.main(
        arguments: arguments,
        environment: [:],
        output: captured.output,
        makeConsole: { console }
    )
    return ToolRun(status: status, standardOutput: captured.standardOutput, standardError: captured.standardError)
}

/// Runs the built `statechart` with `input` piped in; see `runPiped`.
func runBinary(
    _ arguments: [String],
    input: String = "",
    seconds: Double = 60,
    environment: [String: String] = [:]
) async throws -> (status: Int32, text: String) {
    try await runPiped(executable("statechart"), arguments, input: input, seconds: seconds, environment: environment)
}
