/// A cancellation policy for a running output.
///
/// The policy is evaluated for every event the machine processes after the output started
/// (even an event that matches no route), with the state before the event, the event and
/// the new state (nil when the event caused no transition). When it returns true, the
/// output's task is cancelled and nothing it produces afterwards reaches the machine.
/// An output is never cancelled by the event that started it.
public struct Cancel<SuperState, SuperEvent>: Sendable {
    /// Any state of the machine.
    public typealias AnyState = any State<SuperState>
    /// Any event of the machine.
    public typealias AnyEvent = any Event<SuperEvent>

    /// The predicate: `(currentState, event, newState?) -> shouldCancel`.
    public let predicate: @Sendable (AnyState, AnyEvent, AnyState?) async -> Bool

    /// A fully custom policy.
    public init(predicate: @escaping @Sendable (AnyState, AnyEvent, AnyState?) async -> Bool) {
        self.predicate = predicate
    }

    /// Cancels when an event of type `E` is processed (and `predicate`, if given, agrees).
    public init<E: Event>(
        on event: E.Type,
        predicate: (@Sendable (AnyState, E, AnyState?) async -> Bool)? = nil
    ) where E.SuperEvent == SuperEvent {
        self.predicate = { current, received, new in
            guard let received = received as? E else { return false }
            return await predicate?(current, received, new) ?? true
        }
    }

    /// Cancels when an event of type `E` is processed while the machine is in a state of
    /// type `S` (and `predicate`, if given, agrees).
    public init<S: State, E: Event>(
        whenCurrentState state: S.Type,
        on event: E.Type,
        predicate: (@Sendable (S, E, AnyState?) async -> Bool)? = nil
    ) where S.SuperState == SuperState, E.SuperEvent == SuperEvent {
        self.predicate = { current, received, new in
            guard let current = current as? S, let received = received as? E else { return false }
            return await predicate?(current, received, new) ?? true
        }
    }

    /// The historical spelling of ``init(whenCurrentState:on:predicate:)``, kept so that code
    /// written for the original library still builds.
    @available(*, deprecated, renamed: "init(whenCurrentState:on:predicate:)")
    public init<S: State, E: Event>(
        whencurrentState state: S.Type,
        on event: E.Type,
        predicate: (@Sendable (S, E, AnyState?) async -> Bool)? = nil
    ) where S.SuperState == SuperState, E.SuperEvent == SuperEvent {
        self.init(whenCurrentState: state, on: event, predicate: predicate)
    }

    /// Cancels when an event leads to a new state of type `S` (and `predicate`, if given,
    /// agrees). An event that causes no transition never matches.
    public init<S: State>(
        whenNewState state: S.Type,
        predicate: (@Sendable (AnyState, AnyEvent, S) async -> Bool)? = nil
    ) where S.SuperState == SuperState {
        self.predicate = { current, received, new in
            guard let new = new as? S else { return false }
            return await predicate?(current, received, new) ?? true
        }
    }
}
