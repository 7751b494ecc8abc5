import Foundation
import StateMachineHierarchy
import StateMachineSCXML
import StatechartToolKit
import Testing

// The SCION structural tests (`../shared/conformance/scion` next to the repository, or
// `$SCION_DIR`), run through `SCIONConformance`, the runner of `statechart check`
// (SCXMLDocument + SCXMLInterpreter). The files are not copied into the repository; when
// the directory is absent the test is skipped (see `.enabled(if:)` below), never passed
// vacuously.

enum SCION {
    /// `$SCION_DIR`, else `<repository>/../shared/conformance/scion`, if it exists.
    static let directory: URL? = Paths.scion.map { URL(fileURLWithPath: $0) }
}

@Suite("SCION conformance")
struct SCXMLConformanceTests {
    /// Tests that do not pass yet, each with the reason. Empty: all of them pass.
    static let knownFailures: [String: String] = [:]

    // Skipped, not passed, when neither $SCION_DIR nor ../shared/conformance/scion exists.
    @Test(
        "Every SCION test passes, except the listed known failures",
        .enabled(
            if: SCION.directory != nil,
            "skipped: SCION tests not found (set SCION_DIR or provide ../shared/conformance/scion next to the repository)"
        )
    )
    func scion() throws {
        let directory = try #require(SCION.directory)
        let names = SCIONConformance.testNames(in: directory)
        #expect(!names.isEmpty, "no .scxml/.json pairs in \(directory.path)")
        var passed = 0
        for name in names {
            let failure = SCIONConformance.run(name, in: directory)
            if let reason = Self.knownFailures[name] {
                // A known failure that starts passing must be taken off the list.
                #expect(failure != nil, "\(name) now passes: remove it from knownFailures (\(reason))")
                continue
            }
            if let failure {
                Issue.record("\(name): \(failure)")
            } else {
                passed += 1
            }
        }
        print("SCION: \(passed) of \(names.count) passed")
        #expect(passed == names.count - Self.knownFailures.count)
    }
}

/// The runner itself, on a temporary directory, so that it is checked even where the
/// SCION files are absent.
@Suite("SCION runner")
struct SCIONRunnerTests {
    static let twoStates = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" initial="a" version="1.0">
          <state id="a"><transition event="t" target="b"/></state>
          <state id="b"/>
        </scxml>
        """

    static func directory(json: String, scxml: String = twoStates) throws -> URL {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("scion-runner-\(UUID().uuidString)")
        let group = root.appendingPathComponent("group")
        try FileManager.default.createDirectory(at: group, withIntermediateDirectories: true)
        try Data(scxml.utf8).write(to: group.appendingPathComponent("one.scxml"))
        try Data(json.utf8).write(to: group.appendingPathComponent("one.json"))
        // A .scxml without its .json is not a test.
        try Data(twoStates.utf8).write(to: group.appendingPathComponent("lonely.scxml"))
        return root
    }

    @Test("Finds the pairs and passes a matching test")
    func passes() throws {
        let root = try Self.directory(
            json: #"{"initialConfiguration": ["a"], "events": [{"event": {"name": "t"}, "nextConfiguration": ["b"]}]}"#
        )
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(SCIONConformance.testNames(in: root) == ["group/one"])
        #expect(SCIONConformance.run("group/one", in: root) == nil)
    }

    @Test("Reports the first differing configuration")
    func reportsDifference() throws {
        let root = try Self.directory(
            json: #"{"initialConfiguration": ["a"], "events": [{"event": {"name": "t"}, "nextConfiguration": ["a"]}]}"#
        )
        defer { try? FileManager.default.removeItem(at: root) }
        let failure = try #require(SCIONConformance.run("group/one", in: root))
        #expect(failure == "after event #1 't': expected [\"a\"], got [\"b\"]")

        let badInitial = try Self.directory(json: #"{"initialConfiguration": ["b"], "events": []}"#)
        defer { try? FileManager.default.removeItem(at: badInitial) }
        #expect(
            SCIONConformance.run("group/one", in: badInitial) == "initial configuration: expected [\"b\"], got [\"a\"]"
        )
    }

    @Test("An event's 'after' lets that many milliseconds pass on the chart's clock before it is sent")
    func after() throws {
        let delayed = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" initial="a" version="1.0">
              <state id="a">
                <onentry><send event="timeout" delay="100ms"/></onentry>
                <transition event="timeout" target="b"/>
              </state>
              <state id="b"><transition event="t" target="c"/></state>
              <state id="c"/>
            </scxml>
            """
        let passing = try Self.directory(
            json:
                #"{"initialConfiguration": ["a"], "events": [{"event": {"name": "t"}, "after": 100, "nextConfiguration": ["c"]}]}"#,
            scxml: delayed
        )
        defer { try? FileManager.default.removeItem(at: passing) }
        #expect(SCIONConformance.run("group/one", in: passing) == nil)
        // 99 ms are not enough: the timeout has not fired, so "t" finds "a".
        let early = try Self.directory(
            json:
                #"{"initialConfiguration": ["a"], "events": [{"event": {"name": "t"}, "after": 99, "nextConfiguration": ["c"]}]}"#,
            scxml: delayed
        )
        defer { try? FileManager.default.removeItem(at: early) }
        #expect(SCIONConformance.run("group/one", in: early) == "after event #1 't': expected [\"c\"], got [\"a\"]")
        let negative = try Self.directory(
            json:
                #"{"initialConfiguration": ["a"], "events": [{"event": {"name": "t"}, "after": -5, "nextConfiguration": ["c"]}]}"#,
            scxml: delayed
        )
        defer { try? FileManager.default.removeItem(at: negative) }
        #expect(SCIONConformance.run("group/one", in: negative) == "event #1: 'after' is negative (-5)")
    }

    @Test("Runs a whole directory into a report with the summary line")
    func report() throws {
        let root = try Self.directory(
            json: #"{"initialConfiguration": ["a"], "events": [{"event": {"name": "t"}, "nextConfiguration": ["a"]}]}"#
        )
        defer { try? FileManager.default.removeItem(at: root) }
        let group = root.appendingPathComponent("group")
        try Data(#"{"initialConfiguration": ["a"], "events": []}"#.utf8).write(
            to: group.appendingPathComponent("lonely.json")
        )
        let report = SCIONConformance.runAll(in: root)
        #expect(report.passed == ["group/lonely"])
        #expect(report.failures.map(\.name) == ["group/one"])
        #expect(report.failures.map(\.reason) == ["after event #1 't': expected [\"a\"], got [\"b\"]"])
        #expect(report.summary == "1 passed, 1 failed")
        #expect(!report.allPassed)
    }
}
