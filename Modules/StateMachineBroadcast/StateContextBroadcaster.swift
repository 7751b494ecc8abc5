#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A subscription to every broadcasting machine: `stream` yields a ``BroadcastStateContext`` for
/// the initial state and for every transition of every machine that called
/// ``StateMachineCore/AsyncStateMachine/activateBroadcast()``, from the moment the
/// subscription was made.
///
/// Ordering: the contexts of one machine arrive in lifecycle order (initial state, then
/// transitions, in commit order), and every subscriber receives all contexts in the same
/// order. Back-pressure: there is none; a broadcasting machine never waits for a
/// subscriber. A slow subscriber costs memory: with the default `.unbounded` policy, every
/// context it has not consumed yet stays buffered for it (and only for it). Pass
/// `.bufferingNewest(n)` or `.bufferingOldest(n)` to
/// ``makeStateContextBroadcaster(bufferingPolicy:)`` to bound that buffer to `n` contexts;
/// the others are then dropped for that subscriber only.
///
/// The stream ends when ``stop()`` is called, when the consuming task is cancelled, or
/// when the stream is released; each of these unsubscribes.
public struct StateContextBroadcaster: Sendable {
    /// The contexts, in broadcast order.
    public let stream: AsyncStream<BroadcastStateContext>

    let id: UUID
    let registry: BroadcastRegistry

    init(id: UUID, stream: AsyncStream<BroadcastStateContext>, registry: BroadcastRegistry) {
        self.id = id
        self.stream = stream
        self.registry = registry
    }

    /// Unsubscribes and ends `stream` once its buffered contexts are consumed. Other
    /// subscribers are not affected. Calling it again does nothing.
    public func stop() {
        registry.remove(id)
    }
}

/// Subscribes to every broadcasting machine.
///
/// - Parameter bufferingPolicy: how many unconsumed contexts this subscriber keeps;
///   `.unbounded` (the default) keeps them all, so nothing is ever lost but a subscriber
///   that stops consuming grows without limit.
public func makeStateContextBroadcaster(
    bufferingPolicy: AsyncStream<BroadcastStateContext>.Continuation.BufferingPolicy = .unbounded
) -> StateContextBroadcaster {
    BroadcastRegistry.shared.subscribe(bufferingPolicy: bufferingPolicy)
}
