/// A running ``Statechart``'s state between two steps, as plain `Codable` values: encode
/// it with `JSONEncoder`, store it, and resume the chart later with
/// ``Statechart/init(_:options:clock:restoring:)``.
///
/// It holds the active configuration, what every history pseudo state remembers, the
/// progress of partial joins, how long each pending delayed transition still has to
/// wait and, for charts read from SCXML, the session's pending delayed `<send>`s and
/// `idlocation` slots (``scxml``). States are named by path (`b/b2/b21`), so a snapshot survives a rebuild of the
/// same chart. Queued and deferred events are not part of it: they belong to the senders.
public struct StatechartSnapshot: Codable, Sendable, Hashable {
    /// A delayed transition still waiting for its timer.
    public struct PendingTimer: Codable, Sendable, Hashable {
        /// The path of the state the transition leaves.
        public var state: String
        /// Which of that state's delayed transitions, in declaration order (from 0): the
        /// snapshot's bookkeeping, written by ``Statechart/snapshot()`` and read back by a
        /// restore, not something to set by hand.
        package var transition: Int
        /// The time left until it fires (zero if it was already due).
        public var remaining: Duration

        /// A pending timer of the state at path `state`.
        @available(
            *,
            deprecated,
            message:
                "pending timers come from Statechart.snapshot(); the transition's number is the snapshot's bookkeeping"
        )
        public init(state: String, transition: Int, remaining: Duration) {
            self.init(state: state, delayedTransition: transition, remaining: remaining)
        }

        /// A pending timer of the state at path `state`, for its delayed transition number
        /// `delayedTransition` (what ``Statechart/snapshot()`` makes).
        package init(state: String, delayedTransition: Int, remaining: Duration) {
            self.state = state
            self.transition = delayedTransition
            self.remaining = remaining
        }

        private enum CodingKeys: String, CodingKey {
            case state, transition, remainingNanoseconds
        }

        /// Decodes `remainingNanoseconds` as an integer count of nanoseconds.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            state = try container.decode(String.self, forKey: .state)
            transition = try container.decode(Int.self, forKey: .transition)
            remaining = .nanoseconds(try container.decode(Int64.self, forKey: .remainingNanoseconds))
        }

