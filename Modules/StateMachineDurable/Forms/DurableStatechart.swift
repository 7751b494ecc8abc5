import FoundationEssentials
import StateMachineHierarchy

/// A statechart made durable: a typed chart, or one read from JSON, with its
/// configuration, history, partial joins and delayed transitions stored after every step.
///
/// The chart runs on a clock the machine drives from the store's clock: a delayed
/// transition is stored with its absolute due time and fires at that time, after a restart
/// too (``DurableTimerPolicy`` says what happens to one that fell due while the machine was
/// closed). Its blocks record effects through the ``DurableEffects`` the definition closure
/// is given. Tasks of active states are started afresh when a machine is reopened (a
/// task's work cannot be stored).
///
/// ```swift
/// typealias Door = Statechart<String, String, Int>
/// let form = try DurableStatechart<String, String, Int>(
///     version: "1",
///     effects: ["opened": { effect in print(effect.key); return nil }]
/// ) { effects in
///     Door.Definition(name: "door") {
///         Door.State("closed").on("open", to: "opened", action: { _ in effects.emit("opened") })
///         Door.State("opened").on("close", to: "closed").after(.seconds(30), to: "closed")
///     }
/// }
/// ```
public struct DurableStatechart<
    StateID: Hashable & Sendable & Codable,
    EventID: Hashable & Sendable & Codable,
    Payload: Sendable & Codable
>: DurableForm {
    /// The chart's definition.
    public typealias Definition = Statechart<StateID, EventID, Payload>.Definition

    /// An event: its name and optional payload.
    public struct Event: Sendable, Codable {
        /// The event's name.
        public var name: EventID
        /// Its payload.
        public var payload: Payload?

        /// The event `name` with `payload`.
        public init(_ name: EventID, payload: Payload? = nil) {
            self.name = name
            self.payload = payload
        }
    }

    /// A running chart, on a manual clock whose zero is the store time `base`.
    public final class Instance {
        let chart: Statechart<StateID, EventID, Payload>
        let clock: ManualStatechartClock
        let base: DurableInstant
        /// The delay each pending timer was armed with, by timer identifier.
        var delays: [String: Duration]

        init(chart: Statechart<StateID, EventID, Payload>, clock: ManualStatechartClock, base: DurableInstant, delays: [String: Duration]) {
            self.chart = chart
            self.clock = clock
            self.base = base
            self.delays = delays
        }
    }

    /// Makes the chart's definition; its blocks record effects through the given effects.
    public typealias Make = @Sendable (_ effects: DurableEffects) throws -> Definition

    let make: Make
    let options: StatechartOptions
    let handlers: [String: DurableEffectHandler<Event>]
    public let identity: DefinitionIdentity
    private let encoder = JSONEncoder.sortingKeys()
    private let decoder = JSONDecoder()

    /// The durable form of the chart `definition` makes.
    /// - Parameters:
    ///   - version: the definition's version, stored with the machine.
    ///   - options: the chart's options.
    ///   - effects: the handler of each effect name the blocks emit.
    ///   - definition: makes the definition; called once here, to fingerprint the chart.
    /// - Throws: the chart's compile error.
    public init(
        version: String,
        options: StatechartOptions = StatechartOptions(),
        effects: [String: DurableEffectHandler<Event>] = [:],
        definition: @escaping Make
    ) throws {
        make = definition
        self.options = options
        handlers = effects
        let chart = try Statechart<StateID, EventID, Payload>(definition(DurableEffects()), options: options, clock: ManualStatechartClock())
        var fingerprint = Fingerprint()
        fingerprint.add("statechart \(String(reflecting: StateID.self)) \(String(reflecting: EventID.self)) \(String(reflecting: Payload.self))")
        for line in chart.dot().split(separator: "\n") { fingerprint.add(String(line)) }
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
        let clock = ManualStatechartClock()
        let definition = try make(effects)
        guard let state else {
            let chart = try Statechart<StateID, EventID, Payload>(definition, options: options, clock: clock)
            chart.start()
            return Instance(chart: chart, clock: clock, base: now, delays: [:])
        }
        var snapshot = try decoder.decodeStored(StatechartSnapshot.self, from: state, what: "state")
        // The chart's clock starts at the earliest of now and the timers' due times, so that
        // a timer that fell due while the machine was closed keeps its due time (the
        // runtime fires it at that time, before anything else).
        let base = timers.map(\.due).min().map { min($0, now) } ?? now
        var delays: [String: Duration] = [:]
        snapshot.timers = try timers.map { timer in
            guard let hash = timer.id.lastIndex(of: "#"), let index = Int(timer.id[timer.id.index(after: hash)...]) else {
                throw DurableError.encoding("the stored timer '\(timer.id)' does not name a state's delayed transition")
            }
            delays[timer.id] = timer.delay
            return StatechartSnapshot.PendingTimer(
                state: String(timer.id[..<hash]),
                delayedTransition: index,
                remaining: .nanoseconds(timer.due - base)
            )
        }
        let chart = try Statechart<StateID, EventID, Payload>(definition, options: options, clock: clock, restoring: snapshot)
        return Instance(chart: chart, clock: clock, base: base, delays: delays)
    }

    public nonisolated(nonsending) func apply(_ event: Event, to instance: Instance, at now: DurableInstant) async throws {
        advance(instance, to: now)
        _ = try instance.chart.handle(event.name, payload: event.payload)
    }

    public nonisolated(nonsending) func fire(timer id: String, in instance: Instance, at due: DurableInstant) async throws {
        advance(instance, to: due)
    }

    /// Moves the chart's clock to the store time `time`, firing what falls due on the way.
    private func advance(_ instance: Instance, to time: DurableInstant) {
        let elapsed = time - instance.base - instance.clock.now.nanoseconds
        if elapsed >= 0 { instance.clock.advance(by: .nanoseconds(elapsed)) }
    }

    public func timers(of instance: Instance) -> [DurableTimer] {
        let now = instance.base + instance.clock.now.nanoseconds
        var delays: [String: Duration] = [:]
        let timers = instance.chart.snapshot().timers.map { pending in
            let id = "\(pending.state)#\(pending.transition)"
            let delay = instance.delays[id] ?? pending.remaining
            delays[id] = delay
            return DurableTimer(id: id, due: now + pending.remaining.nanoseconds, delay: delay, event: nil)
        }
        instance.delays = delays
        return timers
    }

    public func encodeState(of instance: Instance) throws -> Data {
        var snapshot = instance.chart.snapshot()
        snapshot.timers = []
        return try encoder.encode(snapshot)
    }

    /// The active states, outermost first.
    public func state(of instance: Instance) -> [StateID] { instance.chart.activeStates }

    public func perform(_ effect: DeliveredEffect) async throws -> Event? {
        try await effect.perform(with: handlers)
    }
}

extension DurableStatechart where StateID == String, EventID == String {
    /// The durable form of the chart in the JSON document `json` (see "Building from JSON"
    /// in StateMachineHierarchy). The fingerprint is the compiled chart's.
    public init(version: String, json: Data, options: StatechartOptions = StatechartOptions()) throws {
        let definition = try Statechart<String, String, Payload>.definition(fromJSON: json)
        try self.init(version: version, options: options) { _ in definition }
    }
}

extension DurableStatechart.Event: Equatable where Payload: Equatable {}
