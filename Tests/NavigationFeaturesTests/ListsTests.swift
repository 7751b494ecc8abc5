import StateMachineCore
import StateMachineTest
import TestSupport
import Testing

@testable import NavigationFeatures

@Suite("Navigation: the Places and Albums lists", .timeLimit(.minutes(1)))
struct ListsTests {
    static let places = [
        PlaceSummary(id: "3", name: "Le Lab", stars: 4), PlaceSummary(id: "7", name: "Brewsky", stars: 3),
    ]
    static let albums = [AlbumSummary(id: "1", title: "Nevermind", author: "Nirvana", numberOfSongs: 6)]

    @Test("the Places domain keeps places with more than two stars, saves them, and gives none on a fetch error")
    func placesDomain() async {
        let saved = SavedPlaces()
        let load = PlacesDomain.makeLoad(
            getData: { [PlaceSummary(id: "0", name: "A", stars: 2), PlaceSummary(id: "1", name: "B", stars: 3)] },
            saveData: { await saved.save($0) }
        )
        #expect(await load() == [PlaceSummary(id: "1", name: "B", stars: 3)])
        #expect(await saved.places == [PlaceSummary(id: "1", name: "B", stars: 3)])
        let failing = PlacesDomain.makeLoad(getData: { throw NotFound() }, saveData: { _ in })
        #expect(await failing() == [])
        let unsaved = PlacesDomain.makeLoad(getData: { Self.places }, saveData: { _ in throw NotFound() })
        #expect(await unsaved() == Self.places, "a failed save still shows the list")
    }

    actor SavedPlaces {
        var places: [PlaceSummary] = []
        func save(_ places: [PlaceSummary]) { self.places = places }
    }

    @Test(
        "Places: idle -> loading -> loaded; full reload shows the previous list; refresh keeps the state; select; reload after a selection"
    )
    func places() async {
        let machine = AsyncStateMachine(stateMachine: makePlacesStateMachine { Self.places }).disableLog()
        await expect(asyncStateMachine: machine) { assertions in
            await assertions.assert(state: PlacesAreIdle())
            assertions.send(DidSelectPlace(id: "3"))  // nothing to select yet
            assertions.send(DidRequestPlacesLoading(isFullLoading: true))
            await assertions.assert(state: PlacesAreLoading(previous: []))
            await assertions.assert(state: PlacesAreLoaded(places: Self.places))
            assertions.send(DidRequestPlacesLoading(isFullLoading: true))
            await assertions.assert(state: PlacesAreLoading(previous: Self.places))
            await assertions.assert(state: PlacesAreLoaded(places: Self.places))
            await assertions.sendAndWait(DidRequestPlacesLoading(isFullLoading: false))  // output only
            await assertions.assert(state: PlacesAreLoaded(places: Self.places))
            assertions.send(DidSelectPlace(id: "7"))
            await assertions.assert(state: PlaceIsSelected(places: Self.places, placeId: "7"))
            assertions.send(DidRequestPlacesLoading(isFullLoading: true))
            await assertions.assert(state: PlacesAreLoading(previous: Self.places))
            await assertions.assert(state: PlacesAreLoaded(places: Self.places))
        }
    }

    @Test("Places: no selection while loading")
    func placesWhileLoading() async {
        let gate = Gate()
        let loads = Counter()
        let machine = AsyncStateMachine(
            stateMachine: makePlacesStateMachine {
                await loads.increment()
                await gate.wait()
                return Task.isCancelled ? [] : Self.places
            }
        ).disableLog()
        await expect(asyncStateMachine: machine) { assertions in
            await assertions.assert(state: PlacesAreIdle())
            assertions.send(DidRequestPlacesLoading(isFullLoading: true))
            await assertions.assert(state: PlacesAreLoading(previous: []))
            assertions.send(DidSelectPlace(id: "3"))
            await assertions.assertNoTransition(timeout: .milliseconds(50))
            await gate.open()
            await assertions.assert(state: PlacesAreLoaded(places: Self.places))
        }
        #expect(await loads.value == 1)
    }

