import Foundation
import StateMachineHierarchy

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

        /// The summary line: `N passed, M failed`.
        public var summary: String { "\(passed.count) passed, \(failures.count) failed" }

        /// Whether every test passed.
        public var allPassed: Bool { failures.isEmpty }

        /// Equal when the same tests passed and failed for the same reasons.
        public static func == (lhs: Report, rhs: Report) -> Bool {
            lhs.passed == rhs.passed
                && lhs.failures.map(\.name) == rhs.failures.map(\.name)
                && lhs.failures.map(\.reason) == rhs.failures.map(\.reason)
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

    /// Runs the test `name` of `directory`: nil when it passes, else its first
    /// difference, such as `after event #2 't': expected ["a"], got ["b"]` (configurations
    /// sorted), `initial configuration: expected ..., got ...`, or why the files could not
    /// be used (`error: line 3: <script> is not supported ...`).
    public static func run(_ name: String, in directory: URL) -> String? {
        let expectation: Expectation
        do {
            let data = try Data(contentsOf: directory.appendingPathComponent(name + ".json"))
            expectation = try JSONDecoder().decode(Expectation.self, from: data)
        } catch {
            return "cannot read the expectations: \(error)"
        }
        do {
            let document = try SCXMLDocument.load(contentsOf: directory.appendingPathComponent(name + ".scxml"))
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
    public static func runAll(in directory: URL) -> Report {
        var report = Report(passed: [], failures: [])
        for name in testNames(in: directory) {
            if let reason = run(name, in: directory) {
                report.failures.append((name, reason))
            } else {
                report.passed.append(name)
            }
        }
        return report
    }
}
