/// What a run of a chart did, step by step: the recording that `statechart run --record`
/// writes as JSON and that ``Statechart/stepThroughPage(_:)`` shows.
///
/// Names are the states' and events' names as diagrams show them, so a trace of a typed
/// chart and one of an SCXML document read the same. `Codable`: its JSON form is
/// `{"chart": ..., "steps": [{"event": ..., "exited": [...], "entered": [...],
/// "actions": [...], "configuration": [...], "variables": {...}}]}`, `event` and `variables`
/// left out when they are nil.
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
        /// What else the step did: internal transitions (`internal <state> on <event>`), and
        /// for an SCXML document the events it processed and the executable content that ran
        /// (`assign display`, `log ...`, `send ...`, `raise ...`, `cancel ...`, `script line
        /// 12`, as `statechart run` records them).
        public var actions: [String]
        /// The active states after the step, in document order.
        public var configuration: [String]
        /// The data model's variables after the step (an SCXML document with a data model);
        /// nil, and left out of the JSON, for a chart without one.
        public var variables: [String: SCXMLValue]?

        /// A step.
        public init(
            event: String?,
            exited: [String] = [],
            entered: [String] = [],
            actions: [String] = [],
            configuration: [String],
            variables: [String: SCXMLValue]? = nil
        ) {
            self.event = event
            self.exited = exited
            self.entered = entered
            self.actions = actions
            self.configuration = configuration
            self.variables = variables
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
