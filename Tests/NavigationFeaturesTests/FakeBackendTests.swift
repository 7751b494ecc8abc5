import NavigationFeatures
import TestSupport
import Testing

@Suite("Navigation: the fake backend", .timeLimit(.minutes(1)))
struct FakeBackendTests {
    let backend = FakeBackend(latency: .zero, seed: 7)

    @Test("ten places with 1 to 5 stars, owners among the ten, the same choices for the same seed")
    func places() async throws {
        let places = try await backend.fetchPlaces()
        #expect(places.map(\.name) == FakeBackend.placeNames)
        #expect(places.allSatisfy { (1...5).contains($0.stars) })
        let again = try await FakeBackend(latency: .zero, seed: 7).fetchPlaces()
        #expect(again.map(\.ownerId) == places.map(\.ownerId))
        #expect(again.map(\.stars) == places.map(\.stars))
        let place = try await backend.fetchPlace(id: "3")
        #expect(place.name == "Le Lab")
        let owner = try await backend.fetchOwner(id: place.ownerId)
        #expect((18...99).contains(owner.age))
        #expect(try await backend.fetchOwner(id: "5").lastName == "Takei")
    }

    @Test("three albums with their songs; songs are found across albums")
    func albums() async throws {
        let albums = try await backend.fetchAlbums()
        #expect(albums.map(\.title) == ["Scenes from a memory", "Nevermind", "Tron: Legacy"])
        #expect(albums.map { $0.songs.count } == [12, 6, 10])
        #expect(try await backend.fetchAlbum(id: "1").songs.first?.id == "12")
        #expect(try await backend.fetchSong(id: "5").title == "Beyond This Life")
        #expect(try await backend.fetchSong(id: "27").author == "Daft punk")
    }

    @Test(
        "unknown ids throw 'not found' instead of crashing",
        arguments: [("place", "42"), ("place", "03"), ("owner", "10"), ("album", "3"), ("song", "28")]
    )
    func notFound(kind: String, id: String) async {
        await #expect(throws: FakeBackend.BackendError.notFound(kind, id: id)) {
            switch kind {
            case "place": _ = try await backend.fetchPlace(id: id)
            case "owner": _ = try await backend.fetchOwner(id: id)
            case "album": _ = try await backend.fetchAlbum(id: id)
            default: _ = try await backend.fetchSong(id: id)
            }
        }
        #expect(FakeBackend.BackendError.notFound("album", id: "3").description == "Album 3 not found")
    }
}
