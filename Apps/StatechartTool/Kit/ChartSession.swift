import Foundation
import StateMachineHierarchy
import StateMachineSCXML
import StateMachineSupport

/// A running chart as the `run` screen drives it: one implementation per runtime.
@MainActor
protocol ChartSession: AnyObject {
    /// The active states (compound ones too), in document order.
    var activeStates: [String] { get }
    /// Every event the chart's transitions name, in document order.
    var events: [String] { get }
    /// The events of ``events`` that a transition of the active configuration matches, in
    /// the chart's own matching (SCXML: prefixes and `*`; JSON: names).
    var acceptedEvents: [String] { get }
    /// What the chart would do with `event` now, in its own matching.
    func match(_ event: String) -> EventMatch
    /// Why the chart takes no more events (it reached a top-level final state), if so.
    var endReason: String? { get }
    /// The chart's variables, for a chart with a data model; nil otherwise (or when they
    /// cannot be read: see ``variablesError``).
    var variables: [String: SCXMLValue]? { get }
    /// Why the variables cannot be read, if so.
    var variablesError: String? { get }
    /// Starts the chart; what happened.
    func start() -> ChartStep
    /// Sends `event`; what happened.
    func send(_ event: String) -> ChartStep
    /// Calls `hook` (on any thread) whenever a step logs something, including steps no
    /// command started: delayed transitions and delayed sends firing.
    func onLog(_ hook: @escaping @Sendable () -> Void)
    /// What steps logged since the last command or call, leaving nothing.
    func takeLog() -> [String]
}

/// What one step did: the states left and entered (and events raised), in order, and a
/// note when the event changed nothing or the step failed.
struct ChartStep: Equatable {
    var log: [String] = []
    var note: String?
}

/// What a chart would do with an event now, in its own matching.
enum EventMatch: Equatable {
    /// A transition of an active state matches it: which one, in words (`the transition on
    /// 'coin' of idle (line 12)`), and whether by prefix or `*` rather than by its name.
    case accepted(String, byPrefix: Bool)
    /// Transitions of the chart match it, none of them of an active state: which, in words.
    case elsewhere(String)
    /// No transition of the chart matches it.
    case unmatched

    /// Whether an active state's transition matches it.
    var isAccepted: Bool {
        if case .accepted = self { return true }
        return false
    }
}

/// Runs an SCXML document with ``SCXMLInterpreter``; the log is the trace of every
/// macrostep, collected through the interpreter's macrostep observer.
@MainActor
final class SCXMLSession: ChartSession {
    private let machine: SCXMLInterpreter
    private let recorder = StepRecorder()

    /// A session on `document` whose delayed sends run on `clock`; `echo`, when given,
    /// receives each macrostep's whole trace.
    init(
        _ document: SCXMLDocument,
        clock: any StatechartClock = .continuous,
        echo: (@Sendable (String) -> Void)? = nil
    ) {
        let recorder = recorder
        machine = SCXMLInterpreter(document: document, clock: clock, recordsContent: true) { trace in
            echo?(trace.joined(separator: " "))
            recorder.append(contentsOf: trace.map(Self.describe))
        }
        // The states with a `*` transition: a name no descriptor can equal (descriptors have no
        // spaces) matches only `*`.
        wildcardSources = Set(document.transitions(matching: " ").map(\.source))
    }

    /// The states that have a transition on `*`.
    private let wildcardSources: Set<String>

    var activeStates: [String] { machine.activeStates }
    var events: [String] { machine.document.events }

    var acceptedEvents: [String] {
        guard machine.isRunning else { return [] }
        // The descriptors of the active states' transitions, matched against each event as
        // the engine matches them; a `*` of an active state takes every event.
        let active = Set(machine.activeStates)
        if !wildcardSources.isDisjoint(with: active) { return events }
        let descriptors = machine.acceptedEvents.map(EventClasses.normalized)
        return events.filter { event in descriptors.contains { EventClasses.matches(descriptor: $0, event: event) } }
    }

    func match(_ event: String) -> EventMatch {
        let matches = machine.document.transitions(matching: event)
        guard !matches.isEmpty else { return .unmatched }
        let states = machine.isRunning ? machine.activeStates : []
        let position = Dictionary(states.enumerated().map { ($1, $0) }) { first, _ in first }
        // In the order SCXML tries them: the most nested active source first (active states
        // are in document order, ancestors first), each state's in document order; up to the
        // first without a condition, which is taken when the others' conditions are false.
        let active = matches.enumerated().filter { position[$0.element.source] != nil }
            .sorted {
                ($1.element.source == $0.element.source
                    ? $0.offset < $1.offset : position[$0.element.source]! > position[$1.element.source]!)
            }
            .map(\.element)
        if let first = active.first {
            var tried: [SCXMLDocument.EventMatch] = []
            for match in active where tried.count < 3 {
                tried.append(match)
                if match.condition == nil { break }
            }
            return .accepted(tried.map(Self.describe).joined(separator: ", else "), byPrefix: first.descriptor != event)
        }
        let shown = matches.prefix(3).map(Self.describe).joined(separator: ", ")
        return .elsewhere(shown + (matches.count > 3 ? " and \(matches.count - 3) more" : ""))
    }

