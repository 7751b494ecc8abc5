import StateMachineCore
import StateMachineTest
import TestSupport
import Testing

@testable import NavigationFeatures

@Suite("Navigation: the Place, Owner, Album and Song screens", .timeLimit(.minutes(1)))
struct DetailsTests {
    static let place = PlaceDetails(
        id: "3",
        name: "Le Lab",
        address: "121 rue",
        telephone: "(514) 345 123 5432",
        description: "Lorem",
        owner: .init(id: "5", name: "George Takei")
    )
    static let owner = OwnerDetails(id: "5", name: "George Takei", age: 42, address: "Petite Italie")
    static let album = AlbumDetails(
        id: "1",
        title: "Nevermind",
        author: "Nirvana",
        dateOfRelease: "1991-09-24",
        producer: "Butch Vig",
        songs: [.init(id: "12", title: "Smells Like Teen Spirit"), .init(id: "13", title: "In Bloom")]
    )
    static let song = SongDetails(id: "16", title: "Lithium", author: "Nirvana", duration: "4:17")

    @Test("Place: loads, selects the owner, comes back without reloading, reloads when loaded")
    func place() async {
        let loads = Counter()
        let machine = AsyncStateMachine(
            stateMachine: makePlaceStateMachine { id in
                await loads.increment()
                #expect(id == "3")
                return Self.place
            }
        ).disableLog()
        await expect(asyncStateMachine: machine) { assertions in
            await assertions.assert(state: PlaceIsIdle())
            assertions.send(DidRequestPlaceLoading(id: "3"))
            await assertions.assert(state: PlaceIsLoading())
            await assertions.assert(state: PlaceIsLoaded(place: Self.place))
            assertions.send(DidSelectOwner(id: "5"))
            await assertions.assert(state: OwnerIsSelected(place: Self.place, ownerId: "5"))
            assertions.send(DidRequestPlaceLoading(id: "3"))  // back from the owner
            await assertions.assert(state: PlaceIsLoaded(place: Self.place))
            assertions.send(DidRequestPlaceLoading(id: "3"))
            await assertions.assert(state: PlaceIsLoading())
            await assertions.assert(state: PlaceIsLoaded(place: Self.place))
        }
        #expect(await loads.value == 2)
    }

    @Test("Place: an unknown id ends in failure, with the reason, and stays there")
    func placeFailure() async {
        let machine = AsyncStateMachine(stateMachine: makePlaceStateMachine { _ in throw NotFound() }).disableLog()
        await expect(asyncStateMachine: machine) { assertions in
            await assertions.assert(state: PlaceIsIdle())
            assertions.send(DidRequestPlaceLoading(id: "42"))
            await assertions.assert(state: PlaceIsLoading())
            await assertions.assert(state: PlaceIsInFailure(message: "Thing 42 not found"))
            assertions.send(DidRequestPlaceLoading(id: "42"))
            assertions.send(DidSelectOwner(id: "1"))
            await assertions.assertNoTransition(timeout: .milliseconds(50))
        }
        #expect(PlaceIsInFailure(message: "x").superState == PlaceState(isLoading: false, failure: "x", place: nil))
    }

    @Test("Place: a load request while loading cancels the running load and loads the new id")
    func placeRequestWhileLoading() async {
        let gate = Gate()
        let machine = AsyncStateMachine(
            stateMachine: makePlaceStateMachine { id in
                await gate.wait()
                try Task.checkCancellation()
                return id == "3"
                    ? Self.place
                    : PlaceDetails(
                        id: id,
                        name: "other",
                        address: "",
                        telephone: "",
                        description: "",
                        owner: .init(id: "0", name: "")
                    )
            }
        ).disableLog()
        await expect(asyncStateMachine: machine) { assertions in
            await assertions.assert(state: PlaceIsIdle())
            assertions.send(DidRequestPlaceLoading(id: "1"))
            await assertions.assert(state: PlaceIsLoading())
            assertions.send(DidRequestPlaceLoading(id: "3"))
            await assertions.assert(state: PlaceIsLoading())
            await gate.open()
            await assertions.assert(state: PlaceIsLoaded(place: Self.place))
            await assertions.assertNoTransition(timeout: .milliseconds(50))
        }
    }

    @Test("Owner: loads and reloads; an unknown id fails instead of loading forever")
    func owner() async {
        let machine = AsyncStateMachine(
            stateMachine: makeOwnerStateMachine { id in
                guard id == "5" else { throw NotFound() }
                return Self.owner
            }
        ).disableLog()
        await expect(asyncStateMachine: machine) { assertions in
            await assertions.assert(state: OwnerIsIdle())
            assertions.send(DidRequestOwnerLoading(id: "5"))
            await assertions.assert(state: OwnerIsLoading())
            await assertions.assert(state: OwnerIsLoaded(owner: Self.owner))
            assertions.send(DidRequestOwnerLoading(id: "42"))
            await assertions.assert(state: OwnerIsLoading())
            await assertions.assert(state: OwnerIsInFailure(message: "Thing 42 not found"))
        }
    }

    @Test("Album: loads, selects a song, the same song again, reloads from a selection; unknown ids fail")
    func album() async {
        let machine = AsyncStateMachine(
            stateMachine: makeAlbumStateMachine { id in
                guard id == "1" else { throw NotFound() }
                return Self.album
            }
        ).disableLog()
        await expect(asyncStateMachine: machine) { assertions in
            await assertions.assert(state: AlbumIsIdle())
            assertions.send(DidSelectSong(songId: "12"))  // nothing to select yet
            assertions.send(DidRequestAlbumLoading(albumId: "1"))
            await assertions.assert(state: AlbumIsLoading())
            await assertions.assert(state: AlbumIsLoaded(album: Self.album))
            assertions.send(DidSelectSong(songId: "12"))
            await assertions.assert(state: SongIsSelected(album: Self.album, songId: "12"))
            assertions.send(DidSelectSong(songId: "12"))
            await assertions.assert(state: SongIsSelected(album: Self.album, songId: "12"))
            assertions.send(DidRequestAlbumLoading(albumId: "3"))
            await assertions.assert(state: AlbumIsLoading())
            await assertions.assert(state: AlbumIsInFailure(message: "Thing 42 not found"))
        }
    }

    @Test("Song: loads and reloads; an unknown id fails, and a later load can still succeed")
    func song() async {
        let machine = AsyncStateMachine(
            stateMachine: makeSongStateMachine { id in
                guard id == "16" else { throw NotFound() }
                return Self.song
            }
        ).disableLog()
        await expect(asyncStateMachine: machine) { assertions in
            await assertions.assert(state: SongIsIdle())
            assertions.send(DidRequestSongLoading(songId: "99"))
            await assertions.assert(state: SongIsLoading())
            await assertions.assert(state: SongIsInFailure(message: "Thing 42 not found"))
            assertions.send(DidRequestSongLoading(songId: "16"))
            await assertions.assert(state: SongIsLoading())
            await assertions.assert(state: SongIsLoaded(song: Self.song))
        }
    }
}
