import StateMachineCore

// MARK: Clics: pressing Load several times within the load's duration, with a cancelling
// output (only the last load counts) or a continuing one (every load counts).

/// What the Clics screen renders.
public struct ClicsState: Equatable, Sendable {
    /// How many loads completed.
    public let numberOfLoads: Int
    /// Whether a load is running.
    public let isLoading: Bool
    /// Whether Load is enabled.
    public let canLoad: Bool
    /// Whether Reset is enabled.
    public let canReset: Bool
}

/// The events of the Clics feature.
public enum ClicsEvent {}

/// Nothing loaded yet.
public struct ClicsIsIdle: State, Hashable {
    /// Makes this state: nothing loaded yet.
    public init() {}
    /// Idle: can load, nothing to reset.
    public var superState: ClicsState { ClicsState(numberOfLoads: 0, isLoading: false, canLoad: true, canReset: false) }
}

/// A load is running.
public struct ClicsIsLoading: State, Hashable {
    /// Makes this state: a load is running.
    public init() {}
    /// Loading: Load stays enabled (to show cancel/continue).
    public var superState: ClicsState { ClicsState(numberOfLoads: 0, isLoading: true, canLoad: true, canReset: false) }
}

/// `numberOfLoads` loads have completed.
public struct ClicsIsLoaded: State, Hashable {
    /// How many loads completed.
    public let numberOfLoads: Int
    /// Makes this state: `numberOfLoads` loads have completed; `numberOfLoads` is how many loads
    /// completed.
    public init(numberOfLoads: Int) { self.numberOfLoads = numberOfLoads }
    /// Loaded: Reset enabled.
    public var superState: ClicsState {
        ClicsState(numberOfLoads: numberOfLoads, isLoading: false, canLoad: false, canReset: true)
    }
    /// `ClicsIsLoaded (numberOfLoads: n)`.
    public var description: String { "ClicsIsLoaded (numberOfLoads: \(numberOfLoads))" }
}

/// The user pressed Load.
public struct DidRequestClicsLoading: Event {
    /// Sent to the clics machine, whose events are `ClicsEvent`s.
    public typealias SuperEvent = ClicsEvent
    /// Makes this event: the user pressed Load.
    public init() {}
}

/// A load completed.
public struct DidCompleteClicsLoading: Event {
    /// Sent to the clics machine, whose events are `ClicsEvent`s.
    public typealias SuperEvent = ClicsEvent
    /// Makes this event: a load completed.
    public init() {}
}

/// The user pressed Reset.
public struct DidRequestClicsReset: Event {
    /// Sent to the clics machine, whose events are `ClicsEvent`s.
    public typealias SuperEvent = ClicsEvent
    /// Makes this event: the user pressed Reset.
    public init() {}
}

/// The Clics machine. `load` is the side effect (the app's takes 5 s); with `cancelling`,
/// a new Load cancels the running one.
public func makeClicsStateMachine(
    cancelling: Bool,
    load: @escaping @Sendable () async throws -> Void
) -> StateMachine<ClicsState, ClicsEvent> {
    let output: @Sendable () -> Output<ClicsState, ClicsEvent> = {
        let output = Output<ClicsState, ClicsEvent>(sideEffect: { () async throws -> (any Event<ClicsEvent>)? in
            try await load()
            return DidCompleteClicsLoading()
        })
        return cancelling ? output.cancellationPolicy(cancel: Cancel(on: DidRequestClicsLoading.self)) : output
    }
    return StateMachine<ClicsState, ClicsEvent>(initial: ClicsIsIdle()) {
        When(states: ClicsIsIdle.self, ClicsIsLoading.self) {
            On(event: DidRequestClicsLoading.self) { _, _ in
                Transition(state: ClicsIsLoading())
                output()
            }
        }
        When(state: ClicsIsLoading.self) {
            On(event: DidCompleteClicsLoading.self) { _, _ in Transition(state: ClicsIsLoaded(numberOfLoads: 1)) }
        }
        When(state: ClicsIsLoaded.self) {
            On(event: DidCompleteClicsLoading.self) { state, _ in
                Transition(state: ClicsIsLoaded(numberOfLoads: state.numberOfLoads + 1))
            }
            On(event: DidRequestClicsLoading.self) { _, _ in output() }
            On(event: DidRequestClicsReset.self) { _, _ in Transition(state: ClicsIsIdle()) }
        }
    }
}
