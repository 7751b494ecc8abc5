import Foundation
import StateMachineECMAScript
import StateMachineHierarchy
import StateMachineSCXML

/// Runs conformance tests in the SCION format (the `scxml-test-framework` of the SCION
/// project) through ``SCXMLDocument`` and ``SCXMLInterpreter``.
///
/// A test is a pair of files in a directory tree: `NAME.scxml`, the chart, and beside it
/// `NAME.json`, the expectations:
/// `{"initialConfiguration": [...], "events": [{"event": {"name": "t"}, "after": 100, "nextConfiguration": [...]}]}`.
/// A configuration lists the active atomic states, in any order, once the machine has
/// settled. A `.scxml` without its `.json` is not a test. Running a test loads the chart,
/// starts it on a ``ManualStatechartClock``, then for each event advances the clock by
/// its `after` milliseconds (delayed sends due by then run) and sends it, comparing the
/// configuration at every stage; it stops at the first difference.
public enum SCIONConformance {
    /// The expectations of one test (its `.json` file).
    public struct Expectation: Decodable, Sendable, Equatable {
        /// One event to send and the configuration expected after it.
        public struct Step: Decodable, Sendable, Equatable {
            /// The event to send (SCION nests its name in an object).
            public struct Event: Decodable, Sendable, Equatable {
                /// The event's name.
                public let name: String
            }

            /// The event to send.
            public let event: Event
            /// Milliseconds to let pass on the chart's clock before sending it (none when absent).
            public let after: Int?
            /// The active atomic states expected once the machine has settled.
            public let nextConfiguration: [String]
        }

        /// The active atomic states expected right after start.
        public let initialConfiguration: [String]
        /// The events, in order.
        public let events: [Step]
    }

    /// The outcome of a whole directory.
    public struct Report: Sendable, Equatable {
        /// The names of the tests that passed, sorted.
        public var passed: [String]
        /// The tests that failed, sorted by name, each with its first difference (see
        /// ``SCIONConformance/run(_:in:)``).
        public var failures: [(name: String, reason: String)]
        /// The `.scxml` and `.json` pairs that are not tests, sorted by name, each with the
        /// reason (see ``SCIONConformance/skipReason(_:in:)``).
        public var skipped: [(name: String, reason: String)] = []

        /// The summary line: `N passed, M failed`, and `, K skipped` when pairs were skipped.
        public var summary: String {
            "\(passed.count) passed, \(failures.count) failed" + (skipped.isEmpty ? "" : ", \(skipped.count) skipped")
        }

        /// Whether every test passed.
        public var allPassed: Bool { failures.isEmpty }

        /// Equal when the same tests passed and failed for the same reasons.
        public static func == (lhs: Report, rhs: Report) -> Bool {
            lhs.passed == rhs.passed
                && lhs.failures.map(\.name) == rhs.failures.map(\.name)
                && lhs.failures.map(\.reason) == rhs.failures.map(\.reason)
                && lhs.skipped.map(\.name) == rhs.skipped.map(\.name)
                && lhs.skipped.map(\.reason) == rhs.skipped.map(\.reason)
        }
    }

    /// The names (paths relative to `directory`, without `.scxml`, such as
    /// `history/history0`) of every `.scxml` under `directory` that has a `.json`
    /// beside it, sorted. Empty when the directory cannot be read.
    public static func testNames(in directory: URL) -> [String] {
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

    /// Why the pair `name` of `directory` is not a SCION test, or nil when it is one: its
    /// `.json` must be an object with `initialConfiguration` and `events` (a statechart
    /// written in JSON, such as a sample chart beside its SCXML twin, is not). A `.json`
    /// that cannot be read or parsed is a test that fails, with the reason, not a skip.
    public static func skipReason(_ name: String, in directory: URL) -> String? {
        guard let data = try? Data(contentsOf: directory.appendingPathComponent(name + ".json")),
            let parsed = try? JSONSerialization.jsonObject(with: data)
        else { return nil }
        let file = (name as NSString).lastPathComponent + ".json"
        guard let object = parsed as? [String: Any] else {
            return "\(file) is not a SCION expectation file (its top level is not an object)"
        }
        let missing = ["initialConfiguration", "events"].filter { object[$0] == nil }
        guard !missing.isEmpty else { return nil }
        let keys = missing.map { "'\($0)'" }.joined(separator: " or ")
        let chartHint =
            object["states"] != nil || object["name"] != nil
            ? "; it looks like a statechart ('statechart run' reads it)" : ""
        return "\(file) is not a SCION expectation file (no \(keys))\(chartHint)"
    }

    /// Describes a JSON decoding error in words: what is missing or wrong, and where.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ codingPath: [any CodingKey]) -> String {
            let keys = codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.isEmpty ? "the top level" : String(keys.drop { $0 == "." })
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "no '\(key.stringValue)' in \(path(context.codingPath))"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let expected =
                type == String.self
                ? "a string"
                : type == Int.self ? "a whole number" : "\(type)".hasPrefix("Array") ? "a list" : "an object"
            return "\(path(context.codingPath)) is not \(expected)"
        case .dataCorrupted(let context):
            if let underlying = context.underlyingError as NSError? {
                return
                    "not valid JSON (\(underlying.userInfo[NSDebugDescriptionErrorKey] as? String ?? underlying.localizedDescription))"
            }
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    /// Runs the test `name` of `directory`: nil when it passes, else its first
    /// difference, such as `after event #2 't': expected ["a"], got ["b"]` (configurations
    /// sorted), `initial configuration: expected ..., got ...`, or why the files could not
    /// be used (`error: line 3: <script> is not supported ...`).
    /// `sources` is how its document reads `src` files (its own folder unless told).
    public static func run(_ name: String, in directory: URL, sources: SCXMLSourcePolicy = .documentFolder) -> String? {
        let expectation: Expectation
        do {
            let data = try Data(contentsOf: directory.appendingPathComponent(name + ".json"))
            expectation = try JSONDecoder().decode(Expectation.self, from: data)
        } catch {
            return "cannot read the expectations: \(describe(error))"
        }
        do {
            let document = try SCXMLDocument.load(
                contentsOf: directory.appendingPathComponent(name + ".scxml"),
                dataModel: .ecmascript,
                sources: sources
            )
            let clock = ManualStatechartClock()
            let machine = SCXMLInterpreter(document: document, clock: clock)
            try machine.start()
            if machine.activeAtomicStates != Set(expectation.initialConfiguration) {
                return
                    "initial configuration: expected \(expectation.initialConfiguration.sorted()), got \(machine.activeAtomicStates.sorted())"
            }
            for (number, step) in expectation.events.enumerated() {
                if let after = step.after {
                    guard after >= 0 else { return "event #\(number + 1): 'after' is negative (\(after))" }
                    clock.advance(by: .milliseconds(after))
                }
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

    /// Runs every test of `directory` (see ``testNames(in:)``), in name order.
    public static func runAll(in directory: URL, sources: SCXMLSourcePolicy = .documentFolder) -> Report {
        var report = Report(passed: [], failures: [])
        for name in testNames(in: directory) {
            if let reason = skipReason(name, in: directory) {
                report.skipped.append((name, reason))
            } else if let reason = run(name, in: directory, sources: sources) {
                report.failures.append((name, reason))
            } else {
                report.passed.append(name)
            }
        }
        return report
    }
}
