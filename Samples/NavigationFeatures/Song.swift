import StateMachineCore

// MARK: Song: the sheet shown over the Music stack.

/// A song's details.
public struct SongDetails: Sendable, Equatable {
    /// The id.
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
    /// The state.
    public init() {}
    /// Nothing to show yet.
    public var superState: SongState { SongState(isLoading: true, failure: nil, song: nil) }
}

/// The song loads.
public struct SongIsLoading: State, Equatable {
    /// The state.
    public init() {}
    /// Loading.
    public var superState: SongState { SongState(isLoading: true, failure: nil, song: nil) }
}

/// The song is loaded.
public struct SongIsLoaded: State, Equatable {
    /// The song.
    public let song: SongDetails
    /// The state.
    public init(song: SongDetails) { self.song = song }
    /// Loaded.
    public var superState: SongState { SongState(isLoading: false, failure: nil, song: song) }
    /// `SongIsLoaded (Lithium)`.
    public var description: String { "SongIsLoaded (\(song.title))" }
}

/// The song could not be loaded (the original stayed loading forever).
public struct SongIsInFailure: State, Equatable {
    /// Why.
    public let message: String
    /// The state.
    public init(message: String) { self.message = message }
    /// Failed.
    public var superState: SongState { SongState(isLoading: false, failure: message, song: nil) }
    /// `SongIsInFailure (Song 99 not found)`.
    public var description: String { "SongIsInFailure (\(message))" }
}

/// The sheet appeared for the song `songId`.
public struct DidRequestSongLoading: Event {
    /// Song event set.
    public typealias SuperEvent = SongEvent
    /// The song's id.
    public let songId: String
    /// The event.
    public init(songId: String) { self.songId = songId }
    /// `DidRequestSongLoading (5)`.
    public var description: String { "DidRequestSongLoading (\(songId))" }
}

/// The song was loaded.
public struct DidSucceedToLoadSong: Event {
    /// Song event set.
    public typealias SuperEvent = SongEvent
    /// The song.
    public let song: SongDetails
    /// The event.
    public init(song: SongDetails) { self.song = song }
}

/// The song could not be loaded.
public struct DidFailToLoadSong: Event {
    /// Song event set.
    public typealias SuperEvent = SongEvent
    /// Why.
    public let message: String
    /// The event.
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
