extension Statechart {
    /// A stream of the notifications of `kind` for the state at `path`.
    ///
    /// Notifications are produced synchronously inside each run-to-completion step and
    /// buffered without limit; the stream ends when it is no longer iterated (its
    /// iteration task is cancelled or it is deallocated), which also ends the subscription.
    /// - Throws: ``StatechartError/invalidPath(path:component:reason:)``.
    public func subscribe(to kind: Notification.Kind, at path: String) throws -> AsyncStream<Notification> {
        let state = try stateIndex(atPath: path)
        let (stream, continuation) = AsyncStream<Notification>.makeStream()
        let observers = hooks.observers
        let token = observers.add(state: state, kind: kind) { continuation.yield($0) }
        continuation.onTermination = { _ in observers.remove(state: state, token: token) }
        return stream
    }

    /// Calls `callback` with every notification of `kind` for the state at `path`, on the
    /// thread running the step, before the state's own enter or exit block.
    /// Keep the returned subscription; cancelling or releasing it stops the callbacks.
    /// - Throws: ``StatechartError/invalidPath(path:component:reason:)``.
    public func observe(
        _ kind: Notification.Kind,
        at path: String,
        _ callback: @escaping @Sendable (Notification) -> Void
    ) throws -> StatechartSubscription {
        let state = try stateIndex(atPath: path)
        let observers = hooks.observers
        let token = observers.add(state: state, kind: kind, deliver: callback)
        return StatechartSubscription(registry: observers, state: state, token: token)
    }
}