    /// `the transition on 'coin' of idle (line 12)`, with `if COND` when it has one.
    private static func describe(_ match: SCXMLDocument.EventMatch) -> String {
        "the transition on '\(match.descriptor)' of \(match.source) (line \(match.line))"
            + (match.condition.map { " if \($0)" } ?? "")
    }

    var endReason: String? {
        machine.isDone ? "The machine reached a top-level final state; it takes no more events." : nil
    }
    var variables: [String: SCXMLValue]? {
        guard machine.document.dataModel.name != SCXMLDataModel.null.name else { return nil }
        return try? machine.variables()
    }
    var variablesError: String? {
        guard machine.document.dataModel.name != SCXMLDataModel.null.name else { return nil }
        do {
            _ = try machine.variables()
            return nil
        } catch {
            return "\(error)"
        }
    }

    func start() -> ChartStep {
        do {
            try machine.start()
            return ChartStep(log: recorder.take())
        } catch {
            return ChartStep(log: recorder.take(), note: "\(error)")
        }
    }

    func send(_ event: String) -> ChartStep {
        guard machine.isRunning else { return ChartStep(note: "'\(event)' ignored: the machine is not running.") }
        do {
            let match = self.match(event)
            try machine.send(event)
            var result = ChartStep(log: withoutHeader(recorder.take(), event))
            // A targetless transition leaves no line of its own in the log (its content does).
            if result.log.isEmpty {
                switch match {
                case .accepted(let transition, _):
                    result.note =
                        "'\(event)' selected no transition: the conditions of the transitions that match it were false (\(transition))."
                case .elsewhere(let transitions):
                    result.note =
                        "'\(event)' selected no transition: only transitions of states not active match it (\(transitions))."
                case .unmatched:
                    result.note = "'\(event)' selected no transition: no transition of the chart matches it."
                }
            }
            return result
        } catch {
            return ChartStep(log: withoutHeader(recorder.take(), event), note: "\(error)")
        }
    }

    func onLog(_ hook: @escaping @Sendable () -> Void) { recorder.onAppend(hook) }
    func takeLog() -> [String] { recorder.take() }

    /// The log without the entry for the sent event itself, which the step's header names.
    private func withoutHeader(_ log: [String], _ event: String) -> [String] {
        guard let index = log.firstIndex(of: "event \(event)") else { return log }
        var log = log
        log.remove(at: index)
        return log
    }

    /// `exit:a` becomes `exit a`, `event:t` (an event processed) `event t`.
    private nonisolated static func describe(_ entry: String) -> String {
        guard let colon = entry.firstIndex(of: ":") else { return entry }
        return "\(entry[..<colon]) \(entry[entry.index(after: colon)...])"
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

    /// A JSON chart matches events by name.
    func match(_ event: String) -> EventMatch {
        if chart.acceptedEvents.contains(event) {
            return .accepted(
                "a handler of an active state (\(chart.activeStates.joined(separator: ", ")))",
                byPrefix: false
            )
        }
        return chart.events.contains(event) ? .elsewhere("the handlers of states not active now") : .unmatched
    }

    var endReason: String? {
        chart.isFinished ? "The chart reached a final state of its root region; it handles no more events." : nil
    }
    var variables: [String: SCXMLValue]? { nil }
    var variablesError: String? { nil }

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
                case .deferred: "'\(event)' was deferred: it runs once no active state defers it."
                }
            return ChartStep(log: recorder.take(), note: note)
        } catch {
            return ChartStep(log: recorder.take(), note: "'\(event)' failed: \(error)")
        }
    }

    func onLog(_ hook: @escaping @Sendable () -> Void) { recorder.onAppend(hook) }
    func takeLog() -> [String] { recorder.take() }

    /// Sends the chart's debugger output (TBStateMachine's step log) to `sink`.
    func attachDebugger(_ sink: StatechartDebugSink) {
        chart.attachDebugger(sink)
    }
}

/// The log lines of the steps since the last take, appended on whichever thread runs a
/// step (the main actor for commands, a timer's task for delayed steps).
///
/// The two threads contend here; the package's pthread-backed `Lock` keeps that visible
/// to ThreadSanitizer.
final class StepRecorder: Sendable {
    /// The most lines kept between two takes: a chart whose timers keep firing while
    /// nobody reads the log must not grow it without end.
    static let capacity = 1_000

    private let log = Lock(Log())

    private struct Log {
        var lines: [String] = []
        /// Lines dropped since the last take, oldest first.
        var dropped = 0
        var hook: (@Sendable () -> Void)?
    }

    func append(_ line: String) {
        append(contentsOf: [line])
    }

    func append(contentsOf newLines: [String]) {
        guard !newLines.isEmpty else { return }
        let hook = log.withLock { log in
            log.lines += newLines
            if log.lines.count > Self.capacity {
                log.dropped += log.lines.count - Self.capacity
                log.lines.removeFirst(log.lines.count - Self.capacity)
            }
            return log.hook
        }
        hook?()
    }

    /// Calls `hook` after every append.
    func onAppend(_ hook: @escaping @Sendable () -> Void) {
        log.withLock { $0.hook = hook }
    }

    /// The lines so far (the last ``capacity``, after a line saying how many earlier
    /// ones were dropped), leaving none.
    func take() -> [String] {
        log.withLock { log in
            defer { log = Log(hook: log.hook) }
            return log.dropped > 0 ? ["(\(log.dropped) earlier lines not kept)"] + log.lines : log.lines
        }
    }
}
