import Foundation
import NavigationFeatures
import StateMachineCore
import StateMachineDump

/// What the Navigation app's features depend on, built once per app: the concrete
/// dependencies (the fake backend, the file-system writer), the mediators through which
/// screens push screens, and the machines' factories with their lifecycles.
///
/// The tab bar and the two stacks are singletons (one per app, as the original's globals),
/// and so are the two root lists; every detail screen and the song sheet get a new machine
/// (`.instance`) each time they are shown.
public struct NavigationEnvironment: Sendable {
    /// The backend every load goes to.
    public let backend: FakeBackend
    /// Carries the Places and Place screens' pushes to the Checkin stack.
    let checkinMediator = Mediator<CheckinEvent>()
    /// Carries the Albums and Album screens' pushes and sheets to the Music stack.
    let musicMediator = Mediator<MusicEvent>()
    let home: AsyncStateMachineFactory<HomeState, HomeEvent>
    let checkin: AsyncStateMachineFactory<CheckinState, CheckinEvent>
    let music: AsyncStateMachineFactory<MusicState, MusicEvent>
    let places: AsyncStateMachineFactory<PlacesState, PlacesEvent>
    let place: AsyncStateMachineFactory<PlaceState, PlaceEvent>
    let owner: AsyncStateMachineFactory<OwnerState, OwnerEvent>
    let albums: AsyncStateMachineFactory<AlbumsState, AlbumsEvent>
    let album: AsyncStateMachineFactory<AlbumState, AlbumEvent>
    let song: AsyncStateMachineFactory<SongState, SongEvent>

    /// The app's environment: the backend answers after `delayScale` seconds (the
    /// original's one second, scaled) with random choices drawn from `seed`; the Places list
    /// is saved to `placesFile`; every machine reports to the dump and logs its transitions
    /// only when `log` is set.
    public init(delayScale: Double = 1, seed: UInt64? = nil, log: Bool = false, placesFile: URL? = nil) {
        self.init(
            backend: FakeBackend(latency: .seconds(delayScale), seed: seed ?? UInt64.random(in: 0...UInt64.max)),
            log: log,
            placesFile: placesFile
        )
    }

    /// The app's environment on `backend`; the Places list is saved to `placesFile`; every
    /// machine reports to the dump and logs its transitions only when `log` is set.
    public init(backend: FakeBackend, log: Bool = false, placesFile: URL? = nil) {
        self.backend = backend
        @Sendable func build<S, E>(_ definition: StateMachine<S, E>) -> AsyncStateMachine<S, E> {
            let machine = AsyncStateMachine(stateMachine: definition).activateDump(trackDeinit: true)
            return log ? machine : machine.disableLog()
        }
        let checkinMediator = self.checkinMediator
        let musicMediator = self.musicMediator
        home = AsyncStateMachineFactory(lifecycle: .singleton) { build(makeHomeStateMachine()) }
        checkin = AsyncStateMachineFactory(lifecycle: .singleton) {
            build(makeCheckinStateMachine()).connectAsReceiver(to: checkinMediator)
        }
        music = AsyncStateMachineFactory(lifecycle: .singleton) {
            build(makeMusicStateMachine()).connectAsReceiver(to: musicMediator)
        }
        let writer = PlacesFileWriter(file: placesFile ?? PlacesFileWriter.defaultFile)
        let load = PlacesDomain.makeLoad(
            getData: {
                try await backend.fetchPlaces().map { PlaceSummary(id: $0.id, name: $0.name, stars: $0.stars) }
            },
            saveData: { try writer.write($0) }
        )
        places = AsyncStateMachineFactory(lifecycle: .singleton) {
            build(makePlacesStateMachine(load: load)).pushingPlaces(to: checkinMediator)
        }
        place = AsyncStateMachineFactory(lifecycle: .instance) {
            build(
                makePlaceStateMachine { id in
                    let place = try await backend.fetchPlace(id: id)
                    return PlaceDetails(
                        id: place.id,
                        name: place.name,
                        address: place.address,
                        telephone: place.telephone,
                        description: place.description,
                        owner: .init(id: place.owner.id, name: "\(place.owner.firstName) \(place.owner.lastName)")
                    )
                }
            ).pushingOwners(to: checkinMediator)
        }
        owner = AsyncStateMachineFactory(lifecycle: .instance) {
            build(
                makeOwnerStateMachine { id in
                    let owner = try await backend.fetchOwner(id: id)
                    return OwnerDetails(
                        id: owner.id,
                        name: "\(owner.firstName) \(owner.lastName)",
                        age: owner.age,
                        address: owner.address
                    )
                }
            )
        }
        albums = AsyncStateMachineFactory(lifecycle: .singleton) {
            build(
                makeAlbumsStateMachine {
                    try await backend.fetchAlbums().map {
                        AlbumSummary(id: $0.id, title: $0.title, author: $0.author, numberOfSongs: $0.songs.count)
                    }
                }
            ).pushingAlbums(to: musicMediator)
        }
        album = AsyncStateMachineFactory(lifecycle: .instance) {
            build(
                makeAlbumStateMachine { id in
                    let album = try await backend.fetchAlbum(id: id)
                    return AlbumDetails(
                        id: album.id,
                        title: album.title,
                        author: album.author,
                        dateOfRelease: album.dateOfRelease,
                        producer: album.producer,
                        songs: album.songs.map { .init(id: $0.id, title: $0.title) }
                    )
                }
            ).openingSongs(in: musicMediator)
        }
        song = AsyncStateMachineFactory(lifecycle: .instance) {
            build(
                makeSongStateMachine { id in
                    let song = try await backend.fetchSong(id: id)
                    return SongDetails(id: song.id, title: song.title, author: song.author, duration: song.duration)
                }
            )
        }
    }
}

/// The original's file-system writer: saves the places the list shows, as JSON.
struct PlacesFileWriter: Sendable {
    /// Where the places go.
    let file: URL

    /// `navigation-places.json` in the temporary directory.
    static var defaultFile: URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("swiftstatemachine-navigation-places.json")
    }

    /// Writes `places` atomically.
    func write(_ places: [PlaceSummary]) throws {
        let objects = places.map { ["id": $0.id, "name": $0.name, "stars": $0.stars] as [String: Any] }
        let data = try JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: file, options: .atomic)
    }
}
