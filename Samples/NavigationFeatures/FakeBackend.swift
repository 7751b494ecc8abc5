import Foundation

// The fuzz package compiles this file into `FuzzDeepLink`, together with SplitMix64.swift (both
// linked): there StateMachineSupport is another package's, whose `package` generator it cannot
// see, and the target's own copy is the one used.
#if canImport(StateMachineSupport)
import StateMachineSupport
#endif

/// The fake backend of the Navigation sample: places and their owners, albums and their
/// songs. Every call waits `latency` (the original's one second), or for a delay of the
/// caller's (a test holds a load open with it), then answers from fixed data; an id it
/// does not have throws ``BackendError/notFound(_:id:)`` (the original crashed on a force
/// unwrap).
///
/// The random parts of the original (each place's owner and each owner's age, chosen once
/// per backend; a place's stars, drawn on every `fetchPlaces`) come from a generator
/// seeded with `seed`, so that a run can be repeated.
public struct FakeBackend: Sendable {
    /// A place as the backend returns it.
    public struct PlaceRecord: Sendable, Equatable {
        /// The id ("0" to "9").
        public let id: String
        /// The name.
        public let name: String
        /// The address.
        public let address: String
        /// The phone number.
        public let telephone: String
        /// A description.
        public let description: String
        /// The owner.
        public let owner: OwnerRecord
        /// The owner's id.
        public var ownerId: String { owner.id }
        /// 1 to 5 stars (drawn on each `fetchPlaces`).
        public let stars: Int
    }

    /// A person who owns a place.
    public struct OwnerRecord: Sendable, Equatable {
        /// The id ("0" to "9").
        public let id: String
        /// The first name.
        public let firstName: String
        /// The last name.
        public let lastName: String
        /// 18 to 99.
        public let age: Int
        /// The address.
        public let address: String
    }

    /// An album.
    public struct AlbumRecord: Sendable, Equatable {
        /// The id ("0" to "2").
        public let id: String
        /// The title.
        public let title: String
        /// The artist.
        public let author: String
        /// The release date (`1999-10-26`).
        public let dateOfRelease: String
        /// The producer.
        public let producer: String
        /// The songs, in order.
        public let songs: [SongRecord]
    }

    /// A song.
    public struct SongRecord: Sendable, Equatable {
        /// The id ("0" to "27"), unique across albums.
        public let id: String
        /// The title.
        public let title: String
        /// The artist.
        public let author: String
        /// The duration (`4:21`).
        public let duration: String
    }

    /// What a backend call can fail with.
    public enum BackendError: Error, Equatable, CustomStringConvertible {
        /// The backend has no `kind` (place, owner, album, song) with this id.
        case notFound(_ kind: String, id: String)
        /// `Place 42 not found`.
        public var description: String {
            switch self {
            case .notFound(let kind, let id): "\(kind.prefix(1).uppercased() + kind.dropFirst()) \(id) not found"
            }
        }
    }

    private let delay: @Sendable () async throws -> Void
    private let random: SeededRandom
    private let owners: [OwnerRecord]
    private let ownerOfPlace: [Int]

    /// A backend answering after `latency`, its random choices drawn from `seed`.
    public init(latency: Duration = .seconds(1), seed: UInt64 = UInt64.random(in: 0...UInt64.max)) {
        self.init(seed: seed) { try await Task.sleep(for: latency) }
    }

    /// A backend whose every call first awaits `delay` (an error it throws is the call's),
    /// its random choices drawn from `seed`.
    public init(seed: UInt64, delay: @escaping @Sendable () async throws -> Void) {
        self.delay = delay
        let random = SeededRandom(seed: seed)
        self.random = random
        self.owners = Self.ownerNames.enumerated().map { index, name in
            OwnerRecord(
                id: "\(index)",
                firstName: name.0,
                lastName: name.1,
                age: random.next(in: 18...99),
                address: "Petite Italie"
            )
        }
        self.ownerOfPlace = Self.placeNames.map { _ in random.next(in: 0...9) }
    }

    /// The ten places, each with 1 to 5 stars drawn now.
    public func fetchPlaces() async throws -> [PlaceRecord] {
        try await delay()
        return Self.placeNames.indices.map { place(index: $0) }
    }

    /// The place `id`.
    public func fetchPlace(id: String) async throws -> PlaceRecord {
        try await delay()
        guard let index = Int(id), Self.placeNames.indices.contains(index), "\(index)" == id else {
            throw BackendError.notFound("place", id: id)
        }
        return place(index: index)
    }

