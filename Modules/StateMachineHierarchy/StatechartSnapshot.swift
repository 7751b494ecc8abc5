/// A running ``Statechart``'s state between two steps, as plain `Codable` values: encode
/// it with `JSONEncoder`, store it, and resume the chart later with
/// ``Statechart/init(_:options:clock:restoring:)``.
///
/// It holds the active configuration, what every history pseudo state remembers, the
/// progress of partial joins, and how long each pending delayed transition still has to
/// wait. States are named by path (`b/b2/b21`), so a snapshot survives a rebuild of the
/// same chart. Queued and deferred events are not part of it: they belong to the senders.
public struct StatechartSnapshot: Codable, Sendable, Hashable {
    /// A delayed transition still waiting for its timer.
    public struct PendingTimer: Codable, Sendable, Hashable {
        /// The path of the state the transition leaves.
        public var state: String
        /// Which of that state's delayed transitions, in declaration order (from 0).
        public var transition: Int
        /// The time left until it fires (zero if it was already due).
        public var remaining: Duration

        /// A pending timer of the state at path `state`.
        public init(state: String, transition: Int, remaining: Duration) {
            self.state = state
            self.transition = transition
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

        /// Encodes `remaining` as `remainingNanoseconds`, an integer (exact, like `SCXMLSnapshot`'s).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(state, forKey: .state)
            try container.encode(transition, forKey: .transition)
            try container.encode(remaining.snapshotNanoseconds, forKey: .remainingNanoseconds)
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

    /// A snapshot made of its parts; normally obtained from ``Statechart/snapshot()``.
    public init(
        chart: String,
        isRunning: Bool,
        configuration: [String],
        history: [String: [String]] = [:],
        joins: [String: [String]] = [:],
        timers: [PendingTimer] = []
    ) {
        self.chart = chart
        self.isRunning = isRunning
        self.configuration = configuration
        self.history = history
        self.joins = joins
        self.timers = timers
    }
}