        /// Encodes `remaining` as `remainingNanoseconds`, an integer (exact, readable).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(state, forKey: .state)
            try container.encode(transition, forKey: .transition)
            try container.encode(remaining.snapshotNanoseconds, forKey: .remainingNanoseconds)
        }
    }

    /// What an SCXML session keeps besides its states: the delayed `<send>`s that had not
    /// fired, and its data: the send ids of its `idlocation` slots (null data model) or its
    /// variables (other data models). Only charts read from SCXML have one; it is nil for
    /// typed and JSON charts.
    public struct SCXMLSession: Codable, Sendable, Hashable {
        /// A delayed send (SCXML's `<send delay>`) that had not fired.
        public struct PendingSend: Codable, Sendable, Hashable {
            /// The event it will send.
            public var event: String
            /// Its send id (from `id`, or generated for `idlocation`), which `<cancel>` uses.
            public var sendID: String?
            /// The event's data (`_event.data`), if any.
            public var data: SCXMLValue?
            /// The delay it had left (zero if it was already due).
            public var remaining: Duration

            /// A pending send of `event` due in `remaining`.
            public init(event: String, sendID: String? = nil, data: SCXMLValue? = nil, remaining: Duration) {
                self.event = event
                self.sendID = sendID
                self.data = data
                self.remaining = remaining
            }

            private enum CodingKeys: String, CodingKey {
                case event, sendID, data, remainingNanoseconds
            }

            /// Decodes `remainingNanoseconds` as an integer count of nanoseconds.
            public init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                event = try container.decode(String.self, forKey: .event)
                sendID = try container.decodeIfPresent(String.self, forKey: .sendID)
                data = try container.decodeIfPresent(SCXMLValue.self, forKey: .data)
                remaining = .nanoseconds(try container.decode(Int64.self, forKey: .remainingNanoseconds))
            }

            /// Encodes `remaining` as `remainingNanoseconds`, an integer (exact, readable).
            public func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(event, forKey: .event)
                try container.encodeIfPresent(sendID, forKey: .sendID)
                try container.encodeIfPresent(data, forKey: .data)
                try container.encode(remaining.snapshotNanoseconds, forKey: .remainingNanoseconds)
            }
        }

        /// The delayed sends waiting for their timers, in the order they were made.
        public var sends: [PendingSend]
        /// The `idlocation` slots of a null-data-model session: the send id last generated
        /// into each (the interpreter's bookkeeping, kept under the JSON key `sendIDSlots`).
        package var sendIDSlots: [String: String]
        /// How many send ids were generated so far, so that restored ones stay unique (the
        /// interpreter's bookkeeping, kept under the JSON key `generatedSendIDCount`).
        package var generatedSendIDCount: Int
        /// The variables of a session with a data model (ECMAScript's), as JSON values; nil
        /// for the null data model.
        public var data: [String: SCXMLValue]?

        /// A session's pending sends and variables.
        public init(sends: [PendingSend] = [], data: [String: SCXMLValue]? = nil) {
            self.init(sends: sends, data: data, idSlots: [:], generatedIDs: 0)
        }

        /// A session's sends, slots and variables.
        @available(
            *,
            deprecated,
            message:
                "use init(sends:data:); send id slots and counts are the interpreter's bookkeeping, which its snapshots fill in"
        )
        public init(
            sends: [PendingSend] = [],
            sendIDSlots: [String: String],
            generatedSendIDCount: Int,
            data: [String: SCXMLValue]? = nil
        ) {
            self.init(sends: sends, data: data, idSlots: sendIDSlots, generatedIDs: generatedSendIDCount)
        }

        /// Every part, bookkeeping included (the interpreter's and the engine's snapshots).
        package init(sends: [PendingSend], data: [String: SCXMLValue]?, idSlots: [String: String], generatedIDs: Int) {
            self.sends = sends
            self.sendIDSlots = idSlots
            self.generatedSendIDCount = generatedIDs
            self.data = data
        }
    }

    /// The chart's name (its root region), checked when restoring.
    public var chart: String
    /// Whether the chart was running; a snapshot of a stopped chart restores a stopped chart.
    public var isRunning: Bool
    /// The paths of the active states, in document order.
    public var configuration: [String]
    /// Per history pseudo state that has recorded something: the paths it remembers.
    public var history: [String: [String]]
    /// Per join with partial progress: the paths of the sources that have arrived.
    public var joins: [String: [String]]
    /// The delayed transitions whose timers are running.
    public var timers: [PendingTimer]
    /// An SCXML session's sends and send ids; nil for charts not read from SCXML.
    public var scxml: SCXMLSession?

    /// A snapshot made of its parts; normally obtained from ``Statechart/snapshot()``.
    public init(
        chart: String,
        isRunning: Bool,
        configuration: [String],
        history: [String: [String]] = [:],
        joins: [String: [String]] = [:],
        timers: [PendingTimer] = [],
        scxml: SCXMLSession? = nil
    ) {
        self.scxml = scxml
        self.chart = chart
        self.isRunning = isRunning
        self.configuration = configuration
        self.history = history
        self.joins = joins
        self.timers = timers
    }

    private enum CodingKeys: String, CodingKey {
        case chart, isRunning, configuration, history, joins, timers, scxml
    }

    /// Decodes a snapshot; `history`, `joins`, `timers` and `scxml` may be absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        chart = try container.decode(String.self, forKey: .chart)
        isRunning = try container.decode(Bool.self, forKey: .isRunning)
        configuration = try container.decode([String].self, forKey: .configuration)
        history = try container.decodeIfPresent([String: [String]].self, forKey: .history) ?? [:]
        joins = try container.decodeIfPresent([String: [String]].self, forKey: .joins) ?? [:]
        timers = try container.decodeIfPresent([PendingTimer].self, forKey: .timers) ?? []
        scxml = try container.decodeIfPresent(SCXMLSession.self, forKey: .scxml)
    }
}
