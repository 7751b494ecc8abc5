import NavigationFeatures
import Observation
import StateMachineCore
import StateMachineUI

/// A screen pushed on the Checkin stack, with its own machine.
enum CheckinScreen {
    /// A Place screen.
    case place(id: String, UIStateMachine<PlaceState, PlaceEvent>)
    /// An Owner screen.
    case owner(id: String, UIStateMachine<OwnerState, OwnerEvent>)

    /// The route it shows.
    var route: CheckinRoute {
        switch self {
        case .place(let id, _): .place(id: id)
        case .owner(let id, _): .owner(id: id)
        }
    }
}

/// An Album screen pushed on the Music stack, with its own machine.
struct AlbumScreen {
    /// The album's id.
    let id: String
    /// Its machine.
    let ui: UIStateMachine<AlbumState, AlbumEvent>
}

/// The song sheet, with its own machine.
struct SongSheet {
    /// The song's id.
    let id: String
    /// Its machine.
    let ui: UIStateMachine<SongState, SongEvent>
}

/// Which screen shows: the root of a tab, or the route at `index` of its stack.
enum ShownScreen: Hashable {
    case places
    case checkin(index: Int, route: CheckinRoute)
    case albums
    case music(index: Int, route: MusicRoute)
    case profile
}

/// The app's view model: the tab bar, the two stacks and their screens' machines.
///
/// The stacks' machines are the source of truth: whenever their routes change (a command,
/// a mediator push, a deep link), the model gives each route a screen with its own machine
/// (kept while the route stays at its place in the stack), and the screen that comes on
/// top "appears": it sends its load event, as the original's `onAppear`/`.task` do.
@MainActor
@Observable
final class NavigationModel {
    @ObservationIgnored let environment: NavigationEnvironment
    @ObservationIgnored let home: UIStateMachine<HomeState, HomeEvent>
    @ObservationIgnored let checkin: UIStateMachine<CheckinState, CheckinEvent>
    @ObservationIgnored let music: UIStateMachine<MusicState, MusicEvent>
    @ObservationIgnored let places: UIStateMachine<PlacesState, PlacesEvent>
    @ObservationIgnored let albums: UIStateMachine<AlbumsState, AlbumsEvent>
    /// Whether commands wait for the loads they cause before returning (without a
    /// terminal: a transcript then shows each command's result).
    @ObservationIgnored let waitsForLoads: Bool

    /// The screens of the Checkin stack, one per route.
    private(set) var checkinScreens: [CheckinScreen] = []
    /// The screens of the Music stack, one per route.
    private(set) var musicScreens: [AlbumScreen] = []
    /// The song sheet, when open.
    private(set) var sheet: SongSheet?
    /// How many appearance loads are still running.
    private(set) var runningAppearances = 0
    /// Whether a pull-to-refresh runs.
    private(set) var isRefreshing = false
    /// The screen that appeared last (it loaded then).
    private(set) var shown: ShownScreen?

    init(environment: NavigationEnvironment, waitsForLoads: Bool) {
        self.environment = environment
        self.waitsForLoads = waitsForLoads
        home = UIStateMachine(asyncStateMachineFactory: environment.home)
        checkin = UIStateMachine(asyncStateMachineFactory: environment.checkin)
        music = UIStateMachine(asyncStateMachineFactory: environment.music)
        places = UIStateMachine(asyncStateMachineFactory: environment.places)
        albums = UIStateMachine(asyncStateMachineFactory: environment.albums)
    }

    /// Starts the machines' observation and shows the first screen.
    func start() {
        for ui in [home.start, checkin.start, music.start, places.start, albums.start] { ui() }
        observeStacks()
        update()
    }

    // MARK: What shows

    /// The selected tab.
    var section: Section { home.state.section }

    /// The screen on top of the selected tab.
    var shownScreen: ShownScreen {
        switch section {
        case .checkin:
            let routes = checkin.state.routes
            return routes.last.map { .checkin(index: routes.count - 1, route: $0) } ?? .places
        case .music:
            let routes = music.state.routes
            return routes.last.map { .music(index: routes.count - 1, route: $0) } ?? .albums
        case .profile:
            return .profile
        }
    }

    /// The screen of the Checkin route at `index` if it is `route`; nil until the model
    /// has caught up with the stack (a render can come first).
    func checkinScreen(at index: Int, showing route: CheckinRoute) -> CheckinScreen? {
        checkinScreens.indices.contains(index) && checkinScreens[index].route == route ? checkinScreens[index] : nil
    }

    /// The screen of the Music route at `index` if it is `route`; nil until the model has
    /// caught up with the stack.
    func musicScreen(at index: Int, showing route: MusicRoute) -> AlbumScreen? {
        musicScreens.indices.contains(index) && musicScreens[index].id == route.albumId ? musicScreens[index] : nil
    }

    /// The sheet shown over the Music tab, if it is open and the Music tab is selected.
    var shownSheet: SongSheet? { section == .music ? sheet : nil }

