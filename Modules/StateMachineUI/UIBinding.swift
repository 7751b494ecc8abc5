/// A value a widget reads and writes without owning it: the terminal counterpart of
/// SwiftUI's `Binding`, a get/set pair on the main actor.
///
/// ```swift
/// let isOn = uiStateMachine.binding(\.isOn, send: DidToggle())
/// isOn.wrappedValue          // reads the UI state
/// isOn.wrappedValue = true   // sends DidToggle()
/// ```
@MainActor
public struct UIBinding<Value> {
    private let get: () -> Value
    private let set: (Value) -> Void

    /// A binding that reads with `get` and writes with `set`.
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        self.get = get
        self.set = set
    }

    /// A binding that always reads `value` and ignores writes.
    public static func constant(_ value: Value) -> UIBinding<Value> {
        UIBinding(get: { value }, set: { _ in })
    }

    /// Reads or writes the bound value. Reading inside `withObservationTracking` tracks
    /// what `get` reads (for a UI machine binding, its `state`).
    public var wrappedValue: Value {
        get { get() }
        nonmutating set { set(newValue) }
    }
}
