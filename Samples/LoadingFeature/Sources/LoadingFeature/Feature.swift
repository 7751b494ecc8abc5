import Foundation
import StateMachineCore

// The seed README's loading feature, end to end, as users write it.

/// What the view renders, derived from every state.
public struct FeatureState: Equatable, Sendable {
    public let isLoaded: Bool
    public let isError: Bool
}

/// The set of events of the feature.
public enum FeatureEvent {}

/// Nothing is loaded and nothing is loading.
public struct DataIsIdle: State, Equatable {
    public init() {}
    public var superState: FeatureState { FeatureState(isLoaded: false, isError: false) }
}

/// Data with `id` is loading.
public struct DataIsLoading: State, Equatable {
    public let id: String
    public init(id: String) { self.id = id }
    public var superState: FeatureState { FeatureState(isLoaded: false, isError: false) }
}

/// Data is loaded.
public struct DataIsLoaded: State, Equatable {
    public let data: Data
    public init(data: Data) { self.data = data }
    public var superState: FeatureState { FeatureState(isLoaded: true, isError: false) }
    public var description: String { "DataIsLoaded (\(data.count) bytes)" }
}

/// Loading data with `id` failed.
public struct DataIsInFailure: State {
    public let id: String
    public let error: any Error
    public var superState: FeatureState { FeatureState(isLoaded: false, isError: true) }
}

/// The user asked to load `id`.
public struct DidRequestLoading: Event {
    public typealias SuperEvent = FeatureEvent
    public let id: String
    public init(id: String) { self.id = id }
}

/// The user asked to load again after a failure.
public struct DidRequestReloading: Event {
    public typealias SuperEvent = FeatureEvent
    public init() {}
}

/// The load succeeded.
public struct DidSucceedToLoad: Event {
    public typealias SuperEvent = FeatureEvent
    public let data: Data
    public init(data: Data) { self.data = data }
}

/// The load failed.
public struct DidFailToLoad: Event {
    public typealias SuperEvent = FeatureEvent
    public let error: any Error
    public init(error: any Error) { self.error = error }
}

/// The load side effect, injected per output: `id` to data.
public typealias Load = @Sendable (String) async throws -> Data

/// Wraps a `Load` dependency as the side effect of an output.
func load(_ id: String, with load: @escaping Load) -> @Sendable () async throws -> (any Event<FeatureEvent>)? {
    { DidSucceedToLoad(data: try await load(id)) }
}

/// The feature's definition, with its dependency injected.
public func makeStateMachine(load dependency: @escaping Load) -> StateMachine<FeatureState, FeatureEvent> {
    StateMachine<FeatureState, FeatureEvent>(initial: DataIsIdle()) {
        When(states: DataIsIdle.self, DataIsLoaded.self) {
            On(event: DidRequestLoading.self) { _, event in
                Transition(state: DataIsLoading(id: event.id))
                Output(
                    sideEffect: load(event.id, with: dependency),
                    cancellationPolicy: Cancel(on: DidRequestLoading.self),
                    lifecyclePolicy: .restartOnFailure(maxRestarts: 2),
                    onFailure: { error in DidFailToLoad(error: error) }
                )
            }
        }

        When(state: DataIsLoading.self) {
            On(event: DidSucceedToLoad.self) { _, event in
                Transition(state: DataIsLoaded(data: event.data))
            }

            On(event: DidFailToLoad.self) { state, event in
                Transition(state: DataIsInFailure(id: state.id, error: event.error))
            }
        }

        When(state: DataIsInFailure.self) {
            On(event: DidRequestReloading.self) { state, _ in
                Transition(state: DataIsLoading(id: state.id))
                Output(priority: .high, sideEffect: load(state.id, with: dependency))
                    .cancellationPolicy(cancel: Cancel(whenNewState: DataIsLoaded.self))
            }
        }
    }
}

/// A running feature, with analytics-style lifecycle callbacks and logging left on.
public func makeAsyncStateMachine(load: @escaping Load) -> AsyncStateMachine<FeatureState, FeatureEvent> {
    AsyncStateMachine(stateMachine: makeStateMachine(load: load))
        .onInitialState { id, state in _ = (id, state) }
        .onTransition { id, currentState, event, newState in _ = (id, currentState, event, newState) }
        .onDeinit { id in _ = id }
}
