import StateMachineCore

// MARK: Place: the detail screen of a place, pushed over the Places list.

/// A place's details.
public struct PlaceDetails: Sendable, Equatable {
    /// The owner as the place shows them.
    public struct Owner: Sendable, Equatable {
        /// The owner's id.
        public let id: String
        /// "First Last".
        public let name: String
        /// An owner.
        public init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }
    /// The backend's identifier, used in requests and deep links.
    public let id: String
    /// The name.
    public let name: String
    /// The address.
    public let address: String
    /// The phone number.
    public let telephone: String
    /// A description.
    public let description: String
    /// The owner.
    public let owner: Owner
    /// A place.
    public init(id: String, name: String, address: String, telephone: String, description: String, owner: Owner) {
        self.id = id
        self.name = name
        self.address = address
        self.telephone = telephone
        self.description = description
        self.owner = owner
    }
}

/// What the Place screen renders.
public struct PlaceState: Equatable, Sendable {
    /// Whether a load runs (or has not started).
    public let isLoading: Bool
    /// Why the place could not be loaded, if it could not.
    public let failure: String?
    /// The place, once loaded.
    public let place: PlaceDetails?
}

/// The events of the Place screen.
public enum PlaceEvent {}

/// Nothing loaded yet.
public struct PlaceIsIdle: State, Equatable {
    /// Makes this state: nothing loaded yet.
    public init() {}
    /// What the screen shows: nothing yet.
    public var superState: PlaceState { PlaceState(isLoading: true, failure: nil, place: nil) }
}

/// The place loads.
public struct PlaceIsLoading: State, Equatable {
    /// Makes this state: the place loads.
    public init() {}
    /// What the screen shows: loading.
    public var superState: PlaceState { PlaceState(isLoading: true, failure: nil, place: nil) }
}

/// The place is loaded.
public struct PlaceIsLoaded: State, Equatable {
    /// The place.
    public let place: PlaceDetails
    /// Makes this state: the place is loaded; `place` is the place.
    public init(place: PlaceDetails) { self.place = place }
    /// What the screen shows: loaded.
    public var superState: PlaceState { PlaceState(isLoading: false, failure: nil, place: place) }
    /// `PlaceIsLoaded (Le Lab)`.
    public var description: String { "PlaceIsLoaded (\(place.name))" }
}

/// The place could not be loaded (final: the screen offers only a way back).
public struct PlaceIsInFailure: State, Equatable {
    /// Why (`Place 42 not found`).
    public let message: String
    /// Makes this state: the place could not be loaded (final: the screen offers only a way back);
    /// `message` is why (`Place 42 not found`).
    public init(message: String) { self.message = message }
    /// What the screen shows: failed.
    public var superState: PlaceState { PlaceState(isLoading: false, failure: message, place: nil) }
    /// `PlaceIsInFailure (Place 42 not found)`.
    public var description: String { "PlaceIsInFailure (\(message))" }
}

/// The user picked the owner (the mediator then pushes them).
public struct OwnerIsSelected: State, Equatable {
    /// The place.
    public let place: PlaceDetails
    /// The owner's id.
    public let ownerId: String
    /// Makes this state: the user picked the owner (the mediator then pushes them); `place` is the
    /// place, `ownerId` is the owner's id.
    public init(place: PlaceDetails, ownerId: String) {
        self.place = place
        self.ownerId = ownerId
    }
    /// Still showing the place.
    public var superState: PlaceState { PlaceState(isLoading: false, failure: nil, place: place) }
    /// `OwnerIsSelected (ownerId: 5)`.
    public var description: String { "OwnerIsSelected (ownerId: \(ownerId))" }
}

/// The screen appeared for the place `id`.
public struct DidRequestPlaceLoading: Event {
    /// Sent to the place machine, whose events are `PlaceEvent`s.
    public typealias SuperEvent = PlaceEvent
    /// The place's id.
    public let id: String
    /// Makes this event: the screen appeared for the place `id`; `id` is the place's id.
    public init(id: String) { self.id = id }
    /// `DidRequestPlaceLoading (3)`.
    public var description: String { "DidRequestPlaceLoading (\(id))" }
}

