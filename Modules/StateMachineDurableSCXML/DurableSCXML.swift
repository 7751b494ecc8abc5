import FoundationEssentials
import StateMachineDurable
import StateMachineHierarchy
import StateMachineSCXML

/// An SCXML session made durable: its configuration, history, data model variables, pending
/// delayed `<send>`s and invoked child sessions are stored after every step.
///
/// The document is loaded as for `SCXMLInterpreter`, with its data model: pass a document
/// loaded with `dataModel: .ecmascript` (from `StateMachineECMAScript`) to run ECMAScript, whose
/// variables are part of the stored state (they must be JSON values: a function or a cycle
/// fails the step that made it). This product links neither the JavaScript engine nor
/// anything a Core or table user of durable machines needs.
///
/// The session runs on a clock the machine drives from the store's clock:
/// - A delayed `<send>` to the session itself is a timer of the machine, stored with its
///   absolute due time (`DurableTimer` `send:<sendid>`, or `send:#<n>` for a send without
///   an id; `invoke:<invokeid>/send:...` for a child's), which fires at that time, after a
///   restart too; `DurableTimerPolicy` says what happens to one that fell due while the
///   machine was closed. `<cancel>` removes it.
/// - A `<send>` to a target outside the process (a URI, or a `#_scxml_<id>` session that
///   does not run here) goes to the outbox as the effect ``sendEffect`` with a ``Send``
///   payload, recorded in the step's transaction and delivered after its commit, at least
///   once, with a stable key (`DeliveredEffect/key`) the receiver deduplicates on. The
///   `sends` handler delivers it and may return an event for this session. A delayed one
///   is a timer of the machine until it falls due (`<cancel>` removes it, and so does the
///   session ending). Without a `sends` handler such sends raise `error.execution`, as
///   they do in a plain interpreter.
/// - `<invoke type="scxml">` children are stored with their parent, each with its own
///   configuration, variables and delayed sends, and reopened with it.
///
/// ```swift
/// let document = try SCXMLDocument(xml: text, dataModel: .ecmascript)
/// let form = DurableSCXML(version: "1", document: document) { send, effect in
///     try await orders.deliver(send.event, data: send.data, deduplicatingOn: effect.key)
///     return nil
/// }
/// let session = try await store.open("order-17", form)
/// try await session.send(.init("pay", data: .object(["amount": .number(3)])))
/// print(await session.state.variables["total"])
/// ```
public struct DurableSCXML: DurableForm {
    /// An external event for the session: its name and `_event.data`.
    public struct Event: Sendable, Codable, Hashable {
        /// The event's name.
        public var name: String
        /// Its data (`_event.data` under a data model), if any.
        public var data: SCXMLValue?

        /// The event `name` with `data`.
        public init(_ name: String, data: SCXMLValue? = nil) {
            self.name = name
            self.data = data
        }
    }

    /// The session as `DurableMachine/state` gives it, as of its last step.
    public struct State: Sendable, Hashable {
        /// The ids of the active states (atomic and compound), in document order.
        public var configuration: [String]
        /// The session's data model variables (empty for the null data model).
        public var variables: [String: SCXMLValue]
        /// Whether the session reached a top-level `<final>`.
        public var isDone: Bool

        /// A session's state.
        public init(configuration: [String], variables: [String: SCXMLValue], isDone: Bool) {
            self.configuration = configuration
            self.variables = variables
            self.isDone = isDone
        }
    }

    /// The payload of a ``sendEffect``: a `<send>` to a target outside the process.
    public struct Send: Sendable, Codable, Hashable {
        /// The evaluated `target` or `targetexpr`.
        public var target: String?
        /// The evaluated `type` or `typeexpr`, if any.
        public var type: String?
        /// The event's name.
        public var event: String
        /// The send's id (`id`, or generated for `idlocation`), if any.
        public var sendID: String?
        /// The event's data (`<param>`s, `namelist` or `<content>`), if any.
        public var data: SCXMLValue?

        /// A send.
        public init(target: String?, type: String? = nil, event: String, sendID: String? = nil, data: SCXMLValue? = nil)
        {
            self.target = target
            self.type = type
            self.event = event
            self.sendID = sendID
            self.data = data
        }
    }

    /// Delivers a ``Send`` taken from the outbox (`effect` gives its stable key) and returns
    /// the event it feeds back into the session, if any. Throwing leaves it in the outbox,
    /// to be delivered again, with the same key, by a later open.
    public typealias SendHandler = @Sendable (_ send: Send, _ effect: DeliveredEffect) async throws -> Event?

    /// The name of the outbox effect of a `<send>` to a target outside the process.
    public static let sendEffect = "scxml.send"

