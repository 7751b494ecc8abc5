import StateMachineCore

extension UIStateMachine {
    /// A binding that reads `get(state)` and, when written, sends the event `send` returns
    /// for the new value (nil sends nothing). The state changes only through the machine:
    /// a write never assigns `state` itself.
    public func binding<Value>(
        get: @escaping (UIState) -> Value,
        send event: @escaping (Value) -> (any Event<SuperEvent>)?
    ) -> UIBinding<Value> {
        UIBinding(
            get: { get(self.state) },
            set: { value in
                if let event = event(value) { self.send(event) }
            }
        )
    }

    /// A binding that reads `state[keyPath: keyPath]` and, when written, sends the event
    /// `send` returns for the new value (nil sends nothing).
    public func binding<Value>(
        _ keyPath: KeyPath<UIState, Value>,
        send event: @escaping (Value) -> (any Event<SuperEvent>)?
    ) -> UIBinding<Value> {
        binding(get: { $0[keyPath: keyPath] }, send: event)
    }

    /// A binding that reads `state[keyPath: keyPath]` and sends `event` whatever value is
    /// written: `binding(\.isLoaded, send: DidRequestLoading(id: 4))`.
    public func binding<Value>(
        _ keyPath: KeyPath<UIState, Value>,
        send event: some Event<SuperEvent>
    ) -> UIBinding<Value> {
        binding(get: { $0[keyPath: keyPath] }, send: { _ in event })
    }

    /// A read-only binding of `state[keyPath: keyPath]`: writes are ignored.
    public func binding<Value>(_ keyPath: KeyPath<UIState, Value>) -> UIBinding<Value> {
        binding(get: { $0[keyPath: keyPath] }, send: { _ in nil })
    }
}
