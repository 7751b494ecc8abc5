import FoundationEssentials
import StateMachineCore
import StateMachineSupport

/// A Core machine made durable: its `StateMachine` definition, run one committed step at
/// a time by a ``DurableMachine``.
///
/// A Core machine's states and events are many concrete types; the ones it stores are
/// registered, `Codable`, with a name (``DurableTypes``). Its outputs become effects: an
/// output made with `Output(effect:)` from a registered `OutputEffect` type is recorded
/// by name in the outbox and performed after the commit (the event it returns is fed back);
/// a ``Delayed`` output schedules its event on the store's clock. An output made from a
/// closure cannot be stored, and fails its step.
///
/// ```swift
/// var types = DurableTypes<Turnstile, Push>()
/// types.state(Locked.self, named: "locked")
/// types.event(Coin.self, named: "coin")
/// types.effect(Unlock.self, named: "unlock")
/// let turnstile = try await store.open("gate-3", DurableCore(machine, version: "1", types: types))
/// ```
public struct DurableCore<SuperState, SuperEvent>: DurableForm {
    /// Any event of the machine.
    public typealias Event = any StateMachineCore.Event<SuperEvent>
    /// Any state of the machine.
    public typealias State = any StateMachineCore.State<SuperState>

    /// A running Core machine: its current state.
    public final class Instance {
        var state: State
        let effects: DurableEffects

        init(state: State, effects: DurableEffects) {
            self.state = state
            self.effects = effects
        }
    }

    let machine: StateMachine<SuperState, SuperEvent>
    let types: DurableTypes<SuperState, SuperEvent>
    public let identity: DefinitionIdentity

    /// The durable form of `machine`, whose stored states, events and effects are `types`.
    /// The fingerprint covers the registered names and types and the machine's routes.
    public init(_ machine: StateMachine<SuperState, SuperEvent>, version: String, types: DurableTypes<SuperState, SuperEvent>) {
        self.machine = machine
        self.types = types
        var fingerprint = Fingerprint()
        fingerprint.add("core")
        fingerprint.add(String(reflecting: type(of: machine.initial)))
        fingerprint.add(String(machine.routedPairCount))
        for line in types.signature { fingerprint.add(line) }
        identity = DefinitionIdentity(version: version, fingerprint: fingerprint.hex)
    }

    public func encode(event: Event) throws -> Data { try types.events.encode(event) }

    public func decode(event: Data) throws -> Event { try types.events.decode(event) }

    public func makeInstance(
        restoring state: Data?,
        at now: DurableInstant,
        timers: [DurableTimer],
        effects: DurableEffects
    ) throws -> Instance {
        Instance(state: try state.map(types.states.decode) ?? machine.initial, effects: effects)
    }

    public nonisolated(nonsending) func apply(_ event: Event, to instance: Instance, at now: DurableInstant) async throws {
        guard let transition = await machine.transition(state: instance.state, event: event) else { return }
        if let output = transition.output {
            guard let effect = output.effect else {
                throw DurableError.encoding(
                    "the output for \(instance.state) + \(event) is a closure, which a durable machine cannot record: make it with Output(effect:) and register its type"
                )
            }
            if let delayed = effect as? Delayed<SuperEvent> {
                instance.effects.schedule(encoded: try types.events.encode(delayed.event), after: delayed.delay, id: delayed.id)
            } else {
                let (name, payload) = try types.effects.encodeNamed(effect)
                instance.effects.record(.effect(name: name, payload: payload))
            }
        }
        if let next = transition.transition { instance.state = await next.state() }
    }

    public func encodeState(of instance: Instance) throws -> Data { try types.states.encode(instance.state) }

    public func state(of instance: Instance) -> State { instance.state }

    public func perform(_ effect: DeliveredEffect) async throws -> Event? {
        let value = try types.effects.decode(name: effect.name, payload: effect.payload)
        return try await DeliveredEffect.$current.withValue(effect) { try await value.perform() }
    }
}

/// An output that feeds `event` back into the machine after `delay`.
///
/// In an `AsyncStateMachine` it sleeps for `delay` in the output's task. In a durable
/// machine (``DurableCore``) it is stored as a timer with its due time on the store's
/// clock, fires after a restart, and is replaced by another `Delayed` with the same `id`.
public struct Delayed<SuperEvent>: OutputEffect {
    /// How long to wait.
    public let delay: Duration
    /// What to feed back.
    public let event: any StateMachineCore.Event<SuperEvent>
    /// Names the timer; nil gives each its own.
    public let id: String?

    /// An output feeding `event` back after `delay`.
    public init(_ delay: Duration, send event: any StateMachineCore.Event<SuperEvent>, id: String? = nil) {
        self.delay = delay
        self.event = event
        self.id = id
    }

    /// Sleeps for `delay`, then returns `event`.
    public func perform() async throws -> (any StateMachineCore.Event<SuperEvent>)? {
        try await Task.sleep(for: delay)
        return event
    }
}

