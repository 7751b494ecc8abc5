import FoundationEssentials

/// What ``DurableStore/post(_:to:as:idempotencyKey:)`` reports: the inbox entry an event
/// became, to wait for with ``DurableStore/awaitApplied(_:timeout:)``.
public struct DurablePost: Sendable, Equatable {
    /// The machine.
    public let key: String
    /// The inbox entry's number; nil for a duplicate.
    public let entry: Int64?
    /// The idempotency key the event was posted with.
    public let idempotencyKey: String?
    /// Whether the idempotency key had been seen: nothing was added.
    public var isDuplicate: Bool { entry == nil }

    /// What a post of an ``InboxEntry`` with ``DurableStore/post(_:_:)`` returned, for
    /// ``DurableStore/awaitApplied(_:timeout:)``.
    public init(key: String, entry: Int64?, idempotencyKey: String?) {
        self.key = key
        self.entry = entry
        self.idempotencyKey = idempotencyKey
    }
}

extension DurableStore {
    /// Adds `event` to machine `key`'s inbox, from any process, whoever holds the machine:
    /// it is applied after the events the inbox accepted before it, by the process that
    /// holds the machine (a ``MachineWorker``, or the next ``open(_:_:options:)``).
    ///
    /// Returns once the inbox entry is committed. With an `idempotencyKey` already in the
    /// machine's journal or inbox, nothing is added and the post is a duplicate.
    public func post<Form: DurableForm>(
        _ event: Form.Event,
        to key: String,
        as form: Form,
        idempotencyKey: String? = nil
    ) async throws -> DurablePost {
        let entry = InboxEntry(
            kind: .posted,
            payload: try form.encode(event: event),
            idempotencyKey: idempotencyKey,
            time: try await now()
        )
        let id = try await post(key, entry)
        return DurablePost(key: key, entry: id, idempotencyKey: idempotencyKey)
    }

    /// Returns once the posted event is applied: its step is committed (for a duplicate:
    /// once the entry with its idempotency key left the inbox).
    /// - Throws: ``DurableError/unreachable(server:message:)`` when it is not applied within
    ///   `timeout`, a storage error otherwise.
    public func awaitApplied(_ post: DurablePost, timeout: Duration = .seconds(60)) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var delay = Duration.milliseconds(1)
        while try await inboxHolds(
            post.key,
            entry: post.entry,
            idempotencyKey: post.entry == nil ? post.idempotencyKey : nil
        ) {
            guard clock.now + delay < deadline else {
                throw DurableError.unreachable(
                    server: "machine '\(post.key)'",
                    message: "its event was not applied within \(timeout); is a worker serving it?"
                )
            }
            try await Task.sleep(for: delay)
            delay = min(delay * 2, .milliseconds(50))
        }
    }
}
