import StateMachineCore

// MARK: Owner: the detail screen of a place's owner, pushed over the Place screen.

/// An owner's details.
public struct OwnerDetails: Sendable, Equatable {
    /// The backend's identifier, used in requests and deep links.
    public let id: String
    /// "First Last".
    public let name: String
    /// The age.
    public let age: Int
    /// The address.
    public let address: String
    /// An owner.
    public init(id: String, name: String, age: Int, address: String) {
        self.id = id
        self.name = name
        self.age = age
        self.address = address
    }
}

/// What the Owner screen renders.
public struct OwnerState: Equatable, Sendable {
    /// Whether a load runs (or has not started).
    public let isLoading: Bool
    /// Why the owner could not be loaded, if it could not.
    public let failure: String?
    /// The owner, once loaded.
    public let owner: OwnerDetails?
}

/// The events of the Owner screen.
public enum OwnerEvent {}

/// Nothing loaded yet.
public struct OwnerIsIdle: State, Equatable {
    /// Makes this state: nothing loaded yet.
    public init() {}
    /// What the screen shows: nothing yet.
    public var superState: OwnerState { OwnerState(isLoading: true, failure: nil, owner: nil) }
}

/// The owner loads.
public struct OwnerIsLoading: State, Equatable {
    /// Makes this state: the owner loads.
    public init() {}
    /// What the screen shows: loading.
    public var superState: OwnerState { OwnerState(isLoading: true, failure: nil, owner: nil) }
}

/// The owner is loaded.
public struct OwnerIsLoaded: State, Equatable {
    /// The owner.
    public let owner: OwnerDetails
    /// Makes this state: the owner is loaded; `owner` is the owner.
    public init(owner: OwnerDetails) { self.owner = owner }
    /// What the screen shows: loaded.
    public var superState: OwnerState { OwnerState(isLoading: false, failure: nil, owner: owner) }
    /// `OwnerIsLoaded (George Takei)`.
    public var description: String { "OwnerIsLoaded (\(owner.name))" }
}

/// The owner could not be loaded (the original stayed loading forever).
public struct OwnerIsInFailure: State, Equatable {
    /// Why loading failed, as the screen shows it.
    public let message: String
    /// Makes this state: the owner could not be loaded (the original stayed loading forever);
    /// `message` is why.
    public init(message: String) { self.message = message }
    /// What the screen shows: failed.
    public var superState: OwnerState { OwnerState(isLoading: false, failure: message, owner: nil) }
    /// `OwnerIsInFailure (Owner 42 not found)`.
    public var description: String { "OwnerIsInFailure (\(message))" }
}

/// The screen appeared for the owner `id`.
public struct DidRequestOwnerLoading: Event {
    /// Sent to the owner machine, whose events are `OwnerEvent`s.
    public typealias SuperEvent = OwnerEvent
    /// The owner's id.
    public let id: String
    /// Makes this event: the screen appeared for the owner `id`; `id` is the owner's id.
    public init(id: String) { self.id = id }
    /// `DidRequestOwnerLoading (5)`.
    public var description: String { "DidRequestOwnerLoading (\(id))" }
}

/// The owner was loaded.
public struct DidSucceedToLoadOwner: Event {
    /// Sent to the owner machine, whose events are `OwnerEvent`s.
    public typealias SuperEvent = OwnerEvent
    /// The owner.
    public let owner: OwnerDetails
    /// Makes this event: the owner was loaded; `owner` is the owner.
    public init(owner: OwnerDetails) { self.owner = owner }
}

/// The owner could not be loaded.
public struct DidFailToLoadOwner: Event {
    /// Sent to the owner machine, whose events are `OwnerEvent`s.
    public typealias SuperEvent = OwnerEvent
    /// Why loading failed, as the backend reported it.
    public let message: String
    /// Makes this event: the owner could not be loaded; `message` is why.
    public init(message: String) { self.message = message }
}

/// The Owner machine. `load` fetches an owner; loads are not cancelled.
public func makeOwnerStateMachine(
    load: @escaping @Sendable (String) async throws -> OwnerDetails
) -> StateMachine<OwnerState, OwnerEvent> {
    StateMachine<OwnerState, OwnerEvent>(initial: OwnerIsIdle()) {
        When(states: OwnerIsIdle.self, OwnerIsLoaded.self) {
            On(event: DidRequestOwnerLoading.self) { _, event in
                Transition(state: OwnerIsLoading())
                loading(
                    event.id,
                    load,
                    succeed: { DidSucceedToLoadOwner(owner: $0) },
                    fail: { DidFailToLoadOwner(message: $0) }
                )
            }
        }
        When(state: OwnerIsLoading.self) {
            On(event: DidSucceedToLoadOwner.self) { _, event in Transition(state: OwnerIsLoaded(owner: event.owner)) }
            On(event: DidFailToLoadOwner.self) { _, event in Transition(state: OwnerIsInFailure(message: event.message))
            }
        }
    }
}
