import FoundationEssentials
import StateMachineTable

/// A table `FSM` made durable: its state and events `Codable`, its table built by a closure
/// the store calls whenever it needs the machine (at its initial state, or at a stored one).
///
/// The table's actions record what they want done outside the machine through the
/// ``DurableEffects`` the closure is given: ``DurableEffects/emit(_:_:)`` for an effect the
/// `effects` handlers deliver after the commit, ``DurableEffects/schedule(_:after:id:)``
/// for an event applied later, by the store's clock.
///
/// ```swift
/// let form = DurableTable<Door, Input>(version: "1", initialState: .closed) { state, effects in
///     let fsm = FSM<Door, Input>(initialState: state)
///     try fsm.buildTable {
///         define(.closed) { when(.open) | then(.opened) | { effects.emit("opened") } }
///         define(.opened) { when(.close) | then(.closed) }
///     }
///     return fsm
/// }
/// ```
///
/// The machine's events are handled without predicates (`handleEvent(_:)`).
public struct DurableTable<State: FSMHashable & Codable, Event: FSMHashable & Codable>: DurableForm {
    /// A running table.
    public final class Instance {
        let fsm: FSM<State, Event>

        init(fsm: FSM<State, Event>) { self.fsm = fsm }
    }

    /// Builds the machine: an `FSM` starting in the given state, its table built, its
    /// actions recording through the given effects.
    public typealias Build = @Sendable (_ state: State, _ effects: DurableEffects) throws -> FSM<State, Event>

    let initialState: State
    let build: Build
    let handlers: [String: DurableEffectHandler<Event>]
    public let identity: DefinitionIdentity
    private let encoder = JSONEncoder.sortingKeys()
    private let decoder = JSONDecoder()

    /// The durable form of the table `build` makes.
    /// - Parameters:
    ///   - version: the definition's version, stored with the machine.
    ///   - initialState: where a new machine starts.
    ///   - effects: the handler of each effect name the actions emit.
    ///   - build: makes the `FSM` in a given state; called once here, to fingerprint the table.
    /// - Throws: the table's build error.
    public init(
        version: String,
        initialState: State,
        effects: [String: DurableEffectHandler<Event>] = [:],
        build: @escaping Build
    ) throws {
        self.initialState = initialState
        self.build = build
        handlers = effects
        var fingerprint = Fingerprint()
        fingerprint.add("table \(String(reflecting: State.self)) \(String(reflecting: Event.self))")
        fingerprint.add("initial \(initialState)")
        for row in try build(initialState, DurableEffects()).graphRows ?? [] {
            let predicates = row.predicates.map { "\(type(of: $0)).\($0)" }.joined(separator: ",")
            fingerprint.add("\(row.state) \(row.event) [\(predicates)] -> \(row.nextState)\(row.isConditional ? " ?" : "")")
        }
        identity = DefinitionIdentity(version: version, fingerprint: fingerprint.hex)
    }

    public func encode(event: Event) throws -> Data { try encoder.encode(event) }

    public func decode(event: Data) throws -> Event {
        try decoder.decodeStored(Event.self, from: event, what: "event")
    }

    public func makeInstance(
        restoring state: Data?,
        at now: DurableInstant,
        timers: [DurableTimer],
        effects: DurableEffects
    ) throws -> Instance {
        var start = initialState
        if let state {
            start = try decoder.decodeStored(State.self, from: state, what: "state")
        }
        return Instance(fsm: try build(start, effects))
    }

    public nonisolated(nonsending) func apply(_ event: Event, to instance: Instance, at now: DurableInstant) async throws {
        await instance.fsm.handleEvent(event)
    }

    public func encodeState(of instance: Instance) throws -> Data { try encoder.encode(instance.fsm.state) }

    public func state(of instance: Instance) -> State { instance.fsm.state }

    public func perform(_ effect: DeliveredEffect) async throws -> Event? {
        try await effect.perform(with: handlers)
    }
}
