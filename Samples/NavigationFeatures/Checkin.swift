import StateMachineCore

// MARK: Checkin: the navigation stack of the Checkin tab. Its one state type carries the
// routes pushed over the Places list.

/// A screen pushed on the Checkin stack.
public enum CheckinRoute: Sendable, Hashable, CustomStringConvertible {
    /// The place `id`.
    case place(id: String)
    /// The owner `id`.
    case owner(id: String)

    /// `place(3)`.
    public var description: String {
        switch self {
        case .place(let id): "place(\(id))"
        case .owner(let id): "owner(\(id))"
        }
    }
}

/// The events of the Checkin stack.
public enum CheckinEvent {}

/// The routes over the root (empty: the Places list shows).
public struct CheckinState: State, Equatable {
    /// The pushed routes, bottom first.
    public let routes: [CheckinRoute]
    /// A stack with `routes`.
    public init(routes: [CheckinRoute]) { self.routes = routes }
    /// The state itself.
    public var superState: CheckinState { self }
    /// `CheckinState (routes: [place(3)])`.
    public var description: String { "CheckinState (routes: \(routes))" }
}

/// The stack was set to `routes` (the back button writes the shorter path).
public struct DidRequestResettingCheckinRoutes: Event {
    /// Sent to the checkin machine, whose events are `CheckinEvent`s.
    public typealias SuperEvent = CheckinEvent
    /// The new routes.
    public let routes: [CheckinRoute]
    /// Makes this event: the stack was set to `routes` (the back button writes the shorter path);
    /// `routes` is the new routes.
    public init(routes: [CheckinRoute]) { self.routes = routes }
}

/// `routes` were pushed (a child screen asked through the mediator).
public struct DidRequestAddingCheckinRoutes: Event {
    /// Sent to the checkin machine, whose events are `CheckinEvent`s.
    public typealias SuperEvent = CheckinEvent
    /// The pushed routes.
    public let routes: [CheckinRoute]
    /// Makes this event: `routes` were pushed (a child screen asked through the mediator); `routes`
    /// is the pushed routes.
    public init(routes: CheckinRoute...) { self.routes = routes }
    /// `DidRequestAddingCheckinRoutes ([place(3)])`.
    public var description: String { "DidRequestAddingCheckinRoutes (\(routes))" }
}

/// The routes a deep link asks the Checkin stack for, as the original reads them: for a
/// `poc://checkin` link, 2 segments give a place, 4 a place and an owner; anything else
/// (another host or scheme, other counts) gives no routes.
public func checkinRoutes(for link: DeepLink) -> [CheckinRoute] {
    guard link.scheme == DeepLink.appScheme, link.host == Section.checkin.rawValue else { return [] }
    switch link.segments.count {
    case 2: return [.place(id: link.segments[1])]
    case 4: return [.place(id: link.segments[1]), .owner(id: link.segments[3])]
    default: return []
    }
}

/// The Checkin stack: starts empty; resetting replaces the routes, adding appends them;
/// every deep link sets the routes it names (none for links to other tabs).
public func makeCheckinStateMachine() -> StateMachine<CheckinState, CheckinEvent> {
    StateMachine<CheckinState, CheckinEvent>(initial: CheckinState(routes: [])) {
        When(state: CheckinState.self) {
            On(event: DidRequestResettingCheckinRoutes.self) { _, event in
                Transition(state: CheckinState(routes: event.routes))
            }
            On(event: DidRequestAddingCheckinRoutes.self) { state, event in
                Transition(state: CheckinState(routes: state.routes + event.routes))
            }
            On(event: DidReceiveDeepLink<CheckinEvent>.self) { _, event in
                Transition(state: CheckinState(routes: checkinRoutes(for: event.link)))
            }
        }
    }
}
