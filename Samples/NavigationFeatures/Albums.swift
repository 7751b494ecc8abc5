import StateMachineCore

// MARK: Albums: the list at the root of the Music stack.

/// An album in the list.
public struct AlbumSummary: Sendable, Equatable {
    /// The backend's identifier, used in requests and deep links.
    public let id: String
    /// The title.
    public let title: String
    /// The artist.
    public let author: String
    /// How many songs it has.
    public let numberOfSongs: Int
    /// An album.
    public init(id: String, title: String, author: String, numberOfSongs: Int) {
        self.id = id
        self.title = title
        self.author = author
        self.numberOfSongs = numberOfSongs
    }
}

/// What the Albums screen renders.
public struct AlbumsState: Equatable, Sendable {
    /// Whether the last load failed.
    public let isFailed: Bool
    /// Whether a load runs.
    public let isLoading: Bool
    /// The albums shown.
    public let albums: [AlbumSummary]
    /// The selected album's id, if one was picked.
    public let picked: String?
}

/// The events of the Albums list.
public enum AlbumsEvent {}

/// Nothing loaded yet.
public struct AlbumsAreIdle: State, Equatable {
    /// Makes this state: nothing loaded yet.
    public init() {}
    /// What the screen shows: nothing shown.
    public var superState: AlbumsState { AlbumsState(isFailed: false, isLoading: false, albums: [], picked: nil) }
}

/// A load runs; `previous` stays shown.
public struct AlbumsAreLoading: State, Equatable {
    /// The albums shown meanwhile.
    public let previous: [AlbumSummary]
    /// Makes this state: a load runs; `previous` stays shown; `previous` is the albums shown
    /// meanwhile.
    public init(previous: [AlbumSummary]) { self.previous = previous }
    /// What the screen shows: loading.
    public var superState: AlbumsState { AlbumsState(isFailed: false, isLoading: true, albums: previous, picked: nil) }
}

/// The albums are loaded.
public struct AlbumsAreLoaded: State, Equatable {
    /// The albums.
    public let albums: [AlbumSummary]
    /// Makes this state: the albums are loaded; `albums` is the albums.
    public init(albums: [AlbumSummary]) { self.albums = albums }
    /// What the screen shows: loaded.
    public var superState: AlbumsState { AlbumsState(isFailed: false, isLoading: false, albums: albums, picked: nil) }
    /// `AlbumsAreLoaded (3 albums)`.
    public var description: String { "AlbumsAreLoaded (\(albums.count) albums)" }
}

/// The load failed.
public struct AlbumsAreInFailure: State, Equatable {
    /// Makes this state: the load failed.
    public init() {}
    /// What the screen shows: failed.
    public var superState: AlbumsState { AlbumsState(isFailed: true, isLoading: false, albums: [], picked: nil) }
}

/// The user picked the album `albumId` (the mediator then pushes it).
public struct AlbumIsSelected: State, Equatable {
    /// The albums.
    public let albums: [AlbumSummary]
    /// The picked album.
    public let albumId: String
    /// Makes this state: the user picked the album `albumId` (the mediator then pushes it);
    /// `albums` is the albums, `albumId` is the picked album.
    public init(albums: [AlbumSummary], albumId: String) {
        self.albums = albums
        self.albumId = albumId
    }
    /// What the screen shows: picked.
    public var superState: AlbumsState {
        AlbumsState(isFailed: false, isLoading: false, albums: albums, picked: albumId)
    }
    /// `AlbumIsSelected (albumId: 1)`.
    public var description: String { "AlbumIsSelected (albumId: \(albumId))" }
}

/// A load was asked for: on appearing (`isFullLoading`) or by pull-to-refresh.
public struct DidRequestAlbumsLoading: Event {
    /// Sent to the albums machine, whose events are `AlbumsEvent`s.
    public typealias SuperEvent = AlbumsEvent
    /// Whether the list shows as loading meanwhile.
    public let isFullLoading: Bool
    /// Makes this event: a load was asked for: on appearing (`isFullLoading`) or by
    /// pull-to-refresh; `isFullLoading` is whether the list shows as loading meanwhile.
    public init(isFullLoading: Bool) { self.isFullLoading = isFullLoading }
}