    /// The owner `id`.
    public func fetchOwner(id: String) async throws -> OwnerRecord {
        try await delay()
        guard let owner = owners.first(where: { $0.id == id }) else { throw BackendError.notFound("owner", id: id) }
        return owner
    }

    /// The three albums.
    public func fetchAlbums() async throws -> [AlbumRecord] {
        try await delay()
        return Self.albums
    }

    /// The album `id`.
    public func fetchAlbum(id: String) async throws -> AlbumRecord {
        try await delay()
        guard let album = Self.albums.first(where: { $0.id == id }) else {
            throw BackendError.notFound("album", id: id)
        }
        return album
    }

    /// The song `id`, whatever its album.
    public func fetchSong(id: String) async throws -> SongRecord {
        try await delay()
        guard let song = Self.albums.flatMap(\.songs).first(where: { $0.id == id }) else {
            throw BackendError.notFound("song", id: id)
        }
        return song
    }

    private func place(index: Int) -> PlaceRecord {
        PlaceRecord(
            id: "\(index)",
            name: Self.placeNames[index],
            address: "\(100 + 7 * index) rue Saint-Zotique",
            telephone: "(514) 345 123 5432",
            description: "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.",
            owner: owners[ownerOfPlace[index]],
            stars: random.next(in: 1...5)
        )
    }

    /// The places' names, by id.
    public static let placeNames = [
        "Hard Rock Café", "Birra", "Harricana", "Le Lab", "Saint Houblon", "Les 3 Brasseurs", "Vice Versa",
        "Brewsky", "Wills", "Kabinet",
    ]

    /// The owners' names, by id.
    static let ownerNames = [
        ("William", "Shatner"), ("Leonard", "Nimoy"), ("DeForest", "Kelley"), ("James", "Doohan"),
        ("Nichelle", "Nichols"), ("George", "Takei"), ("Walter", "Koenig"), ("Patrick", "Stewart"),
        ("Jonathan", "Frakes"), ("Brent", "Spiner"),
    ]

    /// The albums and their songs (ids 0–11, 12–17, 18–27).
    public static let albums: [AlbumRecord] = {
        let tracks: [(String, String, String, String, String, [(String, String)])] = [
            (
                "0", "Scenes from a memory", "Dream Theater", "1999-10-26", "Mike Portnoy, John Petrucci",
                [
                    ("Regression", "2:06"), ("Overture 1928", "3:37"), ("Strange Déjà Vu", "5:12"),
                    ("Through My Words", "1:02"), ("Fatal Tragedy", "6:49"), ("Beyond This Life", "11:22"),
                    ("Through Her Eyes", "5:29"), ("Home", "12:53"), ("The Dance of Eternity", "6:13"),
                    ("One Last Time", "3:46"), ("The Spirit Carries On", "6:38"), ("Finally Free", "11:59"),
                ]
            ),
            (
                "1", "Nevermind", "Nirvana", "1991-09-24", "Butch Vig",
                [
                    ("Smells Like Teen Spirit", "5:01"), ("In Bloom", "4:14"), ("Come as You Are", "3:39"),
                    ("Breed", "3:03"), ("Lithium", "4:17"), ("Polly", "2:57"),
                ]
            ),
            (
                "2", "Tron: Legacy", "Daft punk", "2010-12-03", "Daft Punk",
                [
                    ("Overture", "2:28"), ("The Grid", "1:37"), ("The Son of Flynn", "1:35"), ("Recognizer", "2:38"),
                    ("Armory", "2:03"), ("Arrival", "2:00"), ("Flynn Lives", "3:22"),
                    ("Tron Legacy (End Titles)", "3:18"),
                    ("Derezzed", "1:44"), ("Fall", "1:22"),
                ]
            ),
        ]
        var nextSongId = 0
        return tracks.map { id, title, author, date, producer, songs in
            let records = songs.map { song in
                defer { nextSongId += 1 }
                return SongRecord(id: "\(nextSongId)", title: song.0, author: author, duration: song.1)
            }
            return AlbumRecord(
                id: id,
                title: title,
                author: author,
                dateOfRelease: date,
                producer: producer,
                songs: records
            )
        }
    }()
}

/// A SplitMix64 generator shared by the copies of a backend.
final class SeededRandom: @unchecked Sendable {
    // @unchecked Sendable: `generator` is only read and written under `lock`.
    private let lock = NSLock()
    private var generator: SplitMix64

    init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    func next(in range: ClosedRange<Int>) -> Int {
        let value = lock.withLock { generator.next() }
        return range.lowerBound + Int(value % UInt64(range.count))
    }
}