    /// The session's document.
    public let document: SCXMLDocument
    /// The semantics the document runs with.
    public let options: StatechartOptions
    let handler: SendHandler?
    /// The document's version and the fingerprint of its structure (see ``init(version:document:options:sends:)``).
    public let identity: DefinitionIdentity

    /// The durable form of sessions of `document`.
    /// - Parameters:
    ///   - version: the definition's version, stored with the machine.
    ///   - document: the loaded document, with its data model. The fingerprint is made of
    ///     its structure (states, transitions, executable content, scripts' text, the
    ///     structure of the documents it invokes inline), not of its layout.
    ///   - options: the semantics (SCXML's by default).
    ///   - sends: delivers `<send>`s to targets outside the process (see ``SendHandler``);
    ///     nil makes them raise `error.execution`.
    public init(
        version: String,
        document: SCXMLDocument,
        options: StatechartOptions = .scxml,
        sends: SendHandler? = nil
    ) {
        self.document = document
        self.options = options
        handler = sends
        var fingerprint = Fingerprint()
        fingerprint.add("scxml \(options)")
        for line in document.structureLines { fingerprint.add(line) }
        identity = DefinitionIdentity(version: version, fingerprint: fingerprint.hex)
    }

    /// Encodes `event` as JSON.
    public func encode(event: Event) throws -> Data { try JSONEncoder.sortingKeys().encode(event) }

    /// Decodes an ``Event`` from JSON.
    public func decode(event: Data) throws -> Event {
        try JSONDecoder().decodeStored(Event.self, from: event, what: "event")
    }

    /// A session started afresh (`state` nil), or reopened at the stored `state` with its
    /// delayed sends at the due times `timers` give, at store time `now`.
    public func makeInstance(
        restoring state: Data?,
        at now: DurableInstant,
        timers: [DurableTimer],
        effects: DurableEffects
    ) throws -> Instance {
        let recorder = OutsideRecorder()
        let clock = ManualStatechartClock()
        let interpreter = SCXMLInterpreter(
            document: document,
            options: options,
            clock: clock,
            outside: handler == nil ? nil : recorder.outside
        )
        guard let state else {
            let instance = Instance(
                interpreter: interpreter,
                clock: clock,
                base: now,
                recorder: recorder,
                effects: effects
            )
            try interpreter.start()
            try instance.settle()
            return instance
        }
        let stored: StoredSession
        do {
            stored = try JSONDecoder().decode(StoredSession.self, from: state)
        } catch {
            throw DurableError.encoding("the stored state is not a durable SCXML session: \(error)")
        }
        // The session's clock starts at the earliest of now and the timers' due times, so
        // that a delayed send that fell due while the machine was closed keeps its due time
        // (the runtime fires it at that time, before anything else).
        let base = timers.map(\.due).min().map { min($0, now) } ?? now
        let instance = Instance(interpreter: interpreter, clock: clock, base: base, recorder: recorder, effects: effects)
        try instance.restore(stored, timers: timers)
        return instance
    }

    /// Sends `event` to the session at store time `now` (delayed sends due by then first).
    public nonisolated(nonsending) func apply(
        _ event: Event,
        to instance: Instance,
        at now: DurableInstant
    ) async throws {
        instance.advance(to: now)
        if let data = event.data {
            try instance.interpreter.send(event.name, data: data)
        } else {
            try instance.interpreter.send(event.name)
        }
        try instance.settle()
    }

    /// Fires the delayed send `id` at its due time.
    public nonisolated(nonsending) func fire(
        timer id: String,
        in instance: Instance,
        at due: DurableInstant
    ) async throws {
        instance.advance(to: due)
        try instance.fireOutgoing(id)
        try instance.settle()
    }

    /// The session's stored form: its tree of sessions as JSON, delayed sends left out
    /// (they are the machine's timers).
    public func encodeState(of instance: Instance) throws -> Data {
        try JSONEncoder.sortingKeys().encode(instance.stored())
    }

    /// The active configuration, variables and whether the session is done.
    public func state(of instance: Instance) -> State {
        State(
            configuration: instance.interpreter.activeStates,
            variables: instance.tree.snapshot.scxml?.data ?? [:],
            isDone: instance.interpreter.isDone
        )
    }

    /// The delayed sends of the session and its children, by absolute due time.
    public func timers(of instance: Instance) -> [DurableTimer] { instance.timers }

    /// Delivers a ``sendEffect`` through the `sends` handler.
    public func perform(_ effect: DeliveredEffect) async throws -> Event? {
        guard effect.name == Self.sendEffect, let handler else {
            throw DurableError.encoding("no handler for effect '\(effect.name)' (\(effect.key))")
        }
        return try await handler(try effect.decode(Send.self), effect)
    }
}
