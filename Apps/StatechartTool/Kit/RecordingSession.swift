import StateMachineHierarchy

/// A session that records every step of the session it wraps as a ``StatechartTrace``:
/// the steps commands start (`start`, `send`) and the ones the chart takes by itself,
/// which the screen collects with `takeLog` (recorded without an event).
@MainActor
final class RecordingSession: ChartSession {
    private let session: any ChartSession
    /// The steps so far.
    private(set) var trace: StatechartTrace

    /// A recorder of `session`, a run of the chart named `chart`.
    init(_ session: any ChartSession, chart: String) {
        self.session = session
        trace = StatechartTrace(chart: chart)
    }

    var activeStates: [String] { session.activeStates }
    var events: [String] { session.events }
    var acceptedEvents: [String] { session.acceptedEvents }
    var endReason: String? { session.endReason }
    var variables: [String: SCXMLValue]? { session.variables }
    var variablesError: String? { session.variablesError }
    func match(_ event: String) -> EventMatch { session.match(event) }

    func start() -> ChartStep {
        record(session.start(), event: nil)
    }

    func send(_ event: String) -> ChartStep {
        record(session.send(event), event: event)
    }

    func onLog(_ hook: @escaping @Sendable () -> Void) { session.onLog(hook) }

    func takeLog() -> [String] {
        let log = session.takeLog()
        if !log.isEmpty { _ = record(ChartStep(log: log), event: nil) }
        return log
    }

    /// Adds `step` to the trace: `exit X` and `enter X` lines are its exits and entries,
    /// every other line one of its actions.
    private func record(_ step: ChartStep, event: String?) -> ChartStep {
        var recorded = StatechartTrace.Step(
            event: event,
            configuration: session.activeStates,
            variables: session.variables
        )
        for line in step.log {
            if line.hasPrefix("exit ") {
                recorded.exited.append(String(line.dropFirst("exit ".count)))
            } else if line.hasPrefix("enter ") {
                recorded.entered.append(String(line.dropFirst("enter ".count)))
            } else {
                recorded.actions.append(line)
            }
        }
        trace.steps.append(recorded)
        return step
    }
}
