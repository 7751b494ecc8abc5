import StateMachineCore

// MARK: Music: the navigation stack of the Music tab, plus the song sheet. Its one state
// type carries the routes over the Albums list and the optional sheet.

/// A screen pushed on the Music stack.
public enum MusicRoute: Sendable, Hashable, CustomStringConvertible {
    /// The album `id`.
    case album(id: String)
    /// `album(1)`.
    public var description: String {
        switch self {
        case .album(let id): "album(\(id))"
        }
    }
}

/// A sheet shown over the Music stack.
public enum MusicPopup: Sendable, Hashable, CustomStringConvertible {
    /// The song `id`.
    case song(id: String)
    /// `song(5)`.
    public var description: String {
        switch self {
        case .song(let id): "song(\(id))"
        }
    }
}

/// The events of the Music stack.
public enum MusicEvent {}

/// The routes over the root (empty: the Albums list shows) and the sheet, if any.
public struct MusicState: State, Equatable {
    /// The pushed routes, bottom first.
    public let routes: [MusicRoute]
    /// The sheet, or nil.
    public let popup: MusicPopup?
    /// A stack with `routes` and `popup`.
    public init(routes: [MusicRoute], popup: MusicPopup? = nil) {
        self.routes = routes
        self.popup = popup
    }
    /// The state itself.
    public var superState: MusicState { self }
    /// `MusicState (routes: [album(1)], popup: song(5))`.
    public var description: String {
        "MusicState (routes: \(routes), popup: \(popup.map(\.description) ?? "nil"))"
    }
}

/// The stack was set to `routes` (the back button); the sheet stays.
public struct DidRequestResettingMusicRoutes: Event {
    /// Sent to the music machine, whose events are `MusicEvent`s.
    public typealias SuperEvent = MusicEvent
    /// The new routes.
    public let routes: [MusicRoute]
    /// Makes this event: the stack was set to `routes` (the back button); the sheet stays; `routes`
    /// is the new routes.
    public init(routes: [MusicRoute]) { self.routes = routes }
}

/// `routes` were pushed (a child screen asked through the mediator).
public struct DidRequestAddingMusicRoutes: Event {
    /// Sent to the music machine, whose events are `MusicEvent`s.
    public typealias SuperEvent = MusicEvent
    /// The pushed routes.
    public let routes: [MusicRoute]
    /// Makes this event: `routes` were pushed (a child screen asked through the mediator); `routes`
    /// is the pushed routes.
    public init(routes: MusicRoute...) { self.routes = routes }
    /// `DidRequestAddingMusicRoutes ([album(1)])`.
    public var description: String { "DidRequestAddingMusicRoutes (\(routes))" }
}

/// A sheet was asked for (a song was selected).
public struct DidRequestSettingPopup: Event {
    /// Sent to the music machine, whose events are `MusicEvent`s.
    public typealias SuperEvent = MusicEvent
    /// The sheet.
    public let popup: MusicPopup
    /// Makes this event: a sheet was asked for (a song was selected); `popup` is the sheet.
    public init(popup: MusicPopup) { self.popup = popup }
    /// `DidRequestSettingPopup (song(5))`.
    public var description: String { "DidRequestSettingPopup (\(popup))" }
}

/// The sheet was dismissed.
public struct DidRequestResettingPopup: Event {
    /// Sent to the music machine, whose events are `MusicEvent`s.
    public typealias SuperEvent = MusicEvent
    /// Makes this event: the sheet was dismissed.
    public init() {}
}

/// The stack a deep link asks the Music tab for, as the original reads it: for a
/// `poc://music` link, 2 segments give an album, 4 an album and a song sheet; anything else
/// (another host or scheme, other counts) gives no routes and no sheet.
public func musicState(for link: DeepLink) -> MusicState {
    guard link.scheme == DeepLink.appScheme, link.host == Section.music.rawValue else { return MusicState(routes: []) }
    switch link.segments.count {
    case 2: return MusicState(routes: [.album(id: link.segments[1])])
    case 4: return MusicState(routes: [.album(id: link.segments[1])], popup: .song(id: link.segments[3]))
    default: return MusicState(routes: [])
    }
}

/// The Music stack: starts empty with no sheet; resetting the routes keeps the sheet,
/// adding appends; setting or resetting the popup shows or dismisses the sheet; every deep
/// link sets the routes and sheet it names (none for links to other tabs).
public func makeMusicStateMachine() -> StateMachine<MusicState, MusicEvent> {
    StateMachine<MusicState, MusicEvent>(initial: MusicState(routes: [])) {
        When(state: MusicState.self) {
            On(event: DidRequestResettingMusicRoutes.self) { state, event in
                Transition(state: MusicState(routes: event.routes, popup: state.popup))
            }
            On(event: DidRequestAddingMusicRoutes.self) { state, event in
                Transition(state: MusicState(routes: state.routes + event.routes, popup: state.popup))
            }
            On(event: DidRequestSettingPopup.self) { state, event in
                Transition(state: MusicState(routes: state.routes, popup: event.popup))
            }
            On(event: DidRequestResettingPopup.self) { state, _ in
                Transition(state: MusicState(routes: state.routes, popup: nil))
            }
            On(event: DidReceiveDeepLink<MusicEvent>.self) { _, event in
                Transition(state: musicState(for: event.link))
            }
        }
    }
}
