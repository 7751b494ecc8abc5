import StateMachineCore

// MARK: Home: the tab bar. Its one state type carries the selected section.

/// A tab of the app.
public enum Section: String, Sendable, CaseIterable, Equatable {
    /// Places and their owners.
    case checkin
    /// Albums and songs.
    case music
    /// A static profile.
    case profile

    /// `Checkin`.
    public var title: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
}

/// The events of the tab bar.
public enum HomeEvent {}

/// The selected tab.
public struct HomeState: State, Equatable {
    /// The selected section.
    public let section: Section
    /// A state with `section` selected.
    public init(section: Section) { self.section = section }
    /// The state itself.
    public var superState: HomeState { self }
    /// `HomeState (section: music)`.
    public var description: String { "HomeState (section: \(section.rawValue))" }
}

/// The user picked a tab.
public struct DidSelectSection: Event {
    /// Sent to the home machine, whose events are `HomeEvent`s.
    public typealias SuperEvent = HomeEvent
    /// The tab.
    public let section: Section
    /// Makes this event: the user picked a tab; `section` is the tab.
    public init(section: Section) { self.section = section }
    /// `DidSelectSection (music)`.
    public var description: String { "DidSelectSection (\(section.rawValue))" }
}

/// The tab bar: starts on Checkin; a tab selection selects it; a `poc` deep link selects
/// the tab its host names (Checkin for an unknown host); other schemes change nothing.
public func makeHomeStateMachine() -> StateMachine<HomeState, HomeEvent> {
    StateMachine<HomeState, HomeEvent>(initial: HomeState(section: .checkin)) {
        When(state: HomeState.self) {
            On(event: DidSelectSection.self) { _, event in Transition(state: HomeState(section: event.section)) }
            On(
                event: DidReceiveDeepLink<HomeEvent>.self,
                guard: { _, event in event.link.scheme == DeepLink.appScheme }
            ) {
                _,
                event in
                Transition(state: HomeState(section: Section(rawValue: event.link.host) ?? .checkin))
            }
        }
    }
}