/// The `Codable` state, event and effect types of a Core machine a ``DurableCore`` stores,
/// each under a name unique among its kind (the name is what the store holds, so a type
/// can be renamed in code without touching stored machines).
public struct DurableTypes<SuperState, SuperEvent>: Sendable {
    var states = TypeRegistry<any StateMachineCore.State<SuperState>>(kind: "state")
    var events = TypeRegistry<any StateMachineCore.Event<SuperEvent>>(kind: "event")
    var effects = TypeRegistry<any OutputEffect<SuperEvent>>(kind: "effect")

    /// No types yet.
    public init() {}

    /// Registers the state type `type` under `name`.
    public mutating func state<S: StateMachineCore.State & Codable>(_ type: S.Type, named name: String)
    where S.SuperState == SuperState {
        states.register(type, named: name)
    }

    /// Registers the event type `type` under `name`.
    public mutating func event<E: StateMachineCore.Event & Codable>(_ type: E.Type, named name: String)
    where E.SuperEvent == SuperEvent {
        events.register(type, named: name)
    }

    /// Registers the effect type `type` under `name`: an output made with
    /// `Output(effect:)` from it is recorded in the outbox under `name`.
    public mutating func effect<F: OutputEffect & Codable>(_ type: F.Type, named name: String)
    where F.SuperEvent == SuperEvent {
        effects.register(type, named: name)
    }

    /// The registrations, for the definition's fingerprint.
    var signature: [String] { states.signature + events.signature + effects.signature }
}

/// Named `Codable` types behind one existential: encodes a value as
/// `{"type": name, "value": …}` and decodes it back by name.
struct TypeRegistry<Value>: Sendable {
    private struct Entry: Sendable {
        let name: String
        let typeName: String
        let encode: @Sendable (Value) throws -> Data?
        let decode: @Sendable (Data) throws -> Value
        let decodeEnvelope: @Sendable (Data) throws -> Value
    }

    /// `{"type": name}`, the first reading of an envelope.
    private struct Name: Decodable { let type: String }
    /// `{"value": T}`, the second.
    private struct Wrapped<T: Decodable>: Decodable { let value: T }

    let kind: String
    private var byName: [String: Entry] = [:]
    private var order: [Entry] = []

    init(kind: String) { self.kind = kind }

    mutating func register<T: Codable & SendableMetatype>(_ type: T.Type, named name: String) {
        let encoder = JSONEncoder.sortingKeys()
        let decoder = JSONDecoder()
        let entry = Entry(
            name: name,
            typeName: String(reflecting: type),
            encode: { value in
                guard let value = value as? T else { return nil }
                return try encoder.encode(value)
            },
            decode: { data in
                // `as!` cannot fail: `register` is only called with types that are `Value`s
                // (its callers' constraints), so a decoded `T` is one.
                try decoder.decode(T.self, from: data) as! Value
            },
            decodeEnvelope: { data in
                // As above.
                try decoder.decode(Wrapped<T>.self, from: data).value as! Value
            }
        )
        if let index = order.firstIndex(where: { $0.name == name }) { order.remove(at: index) }
        byName[name] = entry
        order.append(entry)
    }

    var signature: [String] { order.map { "\(kind) \($0.name) \($0.typeName)" } }

    /// The value's registered name and its JSON.
    func encodeNamed(_ value: Value) throws -> (String, Data) {
        for entry in order {
            if let data = try entry.encode(value) { return (entry.name, data) }
        }
        throw DurableError.encoding("the \(kind) type \(type(of: value as Any)) is not registered in the machine's DurableTypes")
    }

    /// `{"type": name, "value": json}`.
    func encode(_ value: Value) throws -> Data {
        let (name, data) = try encodeNamed(value)
        var envelope = Data("{\"type\":".utf8)
        envelope += try JSONEncoder().encode(name)
        envelope += Data(",\"value\":".utf8)
        envelope += data
        envelope += Data("}".utf8)
        return envelope
    }

    func decode(name: String, payload: Data) throws -> Value {
        guard let entry = byName[name] else {
            throw DurableError.encoding("no \(kind) type is registered under the name '\(name)'")
        }
        do {
            return try entry.decode(payload)
        } catch {
            throw DurableError.encoding("the stored \(kind) '\(name)' does not decode as \(entry.typeName): \(error)")
        }
    }

    /// Reads `{"type": name, "value": json}`.
    func decode(_ envelope: Data) throws -> Value {
        guard let name = try? JSONDecoder().decode(Name.self, from: envelope).type else {
            throw DurableError.encoding(
                "a stored \(kind) is not {\"type\": name, \"value\": …}: \(String(decoding: envelope.prefix(200), as: UTF8.self))"
            )
        }
        guard let entry = byName[name] else {
            throw DurableError.encoding("no \(kind) type is registered under the name '\(name)'")
        }
        do {
            return try entry.decodeEnvelope(envelope)
        } catch {
            throw DurableError.encoding("the stored \(kind) '\(name)' does not decode as \(entry.typeName): \(error)")
        }
    }
}
