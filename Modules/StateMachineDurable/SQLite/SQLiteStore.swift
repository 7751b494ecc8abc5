import CSQLite
import FoundationEssentials
import StateMachineSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A store in one SQLite file, the embedded default: durable machines for one program, or
/// for a few processes on one machine sharing the file.
///
/// The file is in WAL mode; every commit is one transaction, made durable as
/// `synchronous` says (``Synchronous/full`` by default: a returned `send` survives a power
/// loss). One transaction runs at a time, on the thread that asked for it.
///
/// ```swift
/// let store = try SQLiteStore(path: "machines.sqlite")
/// let door = try await store.open("door-1", DurableStatechart(definition, version: "1"))
/// try await door.send(.init("open"))
/// await door.close()
/// ```
public final class SQLiteStore: DurableStore, @unchecked Sendable {
    // @unchecked Sendable: `connection` is only used inside `access.withLock` (a pthread
    // mutex), so no two threads ever use it at once; every other stored property is
    // immutable and Sendable.

    /// How the file is opened.
    public enum Mode: Sendable, Equatable {
        /// Read and written; created when missing.
        case readWrite
        /// SQLite's read-only mode: machines can be inspected (``inspect(_:)``,
        /// ``journal(of:)``, ``outbox(of:)``), never opened or changed, whoever the process
        /// runs as.
        case readOnly
    }

    /// How hard each commit waits for the disk (SQLite's `synchronous` setting in WAL mode).
    public enum Synchronous: String, Sendable, Equatable {
        /// Each commit is on disk before `send` returns: nothing acknowledged is lost,
        /// even by a power loss. The default.
        case full = "FULL"
        /// Commits are on disk at the next checkpoint: a crash of the program loses
        /// nothing, a power loss may lose the last commits.
        case normal = "NORMAL"
    }

    /// The file.
    public let path: String
    /// The clock the store's timers run on.
    public let clock: DurableClock
    /// The machines this program has open on the store.
    public let openMachines = DurableMachineRegistry()

    private let connection: SQLiteConnection
    /// Held while the connection is used: one transaction at a time.
    private let access = Lock(())
    private let owner = ProcessIdentity.current

    /// Opens the store in `path`, creating it (and its tables) when missing.
    /// - Parameters:
    ///   - path: the SQLite file (with its `-wal` and `-shm` files beside it).
    ///   - mode: read-write (the default) or SQLite's read-only mode.
    ///   - synchronous: how durable each commit is; ``Synchronous/full`` by default.
    ///   - clock: the clock timers run on: the wall clock, or one kept in the file.
    ///   - maxPageCount: the most pages the file may grow to (SQLite's `max_page_count`; a
    ///     page is 4 KiB); nil for SQLite's limit. A commit that would grow it further fails
    ///     with ``DurableError/full(path:message:)``.
    ///   - busyTimeout: how long a commit waits for another process's transaction.
    /// - Throws: ``DurableError/corrupt(path:message:)`` for a file that is not a valid
    ///   store, or another ``DurableError`` naming the file.
    public init(
        path: String,
        mode: Mode = .readWrite,
        synchronous: Synchronous = .full,
        clock: DurableClock = .system,
        maxPageCount: Int? = nil,
        busyTimeout: Duration = .seconds(5)
    ) throws {
        self.path = path
        self.clock = clock
        connection = try SQLiteConnection(path: path, readOnly: mode == .readOnly)
        let milliseconds =
            busyTimeout.components.seconds * 1000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000
        try connection.execute("PRAGMA busy_timeout = \(max(0, milliseconds))")
        // Reading the schema reads the file's first page: a file that is not a database
        // fails here, with SQLITE_NOTADB.
        try connection.run("SELECT count(*) FROM sqlite_schema")
        if mode == .readWrite {
            try connection.execute("PRAGMA journal_mode = WAL")
            try connection.execute("PRAGMA synchronous = \(synchronous.rawValue)")
            if let maxPageCount { try connection.execute("PRAGMA max_page_count = \(max(1, maxPageCount))") }
            try connection.transaction { () throws(DurableError) in try connection.execute(Self.schema) }
        }
    }

