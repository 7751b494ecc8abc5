import StateMachineCore

// MARK: Album: the detail screen of an album, pushed over the Albums list.

/// An album's details.
public struct AlbumDetails: Sendable, Equatable {
    /// A song of the album.
    public struct Song: Sendable, Equatable {
        /// The song's id (unique across albums).
        public let id: String
        /// The title.
        public let title: String
        /// A song.
        public init(id: String, title: String) {
            self.id = id
            self.title = title
        }
    }
    /// The backend's identifier, used in requests and deep links.
    public let id: String
    /// The title.
    public let title: String
    /// The artist.
    public let author: String
    /// The release date.
    public let dateOfRelease: String
    /// The producer.
    public let producer: String
    /// The songs, in order.
    public let songs: [Song]
    /// An album.
    public init(id: String, title: String, author: String, dateOfRelease: String, producer: String, songs: [Song]) {
        self.id = id
        self.title = title
        self.author = author
        self.dateOfRelease = dateOfRelease
        self.producer = producer
        self.songs = songs
    }
}

/// What the Album screen renders.
public struct AlbumState: Equatable, Sendable {
    /// Whether a load runs (or has not started).
    public let isLoading: Bool
    /// Why the album could not be loaded, if it could not.
    public let failure: String?
    /// The album, once loaded.
    public let album: AlbumDetails?
    /// The selected song, if one was picked.
    public let selectedSongId: String?
}

/// The events of the Album screen.
public enum AlbumEvent {}

/// Nothing loaded yet.
public struct AlbumIsIdle: State, Equatable {
    /// Makes this state: nothing loaded yet.
    public init() {}
    /// What the screen shows: nothing yet.
    public var superState: AlbumState { AlbumState(isLoading: true, failure: nil, album: nil, selectedSongId: nil) }
}

/// The album loads.
public struct AlbumIsLoading: State, Equatable {
    /// Makes this state: the album loads.
    public init() {}
    /// What the screen shows: loading.
    public var superState: AlbumState { AlbumState(isLoading: true, failure: nil, album: nil, selectedSongId: nil) }
}

/// The album is loaded.
public struct AlbumIsLoaded: State, Equatable {
    /// The album.
    public let album: AlbumDetails
    /// Makes this state: the album is loaded; `album` is the album.
    public init(album: AlbumDetails) { self.album = album }
    /// What the screen shows: loaded.
    public var superState: AlbumState { AlbumState(isLoading: false, failure: nil, album: album, selectedSongId: nil) }
    /// `AlbumIsLoaded (Nevermind)`.
    public var description: String { "AlbumIsLoaded (\(album.title))" }
}

/// The album could not be loaded.
public struct AlbumIsInFailure: State, Equatable {
    /// Why (`Album 3 not found`).
    public let message: String
    /// Makes this state: the album could not be loaded; `message` is why (`Album 3 not found`).
    public init(message: String) { self.message = message }
    /// What the screen shows: failed.
    public var superState: AlbumState {
        AlbumState(isLoading: false, failure: message, album: nil, selectedSongId: nil)
    }
    /// `AlbumIsInFailure (Album 3 not found)`.
    public var description: String { "AlbumIsInFailure (\(message))" }
}

/// The user picked the song `songId` (the mediator then opens the sheet).
public struct SongIsSelected: State, Equatable {
    /// The album.
    public let album: AlbumDetails
    /// The picked song.
    public let songId: String
    /// Makes this state: the user picked the song `songId` (the mediator then opens the sheet);
    /// `album` is the album, `songId` is the picked song.
    public init(album: AlbumDetails, songId: String) {
        self.album = album
        self.songId = songId
    }
    /// Still showing the album.
    public var superState: AlbumState {
        AlbumState(isLoading: false, failure: nil, album: album, selectedSongId: songId)
    }
    /// `SongIsSelected (songId: 5)`.
    public var description: String { "SongIsSelected (songId: \(songId))" }
}

/// The screen appeared for the album `albumId`.
public struct DidRequestAlbumLoading: Event {
    /// Sent to the album machine, whose events are `AlbumEvent`s.
    public typealias SuperEvent = AlbumEvent
    /// The album's id.
    public let albumId: String
    /// Makes this event: the screen appeared for the album `albumId`; `albumId` is the album's id.
    public init(albumId: String) { self.albumId = albumId }
    /// `DidRequestAlbumLoading (1)`.
    public var description: String { "DidRequestAlbumLoading (\(albumId))" }
}

/// The album was loaded.
public struct DidSucceedToLoadAlbum: Event {
    /// Sent to the album machine, whose events are `AlbumEvent`s.
    public typealias SuperEvent = AlbumEvent
    /// The album.
    public let album: AlbumDetails
    /// Makes this event: the album was loaded; `album` is the album.
    public init(album: AlbumDetails) { self.album = album }
}

/// The album could not be loaded.
public struct DidFailToLoadAlbum: Event {
    /// Sent to the album machine, whose events are `AlbumEvent`s.
    public typealias SuperEvent = AlbumEvent
    /// Why loading failed, as the backend reported it.
    public let message: String
    /// Makes this event: the album could not be loaded; `message` is why.
    public init(message: String) { self.message = message }
}

/// The user picked a song.
public struct DidSelectSong: Event {
    /// Sent to the album machine, whose events are `AlbumEvent`s.
    public typealias SuperEvent = AlbumEvent
    /// The song's id.
    public let songId: String
    /// Makes this event: the user picked a song; `songId` is the song's id.
    public init(songId: String) { self.songId = songId }
    /// `DidSelectSong (5)`.
    public var description: String { "DidSelectSong (\(songId))" }
}

/// The Album machine. `load` fetches an album; loads are not cancelled; selecting a song
/// (even the same one again) is a new transition, so the mediator opens the sheet each time.
public func makeAlbumStateMachine(
    load: @escaping @Sendable (String) async throws -> AlbumDetails
) -> StateMachine<AlbumState, AlbumEvent> {
    StateMachine<AlbumState, AlbumEvent>(initial: AlbumIsIdle()) {
        When(states: AlbumIsIdle.self, AlbumIsLoaded.self, SongIsSelected.self) {
            On(event: DidRequestAlbumLoading.self) { _, event in
                Transition(state: AlbumIsLoading())
                loading(
                    event.albumId,
                    load,
                    succeed: { DidSucceedToLoadAlbum(album: $0) },
                    fail: { DidFailToLoadAlbum(message: $0) }
                )
            }
        }
        When(state: AlbumIsLoading.self) {
            On(event: DidSucceedToLoadAlbum.self) { _, event in Transition(state: AlbumIsLoaded(album: event.album)) }
            On(event: DidFailToLoadAlbum.self) { _, event in Transition(state: AlbumIsInFailure(message: event.message))
            }
        }
        When(state: AlbumIsLoaded.self) {
            On(event: DidSelectSong.self) { state, event in
                Transition(state: SongIsSelected(album: state.album, songId: event.songId))
            }
        }
        When(state: SongIsSelected.self) {
            On(event: DidSelectSong.self) { state, event in
                Transition(state: SongIsSelected(album: state.album, songId: event.songId))
            }
        }
    }
}
