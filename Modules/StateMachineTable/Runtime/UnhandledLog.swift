import Foundation
import StateMachineSupport

/// Debug-build log of events that found no transition, one line per distinct
/// (state, event, predicates) so a loop of unhandled events does not flood the output.
/// Lines go where the package's log goes (`LogDestination`): the system log by default,
/// standard error with `STATE_MACHINE_LOG=stderr`, nowhere with `STATE_MACHINE_LOG=0` or in
/// a test process.
/// At most `limit` distinct lines are kept and written, then one line saying so: events that
/// carry ever new values would otherwise grow the log, and what it remembers, without end.
struct UnhandledLog {
    private var seen = Set<String>()
    /// Every line written so far, in order (read by tests).
    private(set) var lines: [String] = []
    private let limit: Int

    init(limit: Int = 1_000) {
        self.limit = limit
    }

    mutating func record(state: some Any, event: some Any, predicates: [any Predicate]) {
        guard seen.count < limit else { return }
        let described = predicates.map { "\(type(of: $0)).\($0)" }
        let suffix = described.isEmpty ? "" : " with predicates \(described.joined(separator: ", "))"
        let line = "FSM: no transition for event \(event) in state \(state)\(suffix); ignored"
        guard seen.insert(line).inserted else { return }
        write(line)
        if seen.count == limit { write("FSM: \(limit) distinct unhandled events logged; later ones are not") }
    }

    private mutating func write(_ line: String) {
        lines.append(line)
        LogDestination.current.write(line)
    }
}