    @Test("a load request while loading cancels the running load and starts a new one (the original stayed loading)")
    func requestWhileLoading() async {
        let gate = Gate()
        let loads = Counter()
        let places = AsyncStateMachine(
            stateMachine: makePlacesStateMachine {
                await loads.increment()
                await gate.wait()
                return Self.places
            }
        ).disableLog()
        await expect(asyncStateMachine: places) { assertions in
            await assertions.assert(state: PlacesAreIdle())
            assertions.send(DidRequestPlacesLoading(isFullLoading: true))
            await assertions.assert(state: PlacesAreLoading(previous: []))
            assertions.send(DidRequestPlacesLoading(isFullLoading: true))
            await assertions.assert(state: PlacesAreLoading(previous: []))
            await gate.open()
            await assertions.assert(state: PlacesAreLoaded(places: Self.places))
            await assertions.assertNoTransition(timeout: .milliseconds(50))
        }
        #expect(await loads.value == 2)
        let albumsGate = Gate()
        let albums = AsyncStateMachine(
            stateMachine: makeAlbumsStateMachine {
                await albumsGate.wait()
                return Self.albums
            }
        ).disableLog()
        await expect(asyncStateMachine: albums) { assertions in
            await assertions.assert(state: AlbumsAreIdle())
            assertions.send(DidRequestAlbumsLoading(isFullLoading: true))
            await assertions.assert(state: AlbumsAreLoading(previous: []))
            assertions.send(DidRequestAlbumsLoading(isFullLoading: false))
            await assertions.assert(state: AlbumsAreLoading(previous: []))
            await albumsGate.open()
            await assertions.assert(state: AlbumsAreLoaded(albums: Self.albums))
            await assertions.assertNoTransition(timeout: .milliseconds(50))
        }
    }

    @Test("Albums: loads, fails, retries from failure, selects, reloads after a selection")
    func albums() async {
        let failing = FailingOnce()
        let machine = AsyncStateMachine(
            stateMachine: makeAlbumsStateMachine {
                try await failing.check()
                return Self.albums
            }
        ).disableLog()
        await expect(asyncStateMachine: machine) { assertions in
            await assertions.assert(state: AlbumsAreIdle())
            assertions.send(DidRequestAlbumsLoading(isFullLoading: true))
            await assertions.assert(state: AlbumsAreLoading(previous: []))
            await assertions.assert(state: AlbumsAreInFailure())
            assertions.send(DidSelectAlbum(albumId: "1"))  // nothing to select
            assertions.send(DidRequestAlbumsLoading(isFullLoading: false))
            await assertions.assert(state: AlbumsAreLoading(previous: []))
            await assertions.assert(state: AlbumsAreLoaded(albums: Self.albums))
            await assertions.sendAndWait(DidRequestAlbumsLoading(isFullLoading: false))
            await assertions.assert(state: AlbumsAreLoaded(albums: Self.albums))
            assertions.send(DidSelectAlbum(albumId: "1"))
            await assertions.assert(state: AlbumIsSelected(albums: Self.albums, albumId: "1"))
            assertions.send(DidRequestAlbumsLoading(isFullLoading: true))
            await assertions.assert(state: AlbumsAreLoading(previous: Self.albums))
            await assertions.assert(state: AlbumsAreLoaded(albums: Self.albums))
        }
    }

    actor FailingOnce {
        var failed = false
        func check() throws {
            if !failed {
                failed = true
                throw NotFound()
            }
        }
    }

    @Test("the lists' view states")
    func superStates() {
        #expect(
            PlacesAreLoading(previous: Self.places).superState
                == PlacesState(isLoading: true, places: Self.places, picked: nil)
        )
        #expect(PlaceIsSelected(places: Self.places, placeId: "3").superState.picked == "3")
        #expect(AlbumsAreInFailure().superState.isFailed)
        #expect(AlbumIsSelected(albums: Self.albums, albumId: "1").superState.picked == "1")
    }
}
