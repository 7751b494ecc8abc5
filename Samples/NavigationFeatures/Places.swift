import StateMachineCore

// MARK: Places: the list at the root of the Checkin stack.

/// A place in the list.
public struct PlaceSummary: Sendable, Equatable {
    /// The backend's identifier, used in requests and deep links.
    public let id: String
    /// The name.
    public let name: String
    /// 1 to 5.
    public let stars: Int
    /// A place.
    public init(id: String, name: String, stars: Int) {
        self.id = id
        self.name = name
        self.stars = stars
    }
}

/// What the Places screen renders.
public struct PlacesState: Equatable, Sendable {
    /// Whether a load runs.
    public let isLoading: Bool
    /// The places shown.
    public let places: [PlaceSummary]
    /// The selected place's id, if one was picked.
    public let picked: String?
}

/// The events of the Places list.
public enum PlacesEvent {}

/// Nothing loaded yet.
public struct PlacesAreIdle: State, Equatable {
    /// Makes this state: nothing loaded yet.
    public init() {}
    /// Not loading, no places.
    public var superState: PlacesState { PlacesState(isLoading: false, places: [], picked: nil) }
}

/// A load runs; `previous` stays shown.
public struct PlacesAreLoading: State, Equatable {
    /// The places shown meanwhile.
    public let previous: [PlaceSummary]
    /// Makes this state: a load runs; `previous` stays shown; `previous` is the places shown
    /// meanwhile.
    public init(previous: [PlaceSummary]) { self.previous = previous }
    /// What the screen shows: loading.
    public var superState: PlacesState { PlacesState(isLoading: true, places: previous, picked: nil) }
}

/// The places are loaded.
public struct PlacesAreLoaded: State, Equatable {
    /// The places.
    public let places: [PlaceSummary]
    /// Makes this state: the places are loaded; `places` is the places.
    public init(places: [PlaceSummary]) { self.places = places }
    /// What the screen shows: loaded.
    public var superState: PlacesState { PlacesState(isLoading: false, places: places, picked: nil) }
    /// `PlacesAreLoaded (3 places)`.
    public var description: String { "PlacesAreLoaded (\(places.count) places)" }
}

/// The user picked the place `placeId` (the mediator then pushes it).
public struct PlaceIsSelected: State, Equatable {
    /// The places.
    public let places: [PlaceSummary]
    /// The picked place.
    public let placeId: String
    /// Makes this state: the user picked the place `placeId` (the mediator then pushes it);
    /// `places` is the places, `placeId` is the picked place.
    public init(places: [PlaceSummary], placeId: String) {
        self.places = places
        self.placeId = placeId
    }
    /// What the screen shows: picked.
    public var superState: PlacesState { PlacesState(isLoading: false, places: places, picked: placeId) }
    /// `PlaceIsSelected (placeId: 3)`.
    public var description: String { "PlaceIsSelected (placeId: \(placeId))" }
}

/// A load was asked for: on appearing (`isFullLoading`, the list is replaced by a
/// loading one) or by pull-to-refresh (the list stays until the new one arrives).
public struct DidRequestPlacesLoading: Event {
    /// Sent to the places machine, whose events are `PlacesEvent`s.
    public typealias SuperEvent = PlacesEvent
    /// Whether the list shows as loading meanwhile.
    public let isFullLoading: Bool
    /// Makes this event: a load was asked for: on appearing (`isFullLoading`, the list is replaced
    /// by a loading one) or by pull-to-refresh (the list stays until the new one arrives);
    /// `isFullLoading` is whether the list shows as loading meanwhile.
    public init(isFullLoading: Bool) { self.isFullLoading = isFullLoading }
}

/// A load ended with `places`.
public struct DidSucceedToLoadPlaces: Event {
    /// Sent to the places machine, whose events are `PlacesEvent`s.
    public typealias SuperEvent = PlacesEvent
    /// The places.
    public let places: [PlaceSummary]
    /// Makes this event: a load ended with `places`; `places` is the places.
    public init(places: [PlaceSummary]) { self.places = places }
}

/// The user picked a place.
public struct DidSelectPlace: Event {
    /// Sent to the places machine, whose events are `PlacesEvent`s.
    public typealias SuperEvent = PlacesEvent
    /// Its id.
    public let id: String
    /// Makes this event: the user picked a place; `id` is its id.
    public init(id: String) { self.id = id }
    /// `DidSelectPlace (3)`.
    public var description: String { "DidSelectPlace (\(id))" }
}

/// The Places domain: what a load returns.
public enum PlacesDomain {
    /// A load that fetches with `getData`, keeps the places with more than two stars,
    /// saves them with `saveData` (a failed save is ignored: the list is still shown) and
    /// returns them; a failed fetch returns no places.
    public static func makeLoad(
        getData: @escaping @Sendable () async throws -> [PlaceSummary],
        saveData: @escaping @Sendable ([PlaceSummary]) async throws -> Void
    ) -> @Sendable () async -> [PlaceSummary] {
        {
            guard let places = try? await getData() else { return [] }
            let kept = places.filter { $0.stars > 2 }
            try? await saveData(kept)
            return kept
        }
    }
}

/// The Places machine. `load` is the domain's load (``PlacesDomain/makeLoad(getData:saveData:)``);
/// each new load request cancels the running one and, unlike the original (which then
/// stayed loading), a request while loading starts a new load. No selection while loading.
public func makePlacesStateMachine(
    load: @escaping @Sendable () async -> [PlaceSummary]
) -> StateMachine<PlacesState, PlacesEvent> {
    let loadOutput: @Sendable () -> Output<PlacesState, PlacesEvent> = {
        Output<PlacesState, PlacesEvent>(sideEffect: { () async -> (any Event<PlacesEvent>)? in
            DidSucceedToLoadPlaces(places: await load())
        }).cancellationPolicy(cancel: Cancel(on: DidRequestPlacesLoading.self))
    }
    return StateMachine<PlacesState, PlacesEvent>(initial: PlacesAreIdle()) {
        When(state: PlacesAreIdle.self) {
            On(event: DidRequestPlacesLoading.self) { _, _ in
                Transition(state: PlacesAreLoading(previous: []))
                loadOutput()
            }
        }
        When(state: PlacesAreLoading.self) {
            On(event: DidSucceedToLoadPlaces.self) { _, event in
                Transition(state: PlacesAreLoaded(places: event.places))
            }
            // The request cancels the running load (the original then stayed loading): load again.
            On(event: DidRequestPlacesLoading.self) { state, _ in
                Transition(state: PlacesAreLoading(previous: state.previous))
                loadOutput()
            }
        }
        When(state: PlacesAreLoaded.self) {
            On(event: DidRequestPlacesLoading.self, guard: { _, event in event.isFullLoading }) { state, _ in
                Transition(state: PlacesAreLoading(previous: state.places))
                loadOutput()
            }
            On(event: DidRequestPlacesLoading.self) { _, _ in loadOutput() }
            On(event: DidSucceedToLoadPlaces.self) { _, event in
                Transition(state: PlacesAreLoaded(places: event.places))
            }
            On(event: DidSelectPlace.self) { state, event in
                Transition(state: PlaceIsSelected(places: state.places, placeId: event.id))
            }
        }
        When(state: PlaceIsSelected.self) {
            On(event: DidRequestPlacesLoading.self) { state, _ in
                Transition(state: PlacesAreLoading(previous: state.places))
                loadOutput()
            }
        }
    }
}
