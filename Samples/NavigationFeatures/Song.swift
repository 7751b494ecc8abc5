import StateMachineCore

// MARK: Song: the sheet shown over the Music stack.

/// A song's details.
public struct SongDetails: Sendable, Equatable {
    /// The backend's identifier, used in requests and deep links.
    public let id: String
    /// The title.
    public let title: String
    /// The artist.
    public let author: String
    /// The duration (`4:21`).
    public let duration: String
    /// A song.
    public init(id: String, title: String, author: String, duration: String) {
        self.id = id
        self.title = title
        self.author = author
        self.duration = duration
    }
}

/// What the Song sheet renders.
public struct SongState: Equatable, Sendable {
    /// Whether a load runs (or has not started).
    public let isLoading: Bool
    /// Why the song could not be loaded, if it could not.
    public let failure: String?
    /// The song, once loaded.
    public let song: SongDetails?
}

/// The events of the Song sheet.
public enum SongEvent {}

/// Nothing loaded yet.
public struct SongIsIdle: State, Equatable {
    /// Makes this state: nothing loaded yet.
    public init() {}
    /// What the screen shows: nothing yet.
    public var superState: SongState { SongState(isLoading: true, failure: nil, song: nil) }
}

/// The song loads.
public struct SongIsLoading: State, Equatable {
    /// Makes this state: the song loads.
    public init() {}
    /// What the screen shows: loading.
    public var superState: SongState { SongState(isLoading: true, failure: nil, song: nil) }
}

/// The song is loaded.
public struct SongIsLoaded: State, Equatable {
    /// The song.
    public let song: SongDetails
    /// Makes this state: the song is loaded; `song` is the song.
    public init(song: SongDetails) { self.song = song }
    /// What the screen shows: loaded.
    public var superState: SongState { SongState(isLoading: false, failure: nil, song: song) }
    /// `SongIsLoaded (Lithium)`.
    public var description: String { "SongIsLoaded (\(song.title))" }
}

/// The song could not be loaded (the original stayed loading forever).
public struct SongIsInFailure: State, Equatable {
    /// Why loading failed, as the screen shows it.
    public let message: String
    /// Makes this state: the song could not be loaded (the original stayed loading forever);
    /// `message` is why.
    public init(message: String) { self.message = message }
    /// What the screen shows: failed.
    public var superState: SongState { SongState(isLoading: false, failure: message, song: nil) }
    /// `SongIsInFailure (Song 99 not found)`.
    public var description: String { "SongIsInFailure (\(message))" }
}

/// The sheet appeared for the song `songId`.
public struct DidRequestSongLoading: Event {
    /// Sent to the song machine, whose events are `SongEvent`s.
    public typealias SuperEvent = SongEvent
    /// The song's id.
    public let songId: String
    /// Makes this event: the sheet appeared for the song `songId`; `songId` is the song's id.
    public init(songId: String) { self.songId = songId }
    /// `DidRequestSongLoading (5)`.
    public var description: String { "DidRequestSongLoading (\(songId))" }
}

/// The song was loaded.
public struct DidSucceedToLoadSong: Event {
    /// Sent to the song machine, whose events are `SongEvent`s.
    public typealias SuperEvent = SongEvent
    /// The song.
    public let song: SongDetails
    /// Makes this event: the song was loaded; `song` is the song.
    public init(song: SongDetails) { self.song = song }
}

/// The song could not be loaded.
public struct DidFailToLoadSong: Event {
    /// Sent to the song machine, whose events are `SongEvent`s.
    public typealias SuperEvent = SongEvent
    /// Why loading failed, as the backend reported it.
    public let message: String
    /// Makes this event: the song could not be loaded; `message` is why.
    public init(message: String) { self.message = message }
}

/// The Song machine. `load` fetches a song.
public func makeSongStateMachine(
    load: @escaping @Sendable (String) async throws -> SongDetails
) -> StateMachine<SongState, SongEvent> {
    StateMachine<SongState, SongEvent>(initial: SongIsIdle()) {
        When(states: SongIsIdle.self, SongIsLoaded.self, SongIsInFailure.self) {
            On(event: DidRequestSongLoading.self) { _, event in
                Transition(state: SongIsLoading())
                loading(
                    event.songId,
                    load,
                    succeed: { DidSucceedToLoadSong(song: $0) },
                    fail: { DidFailToLoadSong(message: $0) }
                )
            }
        }
        When(state: SongIsLoading.self) {
            On(event: DidSucceedToLoadSong.self) { _, event in Transition(state: SongIsLoaded(song: event.song)) }
            On(event: DidFailToLoadSong.self) { _, event in Transition(state: SongIsInFailure(message: event.message)) }
        }
    }
}
