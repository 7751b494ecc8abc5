import NavigationFeatures
import StateMachineCore
import StateMachineTest
import TestSupport
import Testing

@Suite("Navigation: the mediators push screens and open the sheet", .timeLimit(.minutes(1)))
struct WiringTests {
    @Test("selecting a place pushes the place screen; selecting its owner pushes the owner screen")
    func checkin() async {
        let mediator = Mediator<CheckinEvent>()
        let checkin = AsyncStateMachine(stateMachine: makeCheckinStateMachine()).disableLog().connectAsReceiver(
            to: mediator
        )
        let places = AsyncStateMachine(stateMachine: makePlacesStateMachine { ListsTests.places }).disableLog()
            .pushingPlaces(to: mediator)
        let place = AsyncStateMachine(stateMachine: makePlaceStateMachine { _ in DetailsTests.place }).disableLog()
            .pushingOwners(to: mediator)
        await expect(asyncStateMachine: checkin) { assertions in
            await assertions.assert(state: CheckinState(routes: []))
            await places.sendAndWait(event: DidRequestPlacesLoading(isFullLoading: true))
            places.send(event: DidSelectPlace(id: "3"))
            await assertions.assert(state: CheckinState(routes: [.place(id: "3")]))
            await place.sendAndWait(event: DidRequestPlaceLoading(id: "3"))
            place.send(event: DidSelectOwner(id: "5"))
            await assertions.assert(state: CheckinState(routes: [.place(id: "3"), .owner(id: "5")]))
            await place.sendAndWait(event: DidRequestPlaceLoading(id: "3"))  // back from the owner: no push
            await assertions.assertNoTransition(timeout: .milliseconds(50))
        }
        _ = (places, place)
    }

    @Test("selecting an album pushes it; selecting a song opens the sheet, and the same song again reopens it")
    func music() async {
        let mediator = Mediator<MusicEvent>()
        let music = AsyncStateMachine(stateMachine: makeMusicStateMachine()).disableLog().connectAsReceiver(
            to: mediator
        )
        let albums = AsyncStateMachine(stateMachine: makeAlbumsStateMachine { ListsTests.albums }).disableLog()
            .pushingAlbums(to: mediator)
        let album = AsyncStateMachine(stateMachine: makeAlbumStateMachine { _ in DetailsTests.album }).disableLog()
            .openingSongs(in: mediator)
        await expect(asyncStateMachine: music) { assertions in
            await assertions.assert(state: MusicState(routes: []))
            await albums.sendAndWait(event: DidRequestAlbumsLoading(isFullLoading: true))
            albums.send(event: DidSelectAlbum(albumId: "1"))
            await assertions.assert(state: MusicState(routes: [.album(id: "1")]))
            await album.sendAndWait(event: DidRequestAlbumLoading(albumId: "1"))
            album.send(event: DidSelectSong(songId: "13"))
            await assertions.assert(state: MusicState(routes: [.album(id: "1")], popup: .song(id: "13")))
            music.send(event: DidRequestResettingPopup())
            await assertions.assert(state: MusicState(routes: [.album(id: "1")]))
            album.send(event: DidSelectSong(songId: "13"))
            await assertions.assert(state: MusicState(routes: [.album(id: "1")], popup: .song(id: "13")))
        }
        _ = (albums, album)
    }
}