/// The place was loaded.
public struct DidSucceedToLoadPlace: Event {
    /// Sent to the place machine, whose events are `PlaceEvent`s.
    public typealias SuperEvent = PlaceEvent
    /// The place.
    public let place: PlaceDetails
    /// Makes this event: the place was loaded; `place` is the place.
    public init(place: PlaceDetails) { self.place = place }
}

/// The place could not be loaded.
public struct DidFailToLoadPlace: Event {
    /// Sent to the place machine, whose events are `PlaceEvent`s.
    public typealias SuperEvent = PlaceEvent
    /// Why loading failed, as the backend reported it.
    public let message: String
    /// Makes this event: the place could not be loaded; `message` is why.
    public init(message: String) { self.message = message }
}

/// The user picked the owner.
public struct DidSelectOwner: Event {
    /// Sent to the place machine, whose events are `PlaceEvent`s.
    public typealias SuperEvent = PlaceEvent
    /// The owner's id.
    public let id: String
    /// Makes this event: the user picked the owner; `id` is the owner's id.
    public init(id: String) { self.id = id }
    /// `DidSelectOwner (5)`.
    public var description: String { "DidSelectOwner (\(id))" }
}

/// An output that runs `load(id)`: success sends `succeed`, a cancellation nothing, any
/// other error `fail` with the error's description.
func loading<Value: Sendable, SuperState, SuperEvent>(
    _ id: String,
    _ load: @escaping @Sendable (String) async throws -> Value,
    succeed: @escaping @Sendable (Value) -> any Event<SuperEvent>,
    fail: @escaping @Sendable (String) -> any Event<SuperEvent>
) -> Output<SuperState, SuperEvent> {
    Output(sideEffect: { () async -> (any Event<SuperEvent>)? in
        do {
            return succeed(try await load(id))
        } catch is CancellationError {
            return nil
        } catch {
            return fail(String(describing: error))
        }
    })
}

/// The Place machine. `load` fetches a place; a new load request cancels the running
/// one; coming back from the owner (a load request in `OwnerIsSelected`) shows the place
/// again without reloading it.
public func makePlaceStateMachine(
    load: @escaping @Sendable (String) async throws -> PlaceDetails
) -> StateMachine<PlaceState, PlaceEvent> {
    let loadOutput: @Sendable (String) -> Output<PlaceState, PlaceEvent> = { id in
        loading(id, load, succeed: { DidSucceedToLoadPlace(place: $0) }, fail: { DidFailToLoadPlace(message: $0) })
            .cancellationPolicy(cancel: Cancel(on: DidRequestPlaceLoading.self))
    }
    return StateMachine<PlaceState, PlaceEvent>(initial: PlaceIsIdle()) {
        // Loading too: the request cancels the running load (the original then stayed loading).
        When(states: PlaceIsIdle.self, PlaceIsLoading.self, PlaceIsLoaded.self) {
            On(event: DidRequestPlaceLoading.self) { _, event in
                Transition(state: PlaceIsLoading())
                loadOutput(event.id)
            }
        }
        When(state: PlaceIsLoading.self) {
            On(event: DidSucceedToLoadPlace.self) { _, event in Transition(state: PlaceIsLoaded(place: event.place)) }
            On(event: DidFailToLoadPlace.self) { _, event in Transition(state: PlaceIsInFailure(message: event.message))
            }
        }
        When(state: PlaceIsLoaded.self) {
            On(event: DidSelectOwner.self) { state, event in
                Transition(state: OwnerIsSelected(place: state.place, ownerId: event.id))
            }
        }
        When(state: OwnerIsSelected.self) {
            On(event: DidRequestPlaceLoading.self) { state, _ in Transition(state: PlaceIsLoaded(place: state.place)) }
        }
    }
}
