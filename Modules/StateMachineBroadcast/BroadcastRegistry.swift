import StateMachineCore
import StateMachineSupport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The subscribers of every broadcasting machine, process wide.
final class BroadcastRegistry: Sendable {
    /// The registry used by ``makeStateContextBroadcaster(bufferingPolicy:)`` and
    /// ``StateMachineCore/AsyncStateMachine/activateBroadcast()``.
    static let shared = BroadcastRegistry()

    private struct Subscribers {
        var continuations: [UUID: AsyncStream<BroadcastStateContext>.Continuation] = [:]
    }

    private let subscribers = Lock(Subscribers())

    /// Registers a new subscriber; its stream ends when it is removed.
    func subscribe(
        bufferingPolicy: AsyncStream<BroadcastStateContext>.Continuation.BufferingPolicy
    ) -> StateContextBroadcaster {
        let id = UUID()
        let (stream, continuation) = AsyncStream<BroadcastStateContext>.makeStream(bufferingPolicy: bufferingPolicy)
        // A consumer that cancels its task or drops the stream unsubscribes too.
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        subscribers.withLock { $0.continuations[id] = continuation }
        return StateContextBroadcaster(id: id, stream: stream, registry: self)
    }

    /// Unregisters subscriber `id` and ends its stream; unknown ids are ignored.
    func remove(_ id: UUID) {
        let continuation = subscribers.withLock { $0.continuations.removeValue(forKey: id) }
        continuation?.finish()
    }

    /// Hands `context` to every current subscriber.
    ///
    /// The yields happen under the registry's lock, so every subscriber receives contexts
    /// in one and the same order, even when several machines broadcast at once. A yield
    /// never suspends and never runs a subscriber's code: it only buffers (or drops, as
    /// the subscriber's buffering policy says) and wakes a waiting consumer.
    func broadcast(_ context: BroadcastStateContext) {
        subscribers.withLock { subscribers in
            for continuation in subscribers.continuations.values {
                continuation.yield(context)
            }
        }
    }

    /// The number of current subscribers.
    var subscriberCount: Int { subscribers.withLock { $0.continuations.count } }
}
