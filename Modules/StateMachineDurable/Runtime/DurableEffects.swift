import FoundationEssentials
import StateMachineSupport

/// Where a durable machine's step records what it wants done outside the machine: effects
/// for the outbox, and events to schedule.
///
/// A ``DurableTable`` or ``DurableStatechart`` hands one to the closure that builds the
/// table or chart; its actions call it. What a step records is committed with the step and
/// done after the commit: an effect is delivered to its handler at least once, with a key
/// that is the same on every delivery; a scheduled event is stored with its due time and
/// applied when it falls due, even if the program restarted in between.
///
/// ```swift
/// try fsm.buildTable {
///     define(.unpaid) {
///         when(.pay) | then(.paid) | { effects.emit("receipt", Receipt(amount: 3)) }
///     }
/// }
/// ```
///
/// Record only during a step (from the table's actions or the chart's blocks): what is
/// recorded between steps is committed with the next one.
public final class DurableEffects: Sendable {
    /// One thing a step recorded.
    enum Record: Sendable {
        case effect(name: String, payload: Data)
        case schedule(id: String?, event: Data, delay: Duration)
        case cancel(id: String)
        /// A payload or event that could not be encoded: the step fails with this message.
        case failure(String)
    }

    private let records = Lock<[Record]>([])

    /// An empty recorder.
    init() {}

    /// Records the effect `name` with `payload` (encoded as JSON) for the outbox. A payload
    /// that cannot be encoded fails the step (its `send` throws, nothing is committed).
    public func emit(_ name: String, _ payload: some Encodable) {
        do {
            let data = try JSONEncoder.sortingKeys().encode(payload)
            records.withLock { $0.append(.effect(name: name, payload: data)) }
        } catch {
            records.withLock { $0.append(.failure("the payload of effect '\(name)' cannot be encoded: \(error)")) }
        }
    }

    /// Records the effect `name`, without payload, for the outbox.
    public func emit(_ name: String) {
        records.withLock { $0.append(.effect(name: name, payload: Data("null".utf8))) }
    }

    /// Schedules `event` (encoded as JSON, as the form decodes its events) to be applied
    /// after `delay` on the store's clock. An `id` names the scheduled event: scheduling the
    /// same `id` again replaces it, ``cancelScheduled(_:)`` removes it. An event that cannot
    /// be encoded fails the step.
    public func schedule(_ event: some Encodable, after delay: Duration, id: String? = nil) {
        do {
            let data = try JSONEncoder.sortingKeys().encode(event)
            records.withLock { $0.append(.schedule(id: id, event: data, delay: delay)) }
        } catch {
            records.withLock { $0.append(.failure("a scheduled event cannot be encoded: \(error)")) }
        }
    }

    /// Schedules an event already encoded in its form's encoding.
    func schedule(encoded event: Data, after delay: Duration, id: String?) {
        records.withLock { $0.append(.schedule(id: id, event: event, delay: delay)) }
    }

    /// Removes the scheduled event `id`, if it has not fallen due.
    public func cancelScheduled(_ id: String) {
        records.withLock { $0.append(.cancel(id: id)) }
    }

    /// Records `effect` (already encoded).
    func record(_ record: Record) {
        records.withLock { $0.append(record) }
    }

    /// What was recorded since the last call, in order.
    func take() -> [Record] {
        records.withLock { records in
            defer { records.removeAll(keepingCapacity: true) }
            return records
        }
    }
}

extension JSONEncoder {
    /// An encoder that writes object keys in sorted order: the same value always gives the
    /// same bytes, in every process (a dictionary's order differs from process to process),
    /// so that an effect delivered again repeats its payload exactly.
    package static func sortingKeys() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }
}

extension JSONDecoder {
    /// Decodes a stored `T` from `data`; a value that does not decode is a
    /// ``DurableError/encoding(_:)`` naming `what` was stored and the type.
    package func decodeStored<T: Decodable>(_ type: T.Type, from data: Data, what: String) throws -> T {
        do {
            return try decode(type, from: data)
        } catch {
            throw DurableError.encoding("the stored \(what) does not decode as \(type): \(error)")
        }
    }
}

extension DeliveredEffect {
    /// Performs the effect with its handler in `handlers` (by the name it was emitted
    /// under); an effect without a handler fails its delivery, naming the effect.
    package func perform<Event>(with handlers: [String: DurableEffectHandler<Event>]) async throws -> Event? {
        guard let handler = handlers[name] else {
            throw DurableError.encoding("no handler for effect '\(name)' (\(key))")
        }
        return try await handler(self)
    }
}
