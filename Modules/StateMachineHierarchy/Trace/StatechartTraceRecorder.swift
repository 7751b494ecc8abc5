import StateMachineSupport

extension Statechart {
    /// A recorder of this chart's steps: start and send events through it, then read its
    /// ``StatechartTraceRecorder/trace``, or write a page that steps through it with
    /// ``stepThroughPage(_:)``.
    ///
    /// The recorder observes every state's entries, exits and internal transitions (as
    /// ``observe(_:at:_:)`` does) until it is released or ``StatechartTraceRecorder/stop()``
    /// is called; each call of ``StatechartTraceRecorder/start(payload:)`` or
    /// ``StatechartTraceRecorder/handle(_:payload:)`` records one step. What happens between
    /// two calls (a delayed transition firing) is recorded as a step without an event.
    public func recordTrace() -> StatechartTraceRecorder<StateID, EventID, Payload> {
        StatechartTraceRecorder(chart: self)
    }

    /// One self-contained HTML page that steps through `trace`: the chart's diagram as SVG
    /// (rendered by Graphviz), the list of steps, and buttons and the arrow keys to step
    /// forward and back, highlighting the active states and the transitions just taken.
    /// The page loads nothing: its styles, script and data are inline.
    /// - Throws: ``GraphvizError`` when Graphviz cannot render the diagram.
    public func stepThroughPage(_ trace: StatechartTrace) throws(GraphvizError) -> String {
        try StepThroughPage.html(
            title: trace.chart,
            diagram: definition.diagram,
            steps: trace.pageSteps,
            prefixMatching: options.eventMatching == .prefix
        )
    }
}

extension StatechartTrace {
    /// The steps as the page takes them.
    package var pageSteps: [TracePageStep] {
        steps.map {
            TracePageStep(
                event: $0.event,
                exited: $0.exited,
                entered: $0.entered,
                actions: $0.actions,
                configuration: $0.configuration,
                variables: $0.variables?.mapValues(\.json)
            )
        }
    }
}

/// Records the steps of one ``Statechart``, made by ``Statechart/recordTrace()``.
///
/// Start and send events through the recorder: each call is one step of the trace, with
/// the states it exited and entered (as the chart's notifications report them, in order),
/// its internal transitions, and the configuration after it. Events sent to the chart
/// directly are recorded too, as part of the next step the recorder records. Safe to use
/// from any thread; a recorder costs the chart what as many subscriptions cost.
public final class StatechartTraceRecorder<
    StateID: Hashable & Sendable,
    EventID: Hashable & Sendable,
    Payload: Sendable
>:
    Sendable
{
    private let chart: Statechart<StateID, EventID, Payload>
    private let subscriptions: Lock<[StatechartSubscription]>
    private let recording: Lock<Recording>

    private struct Recording {
        var trace: StatechartTrace
        /// What the notifications reported since the last recorded step.
        var exited: [String] = []
        var entered: [String] = []
        var actions: [String] = []

        var isEmpty: Bool { exited.isEmpty && entered.isEmpty && actions.isEmpty }

        /// Closes a step: what was reported since the last one, and `configuration`.
        mutating func close(event: String?, configuration: [String]) {
            trace.steps.append(
                StatechartTrace.Step(
                    event: event,
                    exited: exited,
                    entered: entered,
                    actions: actions,
                    configuration: configuration
                )
            )
            exited = []
            entered = []
            actions = []
        }
    }

    init(chart: Statechart<StateID, EventID, Payload>) {
        self.chart = chart
        let recording = Lock(Recording(trace: StatechartTrace(chart: chart.definition.name)))
        self.recording = recording
        var subscriptions: [StatechartSubscription] = []
        let observers = chart.hooks.observers
        for (index, _) in chart.model.ids.enumerated() {
            let state = Int32(index)
            var kinds: [Statechart<StateID, EventID, Payload>.Notification.Kind] = [.entered, .exited]
            kinds += chart.model.eventIDs.map { .internalTransition($0) }
            for kind in kinds {
                let token = observers.add(state: state, kind: kind) { notification in
                    let name = statechartName(notification.state)
                    recording.withLock { recording in
                        switch notification.kind {
                        case .entered: recording.entered.append(name)
                        case .exited: recording.exited.append(name)
                        case .internalTransition(let event):
                            recording.actions.append("internal \(name) on \(statechartName(event))")
                        }
                    }
                }
                subscriptions.append(StatechartSubscription(registry: observers, state: state, token: token))
            }
        }
        self.subscriptions = Lock(subscriptions)
    }

    /// The steps recorded so far.
    public var trace: StatechartTrace {
        recording.withLock { $0.trace }
    }

    /// Starts the chart (``Statechart/start(payload:)``) and records the step.
    public func start(payload: Payload? = nil) {
        closePending()
        chart.start(payload: payload)
        close(event: nil)
    }

    /// Handles `event` (``Statechart/handle(_:payload:)-(EventID,_)``) and records the step, whatever
    /// its outcome.
    /// - Throws: what ``Statechart/handle(_:payload:)-(EventID,_)`` throws; the step is recorded first.
    @discardableResult
    public func handle(_ event: EventID, payload: Payload? = nil) throws -> StatechartStepOutcome {
        closePending()
        defer { close(event: statechartName(event)) }
        return try chart.handle(event, payload: payload)
    }

    /// Stops recording: the chart is no longer observed. The trace stays readable.
    public func stop() {
        closePending()
        let subscriptions = self.subscriptions.withLock { subscriptions in
            defer { subscriptions = [] }
            return subscriptions
        }
        for subscription in subscriptions { subscription.cancel() }
    }

    /// Records what happened since the last step, if anything, as a step without an event.
    private func closePending() {
        let configuration = chart.activeStates.map { statechartName($0) }
        recording.withLock { recording in
            if !recording.isEmpty { recording.close(event: nil, configuration: configuration) }
        }
    }

    private func close(event: String?) {
        let configuration = chart.activeStates.map { statechartName($0) }
        recording.withLock { $0.close(event: event, configuration: configuration) }
    }
}
