import Foundation

/// Debug-build log of events that found no transition, one line per distinct
/// (state, event, predicates) so a loop of unhandled events does not flood the output.
/// Lines go to standard error unless `STATE_MACHINE_LOG=0`.
/// At most `limit` distinct lines are kept and written, then one line saying so: events that
/// carry ever new values would otherwise grow the log, and what it remembers, without end.
struct UnhandledLog {
    private var seen = Set<String>()
    /// Every line written so far, in order (read by tests).
    private(set) var lines: [String] = []
    private let enabled = ProcessInfo.processInfo.environment["STATE_MACHINE_LOG"] != "0"
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
        if enabled { FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }
}