    /// Whether the shown screens have caught up with the stacks and nothing they show loads.
    var isBusy: Bool {
        if runningAppearances > 0 || isRefreshing { return true }
        guard checkinScreens.map(\.route) == checkin.state.routes,
            musicScreens.map(\.id) == music.state.routes.map(\.albumId),
            sheet?.id == music.state.popup?.songId
        else { return true }
        if let sheet = shownSheet, sheet.ui.state.isLoading { return true }
        switch shownScreen {
        case .places: return places.state.isLoading
        case .albums: return albums.state.isLoading
        case .profile: return false
        case .checkin(let index, _):
            switch checkinScreens[index] {
            case .place(_, let ui): return ui.state.isLoading
            case .owner(_, let ui): return ui.state.isLoading
            }
        case .music(let index, _): return musicScreens[index].ui.state.isLoading
        }
    }

    // MARK: Following the stacks

    private func observeStacks() {
        withObservationTracking {
            _ = (home.state, checkin.state, music.state)
        } onChange: { [weak self] in
            Task { @MainActor in
                self?.observeStacks()
                self?.update()
            }
        }
    }

    /// Gives each route a screen, opens or closes the sheet, and makes the top screen appear.
    private func update() {
        // A screen stays while it and every route under it stay the same; the others are new.
        let checkinRoutes = checkin.state.routes
        if checkinScreens.map(\.route) != checkinRoutes {
            let kept = commonPrefixCount(checkinScreens.map(\.route), checkinRoutes)
            checkinScreens = Array(checkinScreens.prefix(kept)) + checkinRoutes.dropFirst(kept).map(makeScreen(for:))
        }
        let albumIds = music.state.routes.map(\.albumId)
        if musicScreens.map(\.id) != albumIds {
            let kept = commonPrefixCount(musicScreens.map(\.id), albumIds)
            musicScreens =
                Array(musicScreens.prefix(kept))
                + albumIds.dropFirst(kept).map { id in
                    let ui = UIStateMachine(asyncStateMachineFactory: environment.album)
                    ui.start()
                    return AlbumScreen(id: id, ui: ui)
                }
        }
        let songId = music.state.popup?.songId
        if sheet?.id != songId {
            sheet = songId.map { id in
                let ui = UIStateMachine(asyncStateMachineFactory: environment.song)
                ui.start()
                appear { await ui.sendAndWait(DidRequestSongLoading(songId: id)) }
                return SongSheet(id: id, ui: ui)
            }
        }
        let now = shownScreen
        if now != shown {
            shown = now
            appear(now)
        }
    }

    private func commonPrefixCount<T: Equatable>(_ old: [T], _ new: [T]) -> Int {
        zip(old, new).prefix { $0 == $1 }.count
    }

    private func makeScreen(for route: CheckinRoute) -> CheckinScreen {
        switch route {
        case .place(let id):
            let ui = UIStateMachine(asyncStateMachineFactory: environment.place)
            ui.start()
            return .place(id: id, ui)
        case .owner(let id):
            let ui = UIStateMachine(asyncStateMachineFactory: environment.owner)
            ui.start()
            return .owner(id: id, ui)
        }
    }

    /// The original's `onAppear`: the screen coming on top loads.
    private func appear(_ screen: ShownScreen) {
        switch screen {
        case .places:
            appear { [places] in await places.sendAndWait(DidRequestPlacesLoading(isFullLoading: true)) }
        case .albums:
            appear { [albums] in await albums.sendAndWait(DidRequestAlbumsLoading(isFullLoading: true)) }
        case .profile:
            break
        case .checkin(let index, _):
            switch checkinScreens[index] {
            case .place(let id, let ui): appear { await ui.sendAndWait(DidRequestPlaceLoading(id: id)) }
            case .owner(let id, let ui): appear { await ui.sendAndWait(DidRequestOwnerLoading(id: id)) }
            }
        case .music(let index, _):
            let screen = musicScreens[index]
            appear { await screen.ui.sendAndWait(DidRequestAlbumLoading(albumId: screen.id)) }
        }
    }

    private func appear(_ load: @escaping @MainActor () async -> Void) {
        runningAppearances += 1
        Task { @MainActor in
            await load()
            runningAppearances -= 1
        }
    }

    // MARK: Waiting

