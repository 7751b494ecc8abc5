import FoundationEssentials

/// A kind of machine made durable: how its definition is identified, how its events and
/// state are encoded, and how one of its steps runs.
///
/// The library's forms are ``DurableCore`` (a Core `AsyncStateMachine`'s definition),
/// ``DurableTable`` (a table `FSM`), ``DurableStatechart`` (a typed or JSON statechart) and
/// `DurableSCXML` (an SCXML session, in `StateMachineDurableSCXML`). ``DurableMachine``
/// runs any of them on any ``DurableStore``.
///
/// A form's steps must depend only on the machine's state, the event and the time they
/// are given: a machine reopened after a crash repeats the steps whose commit was lost, and
/// must reach the state an uninterrupted run reached.
public protocol DurableForm: Sendable {
    /// What ``DurableMachine/send(_:idempotencyKey:)`` takes.
    associatedtype Event: Sendable
    /// What ``DurableMachine/state`` gives: the machine's state as the form's users know it.
    associatedtype State: Sendable
    /// The live machine, owned by its ``DurableMachine`` and used only on it.
    associatedtype Instance

    /// The definition's version and fingerprint, stored with the machine.
    var identity: DefinitionIdentity { get }

    /// Encodes `event` for the journal.
    func encode(event: Event) throws -> Data
    /// Decodes an event from the journal or a scheduled timer.
    func decode(event: Data) throws -> Event

    /// A machine at its initial state (`state` nil), or at the stored `state` with its own
    /// pending `timers` (as ``timers(of:)`` gave them, or as an open's
    /// ``DurableTimerPolicy`` moved them), at time `now`. Effects its steps record go to
    /// `effects`.
    func makeInstance(
        restoring state: Data?,
        at now: DurableInstant,
        timers: [DurableTimer],
        effects: DurableEffects
    ) throws -> Instance

    /// Runs the step of `event` on `instance` at time `now`.
    nonisolated(nonsending) func apply(_ event: Event, to instance: Instance, at now: DurableInstant) async throws

    /// The instance's state, encoded for the store.
    func encodeState(of instance: Instance) throws -> Data

    /// The instance's state for ``DurableMachine/state``.
    func state(of instance: Instance) -> State

    /// The instance's own pending timers (a statechart's delayed transitions), with their
    /// due times; events scheduled through ``DurableEffects`` are not among them.
    func timers(of instance: Instance) -> [DurableTimer]

    /// Fires the instance's own timer `id`, due at `due` (its step runs at that time).
    nonisolated(nonsending) func fire(timer id: String, in instance: Instance, at due: DurableInstant) async throws

    /// Performs the recorded effect `effect` after its commit; returns the event it feeds
    /// back into the machine, if any.
    func perform(_ effect: DeliveredEffect) async throws -> Event?
}

extension DurableForm {
    /// A form without timers of its own has none.
    public func timers(of instance: Instance) -> [DurableTimer] { [] }

    /// A form without timers of its own has none to fire.
    public nonisolated(nonsending) func fire(timer id: String, in instance: Instance, at due: DurableInstant) async throws {
        throw DurableError.encoding("the machine has no timer '\(id)'")
    }
}

/// An effect taken from a machine's outbox to be performed.
public struct DeliveredEffect: Sendable {
    /// The machine that recorded it.
    public let machine: String
    /// Its stable key (the same on every delivery): what a receiver deduplicates on.
    public let key: String
    /// The name it was recorded under.
    public let name: String
    /// Its payload, in JSON.
    public let payload: Data

    /// The effect being performed, in the task of a ``DurableCore`` effect's
    /// `perform()`: its ``key`` is what the receiver deduplicates on. Nil elsewhere.
    @TaskLocal public static var current: DeliveredEffect?

    /// Decodes the payload as a `T`.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: payload)
        } catch {
            throw DurableError.encoding("effect '\(name)' (\(key)) does not decode as \(type): \(error)")
        }
    }
}

/// What a handler of a ``DurableTable`` or ``DurableStatechart`` effect does: performs
/// it, and returns the event it feeds back into the machine, if any.
public typealias DurableEffectHandler<Event> = @Sendable (DeliveredEffect) async throws -> Event?
