import NavigationFeatures

/// Where the user is in the Navigation app: the selected tab, the routes of both stacks and
/// the open song sheet. What `--state FILE` keeps, as JSON:
/// `{"tab":"music","checkin":[{"kind":"place","id":"3"}],"albums":["1"],"song":"5"}`.
public struct NavigationLocation: Codable, Equatable, Sendable, CustomStringConvertible {
    /// A route of the Checkin stack: `place` or `owner`, and its id.
    public struct CheckinStep: Codable, Equatable, Sendable {
        /// `place` or `owner`.
        public var kind: String
        /// The place's or the owner's id.
        public var id: String
    }

    /// The selected tab's name (`checkin`, `music`, `profile`).
    public var tab: String
    /// The Checkin stack's routes, bottom first.
    public var checkin: [CheckinStep]
    /// The Music stack's albums, bottom first.
    public var albums: [String]
    /// The song the sheet shows, if open.
    public var song: String?

    /// The location the machines' states describe.
    init(section: Section, checkin: CheckinState, music: MusicState) {
        tab = section.rawValue
        self.checkin = checkin.routes.map { route in
            switch route {
            case .place(let id): CheckinStep(kind: "place", id: id)
            case .owner(let id): CheckinStep(kind: "owner", id: id)
            }
        }
        albums = music.routes.map(\.albumId)
        song = music.popup?.songId
    }

    /// The selected tab (Checkin for a name the app does not know).
    var section: Section { Section(rawValue: tab) ?? .checkin }

    /// The Checkin stack's routes (a step of an unknown kind is left out).
    var checkinRoutes: [CheckinRoute] {
        checkin.compactMap { step in
            switch step.kind {
            case "place": .place(id: step.id)
            case "owner": .owner(id: step.id)
            default: nil
            }
        }
    }

    /// The Music stack's state: its routes and its sheet.
    var musicState: MusicState {
        MusicState(routes: albums.map { .album(id: $0) }, popup: song.map { .song(id: $0) })
    }

    /// `music, checkin [place(3)], music [album(1)], sheet song(5)`.
    public var description: String {
        "\(tab), checkin \(checkinRoutes), music \(musicState.routes), sheet \(song.map { "song(\($0))" } ?? "none")"
    }
}
