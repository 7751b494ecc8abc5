import StateMachineHierarchy
import Synchronization

/// A running chart as the `run` screen drives it: one implementation per runtime.
@MainActor
protocol ChartSession: AnyObject {
    /// The active states (compound ones too), in document order.
    var activeStates: [String] { get }
    /// Every event the chart's transitions name, in document order.
    var events: [String] { get }
    /// The events the active configuration has transitions for.
    var acceptedEvents: [String] { get }
    /// Why the chart takes no more events (it reached a top-level final state), if so.
    var endReason: String? { get }
    /// Starts the chart; what happened.
    func start() -> ChartStep
    /// Sends `event`; what happened.
    func send(_ event: String) -> ChartStep
}

/// What one step did: the states left and entered (and events raised), in order, and a
/// note when the event changed nothing or the step failed.
struct ChartStep: Equatable {
    var log: [String] = []
    var note: String?
}

/// Runs an SCXML document with ``SCXMLInterpreter``; the log is the interpreter's trace.
@MainActor
final class SCXMLSession: ChartSession {
    private var machine: SCXMLInterpreter
    private let echo: ((String) -> Void)?

    /// A session on `document`; `echo`, when given, receives each step's whole trace.
    init(_ document: SCXMLDocument, echo: ((String) -> Void)? = nil) {
        machine = SCXMLInterpreter(document: document)
        self.echo = echo
    }

    var activeStates: [String] { machine.activeStates }
    var events: [String] { machine.document.events }
    var acceptedEvents: [String] { machine.acceptedEvents }
    var endReason: String? {
        machine.isDone ? "The machine reached a top-level final state; it takes no more events." : nil
    }

    func start() -> ChartStep {
        do {
            try machine.start()
            return step(machine.trace)
        } catch {
            return ChartStep(log: log(machine.trace), note: "\(error)")
        }
    }

    func send(_ event: String) -> ChartStep {
        guard machine.isRunning else { return ChartStep(note: "'\(event)' ignored: the machine is not running.") }
        do {
            try machine.send(event)
            // The trace starts with the external event itself; the step's header names it.
            var result = step(Array(machine.trace.dropFirst()))
            if result.log.isEmpty { result.note = "'\(event)' selected no transition." }
            return result
        } catch {
            return ChartStep(log: log(Array(machine.trace.dropFirst())), note: "\(error)")
        }
    }

    private func step(_ trace: [String]) -> ChartStep {
        echo?(trace.joined(separator: " "))
        return ChartStep(log: log(trace))
    }

    /// `exit:a` becomes `exit a`, `event:t` (an internal event processed) `event t`.
    private func log(_ trace: [String]) -> [String] {
        trace.map { entry in
            guard let colon = entry.firstIndex(of: ":") else { return entry }
            let kind = entry[..<colon]
            let name = entry[entry.index(after: colon)...]
            return "\(kind) \(name)"
        }
    }
}

/// Runs a ``Statechart`` read from JSON; the log comes from its enter, exit and
/// internal-transition notifications.
@MainActor
final class StatechartSession: ChartSession {
    private let chart: ChartFile.JSONChart
    private let recorder = StepRecorder()
    private var subscriptions: [StatechartSubscription] = []

    /// A session on `chart`, observing every state.
    init(_ chart: ChartFile.JSONChart) {
        self.chart = chart
        let recorder = recorder
        for state in chart.states {
            guard let path = chart.path(of: state) else { continue }
            var kinds: [(ChartFile.JSONChart.Notification.Kind, String)] = [(.entered, "enter"), (.exited, "exit")]
            kinds += chart.events.map { (.internalTransition($0), "internal") }
            for (kind, word) in kinds {
                if let subscription = try? chart.observe(
                    kind,
                    at: path,
                    { notification in
                        if case .internalTransition(let event) = notification.kind {
                            recorder.append("\(word) \(notification.state) on \(event)")
                        } else {
                            recorder.append("\(word) \(notification.state)")
                        }
                    }
                ) {
                    subscriptions.append(subscription)
                }
            }
        }
    }

    var activeStates: [String] { chart.activeStates }
    var events: [String] { chart.events }
    var acceptedEvents: [String] { chart.acceptedEvents }
    var endReason: String? { nil }

    func start() -> ChartStep {
        _ = recorder.take()
        chart.start()
        return ChartStep(log: recorder.take())
    }

    func send(_ event: String) -> ChartStep {
        _ = recorder.take()
        do {
            let outcome = try chart.handle(event)
            let note: String? =
                switch outcome {
                case .handled: nil
                case .unhandled: "'\(event)' was not handled: no active state has a transition whose guard passes."
                case .discarded: "'\(event)' was discarded: the chart is not running."
                case .queued: "'\(event)' was queued behind the step in progress."
                }
            return ChartStep(log: recorder.take(), note: note)
        } catch {
            return ChartStep(log: recorder.take(), note: "'\(event)' failed: \(error)")
        }
    }

    /// Sends the chart's debugger output (TBStateMachine's step log) to `sink`.
    func attachDebugger(_ sink: StatechartDebugSink) {
        chart.attachDebugger(sink)
    }
}

/// The notifications of the step in progress; appended to on the thread that runs the
/// step, read by the screen after it.
final class StepRecorder: Sendable {
    private let lines = Mutex<[String]>([])

    func append(_ line: String) {
        lines.withLock { $0.append(line) }
    }

    /// The lines so far, leaving none.
    func take() -> [String] {
        lines.withLock { lines in
            defer { lines = [] }
            return lines
        }
    }
}
