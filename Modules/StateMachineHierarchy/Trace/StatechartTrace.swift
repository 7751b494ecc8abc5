/// What a run of a chart did, step by step: the recording that `statechart run --record`
/// writes as JSON and that ``Statechart/stepThroughPage(_:)`` shows.
///
/// Names are the states' and events' names as diagrams show them, so a trace of a typed
/// chart and one of an SCXML document read the same. `Codable`: its JSON form is
/// `{"chart": ..., "steps": [{"event": ..., "exited": [...], "entered": [...],
/// "actions": [...], "configuration": [...]}]}`, `event` left out when it is nil.
public struct StatechartTrace: Sendable, Equatable, Codable {
    /// One run-to-completion step (or the start).
    public struct Step: Sendable, Equatable, Codable {
        /// The event the step handled; nil for the start and for a step no event started
        /// (a delayed transition firing).
        public var event: String?
        /// The states exited, in the order they were exited.
        public var exited: [String]
        /// The states entered, in the order they were entered.
        public var entered: [String]
        /// What else the step did: internal transitions (`internal <state> on <event>`),
        /// and for an SCXML document its trace of raised events, logs and sends.
        public var actions: [String]
        /// The active states after the step, in document order.
        public var configuration: [String]

        /// A step.
        public init(
            event: String?,
            exited: [String] = [],
            entered: [String] = [],
            actions: [String] = [],
            configuration: [String]
        ) {
            self.event = event
            self.exited = exited
            self.entered = entered
            self.actions = actions
            self.configuration = configuration
        }
    }

    /// The chart's name.
    public var chart: String
    /// The steps, the start first.
    public var steps: [Step]

    /// A trace of `steps` of the chart named `chart`.
    public init(chart: String, steps: [Step] = []) {
        self.chart = chart
        self.steps = steps
    }
}
