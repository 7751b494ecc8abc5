import StateMachineCore

// The seed's loading feature, shared by the companion products' tests.

/// What the loading feature renders.
public struct FeatureState: Equatable, Sendable, Codable {
    /// Whether data is loaded.
    public let isLoaded: Bool
    /// A feature state.
    public init(isLoaded: Bool) { self.isLoaded = isLoaded }
}

/// The loading feature's events.
public enum FeatureEvent {}

/// Nothing loaded.
public struct DataIsIdle: State, Equatable {
    /// Idle.
    public init() {}
    /// Not loaded.
    public var superState: FeatureState { FeatureState(isLoaded: false) }
}

/// Loading `id`.
public struct DataIsLoading: State, Equatable {
    /// What is loading.
    public let id: String
    /// Loading `id`.
    public init(id: String) { self.id = id }
    /// Not loaded.
    public var superState: FeatureState { FeatureState(isLoaded: false) }
}

/// Loaded `data`.
public struct DataIsLoaded: State, Equatable {
    /// What was loaded.
    public let data: String
    /// Loaded `data`.
    public init(data: String) { self.data = data }
    /// Loaded.
    public var superState: FeatureState { FeatureState(isLoaded: true) }
}

/// Load `id`.
public struct DidRequestLoading: Event {
    /// The loading feature's events.
    public typealias SuperEvent = FeatureEvent
    /// What to load.
    public let id: String
    /// Load `id`.
    public init(id: String) { self.id = id }
}
/// Loaded `data`.
public struct DidSucceedToLoad: Event {
    /// The loading feature's events.
    public typealias SuperEvent = FeatureEvent
    /// What was loaded.
    public let data: String
    /// Loaded `data`.
    public init(data: String) { self.data = data }
}

/// Idle -> Loading -> Loaded; the load output is `load`.
public func makeLoadingMachine(
    load: @escaping @Sendable (String) async -> (any Event<FeatureEvent>)? = { id in
        DidSucceedToLoad(data: "data \(id)")
    }
) -> AsyncStateMachine<FeatureState, FeatureEvent> {
    AsyncStateMachine<FeatureState, FeatureEvent>(initial: DataIsIdle()) {
        When(states: DataIsIdle.self, DataIsLoaded.self) {
            On(event: DidRequestLoading.self) { _, event in
                Transition(state: DataIsLoading(id: event.id))
                Output(sideEffect: { await load(event.id) })
            }
        }
        When(state: DataIsLoading.self) {
            On(event: DidSucceedToLoad.self) { _, event in
                Transition(state: DataIsLoaded(data: event.data))
            }
        }
    }
    .disableLog()
}
