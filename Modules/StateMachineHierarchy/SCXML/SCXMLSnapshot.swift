/// A saved ``SCXMLInterpreter``: everything needed to resume it on another machine (or
/// after a restart) as if it had not stopped. `Codable`; encode it with `JSONEncoder`.
///
/// States are named by id, so a snapshot stays valid for any document that has those
/// ids in the same structure. ``SCXMLInterpreter/init(document:restoring:options:clock:onMacrostep:)``
/// checks it against the document.
///
/// ```json
/// {"configuration": ["editing", "draft"], "history": {"h": ["draft"]},
///  "pendingSends": [{"event": "autosave", "sendID": "save", "remainingNanoseconds": 1500000000}],
///  "internalQueue": [], "externalQueue": [], "locations": {}, "generatedSendIDCount": 0,
///  "isRunning": true, "isDone": false}
/// ```
public struct SCXMLSnapshot: Codable, Sendable, Equatable {
    /// A delayed `<send>` that had not fired when the snapshot was taken.
    public struct PendingSend: Codable, Sendable, Equatable {
        /// The event it will send.
        public var event: String
        /// Its send id (from `id`, or generated for `idlocation`), which `<cancel>` uses.
        public var sendID: String?
        /// The delay it had left when the snapshot was taken (zero if it was already due).
        public var remaining: Duration

        /// A pending send of `event` due in `remaining`.
        public init(event: String, sendID: String?, remaining: Duration) {
            self.event = event
            self.sendID = sendID
            self.remaining = remaining
        }

        private enum CodingKeys: String, CodingKey {
            case event, sendID, remainingNanoseconds
        }

        /// Decodes `remainingNanoseconds` as an integer count of nanoseconds.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            event = try container.decode(String.self, forKey: .event)
            sendID = try container.decodeIfPresent(String.self, forKey: .sendID)
            remaining = .nanoseconds(try container.decode(Int64.self, forKey: .remainingNanoseconds))
        }

        /// Encodes `remaining` as `remainingNanoseconds`, an integer (exact, readable).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(event, forKey: .event)
            try container.encodeIfPresent(sendID, forKey: .sendID)
            try container.encode(remaining.snapshotNanoseconds, forKey: .remainingNanoseconds)
        }
    }

    /// Ids of every active state (atomic and compound), in document order; empty for a
    /// machine that was never started.
    public var configuration: [String]
    /// For every history state that has a value: the states it remembers.
    public var history: [String: [String]]
    /// Raised events not processed yet (empty between macrosteps, which is when
    /// snapshots are taken).
    public var internalQueue: [String]
    /// External events queued behind the macrostep that was running, in order.
    public var externalQueue: [String]
    /// `idlocation` slots: slot name to the send id stored there.
    public var locations: [String: String]
    /// How many send ids the machine had generated, so restored ids stay unique.
    public var generatedSendIDCount: Int
    /// Delayed sends not yet fired, in deadline order.
    public var pendingSends: [PendingSend]
    /// Whether the machine was running.
    public var isRunning: Bool
    /// Whether the machine had reached a top-level `<final>`.
    public var isDone: Bool

    /// A snapshot made of its parts (normally obtained from ``SCXMLInterpreter/snapshot()``).
    public init(
        configuration: [String],
        history: [String: [String]] = [:],
        internalQueue: [String] = [],
        externalQueue: [String] = [],
        locations: [String: String] = [:],
        generatedSendIDCount: Int = 0,
        pendingSends: [PendingSend] = [],
        isRunning: Bool,
        isDone: Bool = false
    ) {
        self.configuration = configuration
        self.history = history
        self.internalQueue = internalQueue
        self.externalQueue = externalQueue
        self.locations = locations
        self.generatedSendIDCount = generatedSendIDCount
        self.pendingSends = pendingSends
        self.isRunning = isRunning
        self.isDone = isDone
    }
}