    /// The tables, created when missing (see the "Durable machines" article).
    static let schema = """
        CREATE TABLE IF NOT EXISTS machines(
            key TEXT PRIMARY KEY, version TEXT NOT NULL, fingerprint TEXT NOT NULL,
            state BLOB NOT NULL, last_sequence INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS journal(
            machine TEXT NOT NULL, sequence INTEGER NOT NULL, kind INTEGER NOT NULL,
            payload BLOB NOT NULL, idempotency_key TEXT, time INTEGER NOT NULL,
            PRIMARY KEY(machine, sequence)) WITHOUT ROWID;
        CREATE UNIQUE INDEX IF NOT EXISTS journal_idempotency
            ON journal(machine, idempotency_key) WHERE idempotency_key IS NOT NULL;
        CREATE TABLE IF NOT EXISTS inbox(
            id INTEGER PRIMARY KEY AUTOINCREMENT, machine TEXT NOT NULL, kind INTEGER NOT NULL,
            payload BLOB NOT NULL, idempotency_key TEXT, time INTEGER NOT NULL);
        CREATE INDEX IF NOT EXISTS inbox_machine ON inbox(machine, id);
        CREATE UNIQUE INDEX IF NOT EXISTS inbox_idempotency
            ON inbox(machine, idempotency_key) WHERE idempotency_key IS NOT NULL;
        CREATE TABLE IF NOT EXISTS outbox(
            machine TEXT NOT NULL, key TEXT NOT NULL, position INTEGER NOT NULL,
            name TEXT NOT NULL, payload BLOB NOT NULL, delivered INTEGER NOT NULL,
            PRIMARY KEY(machine, key)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS timers(
            machine TEXT NOT NULL, id TEXT NOT NULL, due INTEGER NOT NULL,
            delay INTEGER NOT NULL, event BLOB, PRIMARY KEY(machine, id)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS owners(machine TEXT PRIMARY KEY, owner TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS clock(id INTEGER PRIMARY KEY CHECK (id = 0), now INTEGER NOT NULL);
        INSERT OR IGNORE INTO clock(id, now) VALUES (0, 0);
        """