/// A load ended with `albums`.
public struct DidSucceedToLoadAlbums: Event {
    /// Sent to the albums machine, whose events are `AlbumsEvent`s.
    public typealias SuperEvent = AlbumsEvent
    /// The albums.
    public let albums: [AlbumSummary]
    /// Makes this event: a load ended with `albums`; `albums` is the albums.
    public init(albums: [AlbumSummary]) { self.albums = albums }
}

/// A load failed.
public struct DidFailToLoadAlbums: Event {
    /// Sent to the albums machine, whose events are `AlbumsEvent`s.
    public typealias SuperEvent = AlbumsEvent
    /// Makes this event: a load failed.
    public init() {}
}

/// The user picked an album.
public struct DidSelectAlbum: Event {
    /// Sent to the albums machine, whose events are `AlbumsEvent`s.
    public typealias SuperEvent = AlbumsEvent
    /// Its id.
    public let albumId: String
    /// Makes this event: the user picked an album; `albumId` is its id.
    public init(albumId: String) { self.albumId = albumId }
    /// `DidSelectAlbum (1)`.
    public var description: String { "DidSelectAlbum (\(albumId))" }
}

/// The Albums machine. `load` fetches the albums; every load request cancels the running
/// load (and, while loading, starts a new one); a failure shows an error until the next load.
public func makeAlbumsStateMachine(
    load: @escaping @Sendable () async throws -> [AlbumSummary]
) -> StateMachine<AlbumsState, AlbumsEvent> {
    let loadOutput: @Sendable () -> Output<AlbumsState, AlbumsEvent> = {
        Output<AlbumsState, AlbumsEvent>(sideEffect: { () async -> (any Event<AlbumsEvent>)? in
            do {
                return DidSucceedToLoadAlbums(albums: try await load())
            } catch is CancellationError {
                return nil
            } catch {
                return DidFailToLoadAlbums()
            }
        }).cancellationPolicy(cancel: Cancel(on: DidRequestAlbumsLoading.self))
    }
    return StateMachine<AlbumsState, AlbumsEvent>(initial: AlbumsAreIdle()) {
        When(states: AlbumsAreIdle.self, AlbumsAreInFailure.self) {
            On(event: DidRequestAlbumsLoading.self) { _, _ in
                Transition(state: AlbumsAreLoading(previous: []))
                loadOutput()
            }
        }
        When(state: AlbumsAreLoading.self) {
            On(event: DidSucceedToLoadAlbums.self) { _, event in
                Transition(state: AlbumsAreLoaded(albums: event.albums))
            }
            On(event: DidFailToLoadAlbums.self) { _, _ in Transition(state: AlbumsAreInFailure()) }
            // The request cancels the running load (the original then stayed loading): load again.
            On(event: DidRequestAlbumsLoading.self) { state, _ in
                Transition(state: AlbumsAreLoading(previous: state.previous))
                loadOutput()
            }
        }
        When(state: AlbumsAreLoaded.self) {
            On(event: DidRequestAlbumsLoading.self, guard: { _, event in event.isFullLoading }) { state, _ in
                Transition(state: AlbumsAreLoading(previous: state.albums))
                loadOutput()
            }
            On(event: DidRequestAlbumsLoading.self) { _, _ in loadOutput() }
            On(event: DidSucceedToLoadAlbums.self) { _, event in
                Transition(state: AlbumsAreLoaded(albums: event.albums))
            }
            On(event: DidFailToLoadAlbums.self) { _, _ in Transition(state: AlbumsAreInFailure()) }
            On(event: DidSelectAlbum.self) { state, event in
                Transition(state: AlbumIsSelected(albums: state.albums, albumId: event.albumId))
            }
        }
        When(state: AlbumIsSelected.self) {
            On(event: DidRequestAlbumsLoading.self) { state, _ in
                Transition(state: AlbumsAreLoading(previous: state.albums))
                loadOutput()
            }
        }
    }
}
