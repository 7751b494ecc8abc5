import StateMachineSupport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Connects machines: senders turn their transitions into events, and the mediator hands
/// each event to every receiver.
///
/// ```swift
/// let mediator = Mediator<FeatureEvent>()
/// machine1.connectAsReceiver(to: mediator)
/// machine2.connectAsSender(to: mediator, whenCurrentState: DataIsIdle2.self, on: DidRequestLoading2.self) { _, _, _ in
///     DidRequestLoading()
/// }
/// ```
///
/// Receivers are held weakly and unregister when they are released, so a mediator never
/// keeps a machine alive; keep the mediator itself alive as long as it should connect.
/// Delivery is asynchronous: a sender's events are handed over from its lifecycle
/// callbacks, in the order of its transitions. The seed README writes
/// `Mediator<SuperState1, SuperEvent1>()`; the state parameter played no part, so the type
/// has only the event parameter (`Mediator<SuperEvent1>()`).
public final class Mediator<SuperEvent>: Sendable {
    let receivers = Lock<[UUID: @Sendable (any Event<SuperEvent>) -> Void]>([:])

    /// A mediator with no receivers.
    public init() {}

    /// Hands `event` to every receiver registered now. A receiver may unregister (or be
    /// released) while an event is being delivered: delivery works on a snapshot.
    public func sendToReceivers(event: any Event<SuperEvent>) {
        let receivers = self.receivers.withLock { Array($0.values) }
        for receive in receivers { receive(event) }
    }

    /// Removes the receiver with machine id `id`; unknown ids are ignored.
    public func unregisterReceiver(id: UUID) {
        _ = receivers.withLock { $0.removeValue(forKey: id) }
    }

    /// The number of registered receivers.
    public var receiverCount: Int { receivers.withLock { $0.count } }

    func register<SuperState>(receiver: AsyncStateMachine<SuperState, SuperEvent>) {
        let id = receiver.id
        receivers.withLock { receivers in
            receivers[id] = { [weak receiver] event in receiver?.send(event: event) }
        }
        receiver.onDeinit { [weak self] id in self?.unregisterReceiver(id: id) }
    }
}

extension AsyncStateMachine {
    /// Receives every event sent to `mediator` (held weakly; unregistered on release).
    @discardableResult
    public func connectAsReceiver(to mediator: Mediator<SuperEvent>) -> Self {
        mediator.register(receiver: self)
        return self
    }

    /// Sends the event `sending` returns (nil: nothing) to `mediator` after every
    /// transition of this machine: `(id, currentState, event, newState)`. The initial state
    /// is not a transition and sends nothing.
    @discardableResult
    public func connectAsSender<ReceiverEvent>(
        to mediator: Mediator<ReceiverEvent>,
        sending: @escaping @Sendable (UUID, AnyState, AnyEvent, AnyState) async -> (any Event<ReceiverEvent>)?
    ) -> Self {
        onTransition { [weak mediator] id, current, event, new in
            guard let mediator, let output = await sending(id, current, event, new) else { return }
            mediator.sendToReceivers(event: output)
        }
    }

    /// Sends on every transition out of a state of type `S`.
    @discardableResult
    public func connectAsSender<ReceiverEvent, S: State>(
        to mediator: Mediator<ReceiverEvent>,
        whenCurrentState state: S.Type,
        sending: @escaping @Sendable (S, AnyEvent, AnyState) async -> (any Event<ReceiverEvent>)?
    ) -> Self where S.SuperState == SuperState {
        connectAsSender(to: mediator) { _, current, event, new in
            guard let current = current as? S else { return nil }
            return await sending(current, event, new)
        }
    }

    /// Sends on every transition caused by an event of type `E`.
    @discardableResult
    public func connectAsSender<ReceiverEvent, E: Event>(
        to mediator: Mediator<ReceiverEvent>,
        on event: E.Type,
        sending: @escaping @Sendable (AnyState, E, AnyState) async -> (any Event<ReceiverEvent>)?
    ) -> Self where E.SuperEvent == SuperEvent {
        connectAsSender(to: mediator) { _, current, received, new in
            guard let received = received as? E else { return nil }
            return await sending(current, received, new)
        }
    }

    /// Sends on every transition out of a state of type `S` caused by an event of type `E`.
    @discardableResult
    public func connectAsSender<ReceiverEvent, S: State, E: Event>(
        to mediator: Mediator<ReceiverEvent>,
        whenCurrentState state: S.Type,
        on event: E.Type,
        sending: @escaping @Sendable (S, E, AnyState) async -> (any Event<ReceiverEvent>)?
    ) -> Self where S.SuperState == SuperState, E.SuperEvent == SuperEvent {
        connectAsSender(to: mediator) { _, current, received, new in
            guard let current = current as? S, let received = received as? E else { return nil }
            return await sending(current, received, new)
        }
    }

    /// The seed README's two-argument spelling of `connectAsSender(to:whenCurrentState:on:sending:)`
    /// (whose closure also receives the new state): the closure receives the current state
    /// and the event.
    @discardableResult
    public func connectAsSender<ReceiverEvent, S: State, E: Event>(
        to mediator: Mediator<ReceiverEvent>,
        whenCurrentState state: S.Type,
        on event: E.Type,
        sending: @escaping @Sendable (S, E) async -> (any Event<ReceiverEvent>)?
    ) -> Self where S.SuperState == SuperState, E.SuperEvent == SuperEvent {
        connectAsSender(to: mediator, whenCurrentState: state, on: event) { current, received, _ in
            await sending(current, received)
        }
    }

    /// Sends on every transition into a state of type `S`.
    @discardableResult
    public func connectAsSender<ReceiverEvent, S: State>(
        to mediator: Mediator<ReceiverEvent>,
        whenNewState state: S.Type,
        sending: @escaping @Sendable (AnyState, AnyEvent, S) async -> (any Event<ReceiverEvent>)?
    ) -> Self where S.SuperState == SuperState {
        connectAsSender(to: mediator) { _, current, event, new in
            guard let new = new as? S else { return nil }
            return await sending(current, event, new)
        }
    }
}