    /// Runs `body` with the connection, on the calling thread, once no other thread uses it.
    ///
    /// A transaction is short (an fsync at FULL: tens of microseconds on a local disk), and
    /// running it where the commit was asked for saves two thread switches per commit,
    /// a third of a durable event's cost. The calling thread waits for the disk, as for any
    /// SQLite call; a machine that receives events meanwhile commits them together next.
    private func withConnection<T: Sendable>(
        _ body: (SQLiteConnection) throws(DurableError) -> T
    ) throws(DurableError) -> T {
        let result: Result<T, DurableError> = access.withLock { _ in
            do throws(DurableError) {
                return .success(try body(connection))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    public func claim(_ key: String, identity: DefinitionIdentity) async throws -> StoredMachine? {
        let owner = owner.token
        return try withConnection { connection throws(DurableError) in
            try connection.transaction { () throws(DurableError) in
                var holder: String?
                try connection.run("SELECT owner FROM owners WHERE machine = ?", [.text(key)]) { row in
                    holder = row.text(0)
                }
                if let holder, ProcessIdentity.isAlive(holder) {
                    throw DurableError.machineInUse(key: key, owner: holder)
                }
                try connection.run(
                    "INSERT INTO owners(machine, owner) VALUES (?, ?) ON CONFLICT(machine) DO UPDATE SET owner = excluded.owner",
                    [.text(key), .text(owner)]
                )
                return try Self.read(key, connection)
            }
        }
    }

    public func release(_ key: String) async {
        let owner = owner.token
        _ = try? withConnection { connection throws(DurableError) in
            try connection.run("DELETE FROM owners WHERE machine = ? AND owner = ?", [.text(key), .text(owner)])
        }
    }

    public func commit(_ commit: DurableCommit) async throws {
        try withConnection { connection throws(DurableError) in
            try connection.transaction { () throws(DurableError) in
                try Self.write(commit, connection)
            }
        }
    }

    /// Writes `commit` inside the caller's transaction.
    private static func write(_ commit: DurableCommit, _ connection: SQLiteConnection) throws(DurableError) {
        let key = commit.key
        for entry in commit.entries {
            try connection.run(
                "INSERT INTO journal(machine, sequence, kind, payload, idempotency_key, time) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    .text(key), .integer(entry.sequence), .integer(entry.kind.rawValue), .blob(entry.payload),
                    .text(entry.idempotencyKey), .integer(entry.time),
                ]
            )
        }
        for id in commit.consumedInbox {
            try connection.run("DELETE FROM inbox WHERE id = ? AND machine = ?", [.integer(id), .text(key)])
        }
        try markDelivered(key, commit.delivered, connection)
        let last = commit.entries.last?.sequence ?? 0
        try connection.run(
            """
            UPDATE machines SET version = ?2, fingerprint = ?3, state = ?4, last_sequence = max(last_sequence, ?5)
            WHERE key = ?1
            """,
            [
                .text(key), .text(commit.identity.version), .text(commit.identity.fingerprint),
                .blob(commit.state), .integer(last),
            ]
        )
        if connection.changes == 0 {
            try connection.run(
                "INSERT INTO machines(key, version, fingerprint, state, last_sequence) VALUES (?, ?, ?, ?, ?)",
                [
                    .text(key), .text(commit.identity.version), .text(commit.identity.fingerprint),
                    .blob(commit.state), .integer(last),
                ]
            )
        }
        if let timers = commit.timers {
            try connection.run("DELETE FROM timers WHERE machine = ?", [.text(key)])
            for timer in timers {
                try connection.run(
                    "INSERT INTO timers(machine, id, due, delay, event) VALUES (?, ?, ?, ?, ?)",
                    [
                        .text(key), .text(timer.id), .integer(timer.due), .integer(timer.delay.nanoseconds),
                        timer.event.map(SQLiteValue.blob) ?? .null,
                    ]
                )
            }
        }
        for effect in commit.effects {
            try connection.run(
                "INSERT INTO outbox(machine, key, position, name, payload, delivered) VALUES (?, ?, ?, ?, ?, 0)",
                [.text(key), .text(effect.key), .integer(effect.position), .text(effect.name), .blob(effect.payload)]
            )
        }
    }

    public func knows(_ key: String, idempotencyKey: String) async throws -> Bool {
        try withConnection { connection throws(DurableError) in
            try Self.knows(key, idempotencyKey, connection)
        }
    }

    private static func knows(
        _ key: String,
        _ idempotencyKey: String,
        _ connection: SQLiteConnection
    ) throws(DurableError) -> Bool {
        var found = false
        try connection.run(
            """
            SELECT 1 FROM journal WHERE machine = ?1 AND idempotency_key = ?2
            UNION ALL SELECT 1 FROM inbox WHERE machine = ?1 AND idempotency_key = ?2 LIMIT 1
            """,
            [.text(key), .text(idempotencyKey)]
        ) { _ in found = true }
        return found
    }

    public func post(_ key: String, _ entry: InboxEntry) async throws -> Int64? {
        try withConnection { connection throws(DurableError) in
            try connection.transaction { () throws(DurableError) -> Int64? in
                if let idempotencyKey = entry.idempotencyKey, try Self.knows(key, idempotencyKey, connection) {
                    return nil
                }
                var id: Int64 = 0
                try connection.run(
                    "INSERT INTO inbox(machine, kind, payload, idempotency_key, time) VALUES (?, ?, ?, ?, ?) RETURNING id",
                    [
                        .text(key), .integer(entry.kind.rawValue), .blob(entry.payload), .text(entry.idempotencyKey),
                        .integer(entry.time),
                    ]
                ) { row in id = row.integer(0) }
                return id
            }
        }
    }

    public func inbox(of key: String) async throws -> [InboxEntry] {
        try withConnection { connection throws(DurableError) in try Self.readInbox(key, connection) }
    }

    public func inboxHolds(_ key: String, entry id: Int64?, idempotencyKey: String?) async throws -> Bool {
        try withConnection { connection throws(DurableError) in
            var found = false
            try connection.run(
                "SELECT 1 FROM inbox WHERE machine = ?1 AND (id = ?2 OR idempotency_key = ?3) LIMIT 1",
                [.text(key), id.map(SQLiteValue.integer) ?? .null, .text(idempotencyKey)]
            ) { _ in found = true }
            return found
        }
    }

    public func machinesWithWork(dueBy time: DurableInstant, limit: Int) async throws -> [String] {
        let owner = owner.token
        let candidates = try withConnection { connection throws(DurableError) -> [(String, String?)] in
            var rows: [(String, String?)] = []
            try connection.run(
                """
                SELECT work.machine, owners.owner FROM (
                    SELECT DISTINCT machine FROM inbox
                    UNION SELECT machine FROM timers WHERE due <= ?1
                    UNION SELECT machine FROM outbox WHERE delivered = 0) AS work
                LEFT JOIN owners ON owners.machine = work.machine
                ORDER BY work.machine LIMIT ?2
                """,
                [.integer(time), .integer(Int64(max(0, limit)))]
            ) { row in rows.append((row.text(0) ?? "", row.text(1))) }
            return rows
        }
        return candidates.filter { _, holder in
            guard let holder, holder != owner else { return true }
            return !ProcessIdentity.isAlive(holder)
        }.map(\.0)
    }

    public func markDelivered(_ key: String, effects: [String]) async throws {
        try withConnection { connection throws(DurableError) in
            try connection.transaction { () throws(DurableError) in try Self.markDelivered(key, effects, connection) }
        }
    }

    private static func markDelivered(
        _ key: String,
        _ effects: [String],
        _ connection: SQLiteConnection
    ) throws(DurableError) {
        for effect in effects {
            try connection.run(
                "UPDATE outbox SET delivered = 1 WHERE machine = ? AND key = ?",
                [.text(key), .text(effect)]
            )
        }
    }

    public func inspect(_ key: String) async throws -> StoredMachine? {
        try withConnection { connection throws(DurableError) in try Self.read(key, connection) }
    }

    /// Everything stored of machine `key`.
    private static func read(_ key: String, _ connection: SQLiteConnection) throws(DurableError) -> StoredMachine? {
        var machine: StoredMachine?
        try connection.run(
            "SELECT version, fingerprint, state, last_sequence FROM machines WHERE key = ?",
            [.text(key)]
        ) { row in
            machine = StoredMachine(
                identity: DefinitionIdentity(version: row.text(0) ?? "", fingerprint: row.text(1) ?? ""),
                state: row.blob(2) ?? Data(),
                lastSequence: row.integer(3),
                timers: [],
                unapplied: [],
                undelivered: []
            )
        }
        guard var machine else { return nil }
        try connection.run("SELECT id, due, delay, event FROM timers WHERE machine = ? ORDER BY due, id", [.text(key)])
        {
            row in
            machine.timers.append(
                DurableTimer(
                    id: row.text(0) ?? "",
                    due: row.integer(1),
                    delay: .nanoseconds(row.integer(2)),
                    event: row.blob(3)
                )
            )
        }
        machine.unapplied = try readInbox(key, connection)
        machine.undelivered = try readOutbox(key, onlyUndelivered: true, connection)
        return machine
    }

    private static func readJournal(
        _ key: String,
        _ connection: SQLiteConnection
    ) throws(DurableError) -> [JournalEntry] {
        var entries: [JournalEntry] = []
        try connection.run(
            "SELECT sequence, kind, payload, idempotency_key, time FROM journal WHERE machine = ? ORDER BY sequence",
            [.text(key)]
        ) { row throws(DurableError) in
            entries.append(
                JournalEntry(
                    sequence: row.integer(0),
                    kind: try kind(row.integer(1), of: key),
                    payload: row.blob(2) ?? Data(),
                    idempotencyKey: row.text(3),
                    time: row.integer(4)
                )
            )
        }
        return entries
    }

    private static func readInbox(_ key: String, _ connection: SQLiteConnection) throws(DurableError) -> [InboxEntry] {
        var entries: [InboxEntry] = []
        try connection.run(
            "SELECT id, kind, payload, idempotency_key, time FROM inbox WHERE machine = ? ORDER BY id",
            [.text(key)]
        ) { row throws(DurableError) in
            entries.append(
                InboxEntry(
                    id: row.integer(0),
                    kind: try kind(row.integer(1), of: key),
                    payload: row.blob(2) ?? Data(),
                    idempotencyKey: row.text(3),
                    time: row.integer(4)
                )
            )
        }
        return entries
    }

    private static func kind(_ value: Int64, of key: String) throws(DurableError) -> DurableEventKind {
        guard let kind = DurableEventKind(rawValue: value) else {
            throw DurableError.encoding("an event of machine '\(key)' has unknown kind \(value)")
        }
        return kind
    }

    private static func readOutbox(
        _ key: String,
        onlyUndelivered: Bool,
        _ connection: SQLiteConnection
    ) throws(DurableError) -> [OutboxEntry] {
        var entries: [OutboxEntry] = []
        let sql: StaticString =
            onlyUndelivered
            ? "SELECT key, position, name, payload, delivered FROM outbox WHERE machine = ? AND delivered = 0 ORDER BY position"
            : "SELECT key, position, name, payload, delivered FROM outbox WHERE machine = ? ORDER BY position"
        try connection.run(
            sql,
            [.text(key)]
        ) { row in
            entries.append(
                OutboxEntry(
                    key: row.text(0) ?? "",
                    position: row.integer(1),
                    name: row.text(2) ?? "",
                    payload: row.blob(3) ?? Data(),
                    delivered: row.integer(4) != 0
                )
            )
        }
        return entries
    }

    public func journal(of key: String) async throws -> [JournalEntry] {
        try withConnection { connection throws(DurableError) in
            try Self.readJournal(key, connection)
        }
    }

    public func outbox(of key: String) async throws -> [OutboxEntry] {
        try withConnection { connection throws(DurableError) in
            try Self.readOutbox(key, onlyUndelivered: false, connection)
        }
    }

    public func now() async throws -> DurableInstant {
        switch clock {
        case .system: return DurableClock.wallTime()
        case .manual:
            return try withConnection { connection throws(DurableError) in
                var now: Int64 = 0
                try connection.run("SELECT now FROM clock WHERE id = 0") { row in now = row.integer(0) }
                return now
            }
        }
    }

    public func setManualTime(_ time: DurableInstant) async throws {
        guard clock == .manual else { throw DurableError.notManualClock }
        try withConnection { connection throws(DurableError) in
            try connection.transaction { () throws(DurableError) in
                try connection.run("UPDATE clock SET now = max(now, ?) WHERE id = 0", [.integer(time)])
            }
        }
    }
}

extension DurableClock {
    /// Nanoseconds since 1970 on the system's real-time clock.
    package static func wallTime() -> DurableInstant {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
