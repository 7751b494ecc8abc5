import Foundation
import StatechartToolKit
import Terminal
import Testing

/// The document of issue 45 through the tool: with the default settings its `src` attributes
/// may read only inside its own folder, so it does not load; `--allow-sources /etc` lets it.
@Suite("statechart: sources")
struct SourcePolicyToolTests {
    /// The issue's document in a fresh folder, its `h` reaching /etc/hostname through as many
    /// `..` as the folder is deep.
    static func issueDocument() throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory()
        let depth = directory.url.standardizedFileURL.pathComponents.count - 1
        let hostname = String(repeating: "../", count: depth) + "etc/hostname"
        let file = try directory.write(
            "hostile.scxml",
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="s">
              <datamodel><data id="p" src="file:///etc/passwd"/><data id="h" src="\(hostname)"/></datamodel>
              <state id="s"><onentry><log label="p" expr="String(p).slice(0,40)"/></onentry></state>
            </scxml>
            """
        )
        #expect(directory.url.appendingPathComponent(hostname).standardizedFileURL.path == "/etc/hostname")
        return (directory, file)
    }

    @Test("run, view and diagram refuse the document, naming <data src> and the policy, without its contents")
    func refusedByDefault() async throws {
        let (directory, file) = try Self.issueDocument()
        defer { directory.remove() }
        let page = directory.url.appendingPathComponent("page.html").path
        for arguments in [["run", file], ["view", file, "-o", page], ["diagram", file]] {
            let run = await runTool(arguments)
            #expect(run.status == 2)
            #expect(run.standardOutput.isEmpty)
            #expect(
                run.standardError.hasPrefix(
                    "statechart: \(file): line 2: <data src=\"file:///etc/passwd\"> refused by the source policy: '/etc/passwd' is outside the allowed folders"
                ),
                "\(run.standardError)"
            )
            #expect(run.standardError.contains("--allow-sources DIR"))
            #expect(!run.standardError.contains("root:"))
        }
        #expect(!FileManager.default.fileExists(atPath: page))
    }

    @Test("--allow-sources /etc lets it load (both sources, the .. one included), and run logs the first line")
    func allowedFolder() async throws {
        let (directory, file) = try Self.issueDocument()
        defer { directory.remove() }
        let console = ScriptedConsole()
        let run = await runTool(["run", file, "--allow-sources", "/etc"], console: console)
        #expect(run.status == 0, "\(run.standardError)")
        let passwd = try String(contentsOfFile: "/etc/passwd", encoding: .utf8)
        let shown = String(passwd.split(whereSeparator: \.isWhitespace).joined(separator: " ").prefix(12))
        #expect(console.output.joined(separator: "\n").contains(shown), "\(console.output)")
        let page = directory.url.appendingPathComponent("page.html").path
        let view = await runTool(["view", file, "-o", page, "--allow-sources=/tmp", "--allow-sources", "/etc"])
        #expect(view.status == 0, "\(view.standardError)")
        // Only the folder allowed counts: another one does not let /etc/passwd in.
        let other = await runTool(["run", file, "--allow-sources", directory.url.path])
        #expect(other.status == 2)
    }

    @Test("check runs each test with its own folder's sources, and --allow-sources adds a folder")
    func checkAllowsSources() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try directory.write("shared/answer.json", #"{"value": 42}"#)
        _ = try directory.write(
            "tests/reads.scxml",
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="a">
              <datamodel><data id="answer" src="../shared/answer.json"/></datamodel>
              <state id="a"><transition event="go" cond="answer.value === 42" target="b"/></state>
              <state id="b"/>
            </scxml>
            """
        )
        _ = try directory.write(
            "tests/reads.json",
            #"{"initialConfiguration": ["a"], "events": [{"event": {"name": "go"}, "nextConfiguration": ["b"]}]}"#
        )
        let tests = directory.url.appendingPathComponent("tests").path
        let refused = await runTool(["check", tests])
        #expect(refused.status == 1)
        #expect(
            refused.standardOutput.contains(
                "FAIL reads: error: line 2: <data src=\"../shared/answer.json\"> refused by the source policy"
            ),
            "\(refused.standardOutput)"
        )
        #expect(refused.standardOutput.hasSuffix("0 passed, 1 failed\n"))
        let shared = directory.url.appendingPathComponent("shared").path
        let allowed = await runTool(["check", tests, "--allow-sources", shared])
        #expect(allowed.status == 0, "\(allowed.standardOutput)")
        #expect(allowed.standardOutput == "1 passed, 0 failed\n")
    }
}