    /// Returns once `condition` holds, the shown screens follow the stacks and (when
    /// `waitsForLoads`) nothing they show loads.
    func settle(until condition: @escaping @MainActor () -> Bool = { true }) async {
        while !(condition() && (!waitsForLoads || !isBusy)) {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                withObservationTracking {
                    _ = condition()
                    _ = isBusy
                } onChange: {
                    continuation.resume()
                }
            }
            // The change is announced before it is made: let it land.
            await Task.yield()
        }
        // Without a terminal, the machines' lifecycle callbacks have run too, so that a
        // `dump` printed next shows the states the screens show.
        guard waitsForLoads else { return }
        for caughtUp in heldMachines { await caughtUp() }
    }

    /// `waitUntilCaughtUp` of every machine the model holds now: the tabs' and stacks',
    /// each pushed screen's and the sheet's.
    private var heldMachines: [@MainActor () async -> Void] {
        var waits: [@MainActor () async -> Void] = [
            home.waitUntilCaughtUp, checkin.waitUntilCaughtUp, music.waitUntilCaughtUp,
            places.waitUntilCaughtUp, albums.waitUntilCaughtUp,
        ]
        for screen in checkinScreens {
            switch screen {
            case .place(_, let ui): waits.append(ui.waitUntilCaughtUp)
            case .owner(_, let ui): waits.append(ui.waitUntilCaughtUp)
            }
        }
        waits += musicScreens.map { $0.ui.waitUntilCaughtUp }
        if let sheet { waits.append(sheet.ui.waitUntilCaughtUp) }
        return waits
    }

    // MARK: Navigation

    /// Sends `link` to the tab bar and both stacks (as `.onOpenURL` does) and waits until
    /// they show it.
    func open(_ link: DeepLink) async {
        home.send(DidReceiveDeepLink<HomeEvent>(link: link))
        checkin.send(DidReceiveDeepLink<CheckinEvent>(link: link))
        music.send(DidReceiveDeepLink<MusicEvent>(link: link))
        let section = Section(rawValue: link.host) ?? .checkin
        let routes = checkinRoutes(for: link)
        let musicState = musicState(for: link)
        await settle { [self] in
            home.state.section == section && checkin.state.routes == routes && music.state == musicState
                && shown == shownScreen
        }
    }

    /// Where the user is: the tab, both stacks' routes and the sheet, as the machines say.
    var location: NavigationLocation {
        NavigationLocation(section: home.state.section, checkin: checkin.state, music: music.state)
    }

    /// Goes back to `location` (the one `--state` kept): selects its tab, resets both
    /// stacks' routes and opens its sheet, then waits until the screens show it.
    func restore(_ location: NavigationLocation) async {
        let section = location.section
        let routes = location.checkinRoutes
        let musicState = location.musicState
        home.send(DidSelectSection(section: section))
        checkin.send(DidRequestResettingCheckinRoutes(routes: routes))
        music.send(DidRequestResettingMusicRoutes(routes: musicState.routes))
        if let popup = musicState.popup { music.send(DidRequestSettingPopup(popup: popup)) }
        await settle { [self] in
            home.state.section == section && checkin.state.routes == routes && music.state == musicState
                && shown == shownScreen
        }
    }

    /// Selects the tab `section`.
    func select(_ section: Section) async {
        home.send(DidSelectSection(section: section))
        await settle { [self] in home.state.section == section && shown == shownScreen }
    }

    /// Pops the top route of the selected tab's stack (the back button).
    func pop() async {
        switch section {
        case .checkin:
            let routes = Array(checkin.state.routes.dropLast())
            checkin.send(DidRequestResettingCheckinRoutes(routes: routes))
            await settle { [self] in checkin.state.routes == routes && shown == shownScreen }
        case .music:
            let routes = Array(music.state.routes.dropLast())
            music.send(DidRequestResettingMusicRoutes(routes: routes))
            await settle { [self] in music.state.routes == routes && shown == shownScreen }
        case .profile:
            break
        }
    }

    /// Dismisses the song sheet.
    func closeSheet() async {
        music.send(DidRequestResettingPopup())
        await settle { [self] in music.state.popup == nil && sheet == nil }
    }

    /// Pull-to-refresh of the list the selected tab shows: returns once the load ended.
    func refresh() async {
        isRefreshing = true
        switch section {
        case .checkin: await places.sendAndWait(DidRequestPlacesLoading(isFullLoading: false))
        case .music: await albums.sendAndWait(DidRequestAlbumsLoading(isFullLoading: false))
        case .profile: break
        }
        isRefreshing = false
        await settle()
    }

    /// Selects the place `id` in the list, which pushes its screen.
    func selectPlace(id: String) async {
        places.send(DidSelectPlace(id: id))
        await settle { [self] in checkin.state.routes.last == .place(id: id) && shown == shownScreen }
    }

    /// Selects the album `id` in the list, which pushes its screen.
    func selectAlbum(id: String) async {
        albums.send(DidSelectAlbum(albumId: id))
        await settle { [self] in music.state.routes.last == .album(id: id) && shown == shownScreen }
    }

    /// Selects the owner of the place shown, which pushes the owner's screen.
    func selectOwner(id: String, on ui: UIStateMachine<PlaceState, PlaceEvent>) async {
        ui.send(DidSelectOwner(id: id))
        await settle { [self] in checkin.state.routes.last == .owner(id: id) && shown == shownScreen }
    }

    /// Selects a song of the album shown, which opens the sheet.
    func selectSong(id: String, on ui: UIStateMachine<AlbumState, AlbumEvent>) async {
        ui.send(DidSelectSong(songId: id))
        await settle { [self] in music.state.popup == .song(id: id) && sheet?.id == id }
    }
}

extension MusicRoute {
    /// The album's id.
    var albumId: String {
        switch self {
        case .album(let id): id
        }
    }
}

extension MusicPopup {
    /// The song's id.
    var songId: String {
        switch self {
        case .song(let id): id
        }
    }
}
