/// A token naming one state type, so that routes read `When(state: .isIdle)`.
///
/// Declare tokens as static members in a constrained extension:
/// ```swift
/// extension StateType where S == DataIsIdle {
///     static var isIdle: Self { StateType(DataIsIdle.self) }
/// }
/// ```
public struct StateType<S: State>: Sendable {
    /// A token for `S`.
    public init(_ type: S.Type = S.self) {}
}

/// A token naming one event type, so that routes read `On(event: .loadingWasRequested)`.
public struct EventType<E: Event>: Sendable {
    /// A token for `E`.
    public init(_ type: E.Type = E.self) {}
}

/// A type-erased token naming one state type of a machine, for the grouped forms
/// (`When(states: .isIdle, .isLoaded)`).
public struct StateSetType<SuperState>: Sendable {
    let key: TypeKey

    /// A token for `S`.
    public init<S: State>(_ type: S.Type) where S.SuperState == SuperState {
        self.key = TypeKey(type)
    }
}

/// A type-erased token naming one event type of a machine, for the grouped forms
/// (`On(events: .didFail, .didRequestReloading)`).
public struct EventSetType<SuperEvent>: Sendable {
    let key: TypeKey

    /// A token for `E`.
    public init<E: Event>(_ type: E.Type) where E.SuperEvent == SuperEvent {
        self.key = TypeKey(type)
    }
}
