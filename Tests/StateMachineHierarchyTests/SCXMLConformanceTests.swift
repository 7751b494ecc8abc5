import Foundation
import StateMachineHierarchy
import Testing

// The SCION structural tests (`../shared/conformance/scion` next to the repository, or
// `$SCION_DIR`), run through SCXMLDocument + SCXMLInterpreter. The files are not copied
// into the repository; when the directory is absent the test is skipped (see
// `.enabled(if:)` below), never passed vacuously.

/// One SCION test: the expected configurations before and after each event.
struct SCIONExpectation: Decodable {
    struct Step: Decodable {
        struct Event: Decodable { let name: String }
        let event: Event
        let nextConfiguration: [String]
    }
    let initialConfiguration: [String]
    let events: [Step]
}

enum SCION {
    /// `$SCION_DIR`, else `<repository>/../shared/conformance/scion`, if it exists.
    static let directory: URL? = {
        let fileManager = FileManager.default
        if let path = ProcessInfo.processInfo.environment["SCION_DIR"], !path.isEmpty {
            return fileManager.fileExists(atPath: path) ? URL(fileURLWithPath: path) : nil
        }
        // #filePath is <root>/Tests/StateMachineHierarchyTests/SCXMLConformanceTests.swift.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let candidate = root.deletingLastPathComponent().appendingPathComponent("shared/conformance/scion")
        return fileManager.fileExists(atPath: candidate.path) ? candidate : nil
    }()

    /// Test names (`group/name`) of every `.scxml` that has a `.json` beside it, sorted.
    static func testNames(in directory: URL) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        var names: [String] = []
        for case let path as String in enumerator where path.hasSuffix(".scxml") {
            let base = String(path.dropLast(".scxml".count))
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent(base + ".json").path) {
                names.append(base)
            }
        }
        return names.sorted()
    }

    /// Runs one test; nil when it passes, else the first difference.
    static func run(_ name: String, in directory: URL) -> String? {
        let expectation: SCIONExpectation
        do {
            let data = try Data(contentsOf: directory.appendingPathComponent(name + ".json"))
            expectation = try JSONDecoder().decode(SCIONExpectation.self, from: data)
        } catch {
            return "cannot read the expectations: \(error)"
        }
        do {
            let document = try SCXMLDocument.load(contentsOf: directory.appendingPathComponent(name + ".scxml"))
            let machine = SCXMLInterpreter(document: document)
            try machine.start()
            if machine.activeAtomicStates != Set(expectation.initialConfiguration) {
                return
                    "initial configuration: expected \(expectation.initialConfiguration.sorted()), got \(machine.activeAtomicStates.sorted())"
            }
            for (number, step) in expectation.events.enumerated() {
                try machine.send(step.event.name)
                if machine.activeAtomicStates != Set(step.nextConfiguration) {
                    return
                        "after event #\(number + 1) '\(step.event.name)': expected \(step.nextConfiguration.sorted()), got \(machine.activeAtomicStates.sorted())"
                }
            }
            return nil
        } catch {
            return "error: \(error)"
        }
    }
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
        let names = SCION.testNames(in: directory)
        #expect(!names.isEmpty, "no .scxml/.json pairs in \(directory.path)")
        var passed = 0
        for name in names {
            let failure = SCION.run(name, in: directory)
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
    static func directory(json: String) throws -> URL {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("scion-runner-\(UUID().uuidString)")
        let group = root.appendingPathComponent("group")
        try FileManager.default.createDirectory(at: group, withIntermediateDirectories: true)
        let scxml = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" initial="a" version="1.0">
              <state id="a"><transition event="t" target="b"/></state>
              <state id="b"/>
            </scxml>
            """
        try Data(scxml.utf8).write(to: group.appendingPathComponent("one.scxml"))
        try Data(json.utf8).write(to: group.appendingPathComponent("one.json"))
        // A .scxml without its .json is not a test.
        try Data(scxml.utf8).write(to: group.appendingPathComponent("lonely.scxml"))
        return root
    }

    @Test("Finds the pairs and passes a matching test")
    func passes() throws {
        let root = try Self.directory(
            json: #"{"initialConfiguration": ["a"], "events": [{"event": {"name": "t"}, "nextConfiguration": ["b"]}]}"#
        )
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(SCION.testNames(in: root) == ["group/one"])
        #expect(SCION.run("group/one", in: root) == nil)
    }

    @Test("Reports the first differing configuration")
    func reportsDifference() throws {
        let root = try Self.directory(
            json: #"{"initialConfiguration": ["a"], "events": [{"event": {"name": "t"}, "nextConfiguration": ["a"]}]}"#
        )
        defer { try? FileManager.default.removeItem(at: root) }
        let failure = try #require(SCION.run("group/one", in: root))
        #expect(failure == "after event #1 't': expected [\"a\"], got [\"b\"]")

        let badInitial = try Self.directory(json: #"{"initialConfiguration": ["b"], "events": []}"#)
        defer { try? FileManager.default.removeItem(at: badInitial) }
        #expect(SCION.run("group/one", in: badInitial) == "initial configuration: expected [\"b\"], got [\"a\"]")
    }
}
