import CLibPQ
import FoundationEssentials
import StateMachineDurable
import StateMachineSupport

/// A store on a PostgreSQL server: durable machines shared by many processes, on many hosts.
///
/// Every requirement of `DurableStore` is one transaction on the store's one connection
/// (statements prepared once, parameters bound). A machine is claimed by a session-level
/// advisory lock, which the server releases as soon as the claiming process dies or loses
/// its connection, and by a claim epoch that every commit checks: a process that lost its
/// connection and reconnected cannot commit for a machine another process took over
/// meanwhile (its commit fails with `DurableError/claimLost(key:)`).
///
/// When the server cannot be reached (restarted, a partition), each call waits and retries
/// with backoff, up to `reconnectTimeout`, telling `onConnectionEvent`; a commit whose
/// outcome the lost connection hid is checked against the journal before it is repeated, so
/// that nothing is applied twice.
///
/// ```swift
/// let store = try await PostgreSQLStore(connection: "host=/tmp/pg dbname=app")
/// let door = try await store.open("door-1", DurableStatechart(definition, version: "1"))
/// try await door.send(.init("open"))
/// await door.close()
/// ```
public final class PostgreSQLStore: DurableStore, @unchecked Sendable {
    // @unchecked Sendable: `connection`, `connected` and `claims` are only used by the call
    // that holds the turn (`takeTurn()` to `passTurn()`, handed over under the `turns` lock, a
    // pthread mutex), so no two threads use them at once; every other stored property is
    // immutable and Sendable.

    /// What happened to the store's connection to its server.
    public enum ConnectionEvent: Sendable, Equatable {
        /// The connection was lost or could not be made: calls wait and retry.
        case lost(String)
        /// The connection is back; calls go on.
        case restored
    }

    /// The server, as the connection string names it (without its password).
    public let server: String
    /// The PostgreSQL schema that holds the store's tables.
    public let schema: String
    /// The clock the store's timers run on.
    public let clock: DurableClock
    /// The machines this program has open on the store.
    public let openMachines = DurableMachineRegistry()
    /// How long a call waits for an unreachable server before it fails with
    /// `DurableError/unreachable(server:message:)`.
    public let reconnectTimeout: Duration

    private let connection: PostgreSQLConnection
    /// The machines this store has claimed: their claim's lock number and epoch.
    var claims: [String: (id: Int64, epoch: Int64)] = [:]
    private var connected = false
    /// Who may use the connection (and `claims`): one call at a time, in the order they came.
    let turns = Lock(Turns())
    private let onConnectionEvent: (@Sendable (ConnectionEvent) -> Void)?
    private let owner = ProcessIdentity.current.token

    /// The first key of the store's two-key advisory locks (`pg_try_advisory_lock(class, id)`):
    /// a hash of the schema's name, so that stores in two schemas of one database do not
    /// clash, nor with the application's own one-key advisory locks.
    let lockClass: Int64

    /// The channel this store listens on for ``awaitPosts(timeout:)``: a claim records it
    /// (`claims.listener`), and the inbox's trigger (`inbox_posted`) notifies the channel of
    /// the machine's holder, only, with the machine's key.
    let channel: String

    /// Hears of posts, from the first ``awaitPosts(timeout:)`` on.
    private let listener = Lock<PostgreSQLListener?>(nil)

    /// The lock class of `schema`: its 31-bit FNV-1a hash.
    static func lockClass(of schema: String) -> Int64 {
        var hash: UInt32 = 2_166_136_261
        for byte in schema.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return Int64(hash & 0x7fff_ffff)
    }

    /// The lock that keeps two processes from creating the tables at once.
    static let schemaLock: Int64 = 0x5353_4d44

    /// Connects to the server `connection` names (a libpq connection string or URI) and
    /// creates the store's tables in `schema` when missing.
    /// - Parameters:
    ///   - connection: a libpq connection string, such as `host=/var/run/postgresql dbname=app`
    ///     or `postgresql://app@db.example/app`.
    ///   - schema: the PostgreSQL schema for the tables, created when missing.
    ///   - clock: the clock timers run on: the wall clock, or one kept in the database.
    ///   - reconnectTimeout: how long a call waits for an unreachable server.
    ///   - onConnectionEvent: told when the connection is lost and when it is back (on the
    ///     thread of the call that noticed).
    /// - Throws: `DurableError/unreachable(server:message:)` when the server cannot be
    ///   reached within `reconnectTimeout`, `DurableError/server(_:code:message:)` when
    ///   it refuses the schema.
    public init(
        connection: String,
        schema: String = "durable",
        clock: DurableClock = .system,
        reconnectTimeout: Duration = .seconds(30),
        onConnectionEvent: (@Sendable (ConnectionEvent) -> Void)? = nil
    ) async throws {
        let server = Self.describe(connection)
        self.server = server
        self.schema = schema
        self.clock = clock
        self.reconnectTimeout = reconnectTimeout
        self.onConnectionEvent = onConnectionEvent
        self.lockClass = Self.lockClass(of: schema)
        self.channel = "durable_\(lockClass)_\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
        self.connection = PostgreSQLConnection(conninfo: connection, server: server)
        try await withConnection(retrying: true) { connection, _ throws(PostgreSQLFailure) in
            // The first store makes the tables, under a lock. A store that finds them made (the
            // schema's comment names the layout, written last in the same transaction) leaves
            // them alone: altering a table that running processes use could deadlock with them.
            try connection.execute("BEGIN; SELECT pg_advisory_xact_lock(\(Self.schemaLock))")
            do throws(PostgreSQLFailure) {
                let made =
                    try connection.run(
                        "SELECT 1 FROM pg_namespace WHERE nspname = $1 AND obj_description(oid, 'pg_namespace') = $2",
                        [.text(schema), .text(Self.layout)]
                    ).count > 0
                if !made {
                    try connection.execute(
                        """
                        CREATE SCHEMA IF NOT EXISTS \(Self.quote(schema));
                        SET LOCAL search_path TO \(Self.quote(schema));
                        \(Self.tables(in: Self.quote(schema)))
                        CREATE OR REPLACE TRIGGER inbox_posted AFTER INSERT ON inbox
                            FOR EACH ROW EXECUTE FUNCTION durable_posted();
                        COMMENT ON SCHEMA \(Self.quote(schema)) IS '\(Self.layout)';
                        """
                    )
                }
                try connection.execute("COMMIT")
            } catch {
                if case .refused = error { _ = try? connection.execute("ROLLBACK") }
                throw error
            }
        }
    }

    /// The layout of the tables and functions below, recorded as the schema's comment: a store
    /// that finds another one (an earlier version's) brings the schema up to this one.
    static let layout = "durable machines, layout 2"

    /// The tables, and the functions a commit and the inbox run, created when missing (see
    /// the "Durable machines" article). The functions name their tables in `schema` (quoted),
    /// so that a row inserted by hand from another search path notifies its worker; they set
    /// no search path of their own, which would cost every call a configuration change.
    static func tables(in schema: String) -> String {
        """
        CREATE TABLE IF NOT EXISTS machines(
            key text PRIMARY KEY, version text NOT NULL, fingerprint text NOT NULL,
            state bytea NOT NULL, last_sequence bigint NOT NULL);
        CREATE TABLE IF NOT EXISTS journal(
            machine text NOT NULL, sequence bigint NOT NULL, kind bigint NOT NULL,
            payload bytea NOT NULL, idempotency_key text, time bigint NOT NULL,
            PRIMARY KEY(machine, sequence));
        CREATE UNIQUE INDEX IF NOT EXISTS journal_idempotency
            ON journal(machine, idempotency_key) WHERE idempotency_key IS NOT NULL;
        CREATE TABLE IF NOT EXISTS inbox(
            id bigserial PRIMARY KEY, machine text NOT NULL, kind bigint NOT NULL,
            payload bytea NOT NULL, idempotency_key text, time bigint NOT NULL);
        CREATE INDEX IF NOT EXISTS inbox_machine ON inbox(machine, id);
        CREATE UNIQUE INDEX IF NOT EXISTS inbox_idempotency
            ON inbox(machine, idempotency_key) WHERE idempotency_key IS NOT NULL;
        CREATE TABLE IF NOT EXISTS outbox(
            machine text NOT NULL, key text NOT NULL, position bigint NOT NULL,
            name text NOT NULL, payload bytea NOT NULL, delivered boolean NOT NULL,
            PRIMARY KEY(machine, key));
        CREATE INDEX IF NOT EXISTS outbox_undelivered ON outbox(machine) WHERE NOT delivered;
        CREATE TABLE IF NOT EXISTS timers(
            machine text NOT NULL, id text NOT NULL, due bigint NOT NULL,
            delay bigint NOT NULL, event bytea, PRIMARY KEY(machine, id));
        CREATE INDEX IF NOT EXISTS timers_due ON timers(due);
        CREATE TABLE IF NOT EXISTS claims(
            machine text PRIMARY KEY, id serial UNIQUE, epoch bigint NOT NULL DEFAULT 0, owner text);
        CREATE TABLE IF NOT EXISTS clock(id int PRIMARY KEY CHECK (id = 0), now bigint NOT NULL);
        INSERT INTO clock(id, now) VALUES (0, 0) ON CONFLICT DO NOTHING;
        CREATE OR REPLACE FUNCTION durable_fence(claimed text, held bigint) RETURNS void LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM 1 FROM \(schema).claims WHERE machine = claimed AND epoch = held FOR UPDATE;
            IF NOT FOUND THEN
                RAISE EXCEPTION 'the claim of machine % moved on', claimed USING ERRCODE = '\(claimLostCode)';
            END IF;
        END $$;
        ALTER TABLE claims ADD COLUMN IF NOT EXISTS listener text;
        CREATE OR REPLACE FUNCTION durable_posted() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            holder text;
        BEGIN
            SELECT listener INTO holder FROM \(schema).claims WHERE machine = NEW.machine;
            IF holder IS NOT NULL THEN
                PERFORM pg_notify(holder, NEW.machine);
            END IF;
            RETURN NULL;
        END $$;
        """
    }

    /// `name` as a PostgreSQL identifier.
    static func quote(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The connection string without its password, for messages.
    static func describe(_ connection: String) -> String {
        connection.split(separator: " ").filter { !$0.lowercased().hasPrefix("password=") }.joined(separator: " ")
    }

    // MARK: The connection

    /// Runs `body` with the connection, once no other thread uses it, connecting first when
    /// needed. A lost connection is retried, with backoff, up to `reconnectTimeout`, when
    /// `retrying` (`body` is told it is run again: what it wrote before may be committed).
    ///
    /// A call that finds the connection in use suspends until its turn, so that callers
    /// waiting for one another hold none of the few threads Swift concurrency runs tasks on.
    /// The calling thread waits while the server answers its own statements. (Handing every
    /// call to a thread of its own cost about 20 µs a call on the 2-core host of the
    /// benchmarks and slowed every figure of `Benchmarks durable`.)
    @discardableResult
    func withConnection<T>(
        retrying: Bool,
        _ body: (PostgreSQLConnection, _ isRetry: Bool) throws(PostgreSQLFailure) -> T
    ) async throws -> T {
        let clock = ContinuousClock()
        let deadline = clock.now + reconnectTimeout
        var delay = Duration.milliseconds(10)
        var isRetry = false
        var reported = false
        while true {
            await takeTurn()
            let result = attempt(isRetry: isRetry, body)
            passTurn()
            switch result {
            case .success(let value):
                if reported { onConnectionEvent?(.restored) }
                return value
            case .failure(.refused(let error)):
                if reported { onConnectionEvent?(.restored) }
                throw error
            case .failure(.connectionLost(let message)):
                if !reported {
                    reported = true
                    onConnectionEvent?(.lost(message))
                }
                guard retrying, clock.now + delay < deadline else {
                    throw DurableError.unreachable(server: server, message: message)
                }
                try await Task.sleep(for: delay)
                delay = min(delay * 2, .milliseconds(500))
                isRetry = true
            }
        }
    }

    /// Who holds the connection's turn, and who waits for it (in order).
    struct Turns {
        var taken = false
        var waiting: [CheckedContinuation<Void, Never>] = []
        /// Commits waiting to be written by the next holder of the turn.
        var commits: [QueuedCommit] = []
    }

    /// Returns once the caller holds the turn: at once when nobody does, else when the
    /// holders before it pass it on.
    private func takeTurn() async {
        let free = turns.withLock { turns in
            guard !turns.taken else { return false }
            turns.taken = true
            return true
        }
        guard !free else { return }
        await withCheckedContinuation { continuation in
            let freed = turns.withLock { turns in
                guard !turns.taken else {
                    turns.waiting.append(continuation)
                    return false
                }
                turns.taken = true
                return true
            }
            if freed { continuation.resume() }
        }
    }

    /// Hands the turn to the first caller waiting for it, or frees it.
    private func passTurn() {
        let next = turns.withLock { turns -> CheckedContinuation<Void, Never>? in
            guard !turns.waiting.isEmpty else {
                turns.taken = false
                return nil
            }
            return turns.waiting.removeFirst()
        }
        next?.resume()
    }

    /// Runs `body` with the connection, connecting first when needed; only with the turn held.
    private func attempt<T>(
        isRetry: Bool,
        _ body: (PostgreSQLConnection, _ isRetry: Bool) throws(PostgreSQLFailure) -> T
    ) -> Result<T, PostgreSQLFailure> {
        do throws(PostgreSQLFailure) {
            if !connected || !connection.isConnected {
                connected = false
                if let message = connection.connect() { throw .connectionLost(message) }
                try connection.execute("SET search_path TO \(Self.quote(schema))")
                try relock()
                connected = true
            }
            return .success(try body(connection, isRetry))
        } catch {
            if case .connectionLost = error { connected = false }
            return .failure(error)
        }
    }

    /// After a reconnection: takes the advisory locks of the machines this store claimed
    /// again. One another process holds by now is lost: its epoch moved, and commits for
    /// it fail with `DurableError/claimLost(key:)`.
    private func relock() throws(PostgreSQLFailure) {
        guard !claims.isEmpty else { return }
        let ids = "{" + claims.values.map { String($0.id) }.joined(separator: ",") + "}"
        try connection.run(
            "SELECT pg_try_advisory_lock(\(self.lockClass)::int, id) FROM unnest($1::int[]) AS id",
            [.text(ids)]
        )
    }

    // MARK: Claims

    public func claim(_ key: String, identity: DefinitionIdentity) async throws -> StoredMachine? {
        let owner = owner
        return try await withConnection(retrying: true) { connection, _ throws(PostgreSQLFailure) in
            if self.claims[key] != nil {
                throw .refused(DurableError.machineInUse(key: key, owner: owner))
            }
            let rows = try connection.run(
                """
                WITH inserted AS (INSERT INTO claims(machine) VALUES ($1) ON CONFLICT (machine) DO NOTHING RETURNING id)
                SELECT id FROM inserted UNION ALL SELECT id FROM claims WHERE machine = $1
                """,
                [.text(key)]
            )
            guard rows.count > 0, let id = rows.integer(0, 0) else {
                throw .refused(DurableError.encoding("machine '\(key)' has no claim row"))
            }
            let locked = try connection.run(
                "SELECT pg_try_advisory_lock(\(self.lockClass)::int, $1::int)",
                [.integer(id)]
            )
            guard locked.boolean(0, 0) else {
                let holder = try connection.run("SELECT owner FROM claims WHERE machine = $1", [.text(key)])
                throw .refused(DurableError.machineInUse(key: key, owner: holder.text(0, 0) ?? "another session"))
            }
            do throws(PostgreSQLFailure) {
                let epoch = try connection.run(
                    "UPDATE claims SET epoch = epoch + 1, owner = $2, listener = $3 WHERE machine = $1 RETURNING epoch",
                    [.text(key), .text(owner), .text(self.channel)]
                )
                let stored = try Self.read(key, connection)
                self.claims[key] = (id, epoch.integer(0, 0) ?? 0)
                return stored
            } catch {
                _ = try? connection.run("SELECT pg_advisory_unlock(\(self.lockClass)::int, $1::int)", [.integer(id)])
                throw error
            }
        }
    }

    public func release(_ key: String) async {
        _ = try? await withConnection(retrying: false) { connection, _ throws(PostgreSQLFailure) in
            guard let claim = self.claims.removeValue(forKey: key) else { return }
            try connection.transaction([
                (
                    "UPDATE claims SET listener = NULL WHERE machine = $1 AND listener = $2",
                    [.text(key), .text(self.channel)]
                ),
                ("SELECT pg_advisory_unlock(\(self.lockClass)::int, $1::int)", [.integer(claim.id)]),
            ])
        }
    }

    // MARK: Reading

    public func inspect(_ key: String) async throws -> StoredMachine? {
        try await withConnection(retrying: true) { connection, _ throws(PostgreSQLFailure) in
            try Self.read(key, connection)
        }
    }

    /// Everything stored of machine `key`.
    private static func read(
        _ key: String,
        _ connection: PostgreSQLConnection
    ) throws(PostgreSQLFailure) -> StoredMachine? {
        let rows = try connection.run(
            "SELECT version, fingerprint, state, last_sequence FROM machines WHERE key = $1",
            [.text(key)]
        )
        guard rows.count > 0 else { return nil }
        var machine = StoredMachine(
            identity: DefinitionIdentity(version: rows.text(0, 0) ?? "", fingerprint: rows.text(0, 1) ?? ""),
            state: rows.blob(0, 2) ?? Data(),
            lastSequence: rows.integer(0, 3) ?? 0,
            timers: [],
            unapplied: [],
            undelivered: []
        )
        let timers = try connection.run(
            "SELECT id, due, delay, event FROM timers WHERE machine = $1 ORDER BY due, id",
            [.text(key)]
        )
        for row in 0..<timers.count {
            machine.timers.append(
                DurableTimer(
                    id: timers.text(row, 0) ?? "",
                    due: timers.integer(row, 1) ?? 0,
                    delay: .nanoseconds(timers.integer(row, 2) ?? 0),
                    event: timers.blob(row, 3)
                )
            )
        }
        machine.unapplied = try readInbox(key, connection)
        machine.undelivered = try readOutbox(key, onlyUndelivered: true, connection)
        return machine
    }

    static func kind(_ value: Int64?, of key: String) throws(PostgreSQLFailure) -> DurableEventKind {
        guard let value, let kind = DurableEventKind(rawValue: value) else {
            throw .refused(
                DurableError.encoding(
                    "an event of machine '\(key)' has unknown kind \(value.map(String.init) ?? "null")"
                )
            )
        }
        return kind
    }

    private static func readOutbox(
        _ key: String,
        onlyUndelivered: Bool,
        _ connection: PostgreSQLConnection
    ) throws(PostgreSQLFailure) -> [OutboxEntry] {
        let rows = try connection.run(
            onlyUndelivered
                ? "SELECT key, position, name, payload, delivered FROM outbox WHERE machine = $1 AND NOT delivered ORDER BY position"
                : "SELECT key, position, name, payload, delivered FROM outbox WHERE machine = $1 ORDER BY position",
            [.text(key)]
        )
        return (0..<rows.count).map { row in
            OutboxEntry(
                key: rows.text(row, 0) ?? "",
                position: rows.integer(row, 1) ?? 0,
                name: rows.text(row, 2) ?? "",
                payload: rows.blob(row, 3) ?? Data(),
                delivered: rows.boolean(row, 4)
            )
        }
    }

    public func journal(of key: String) async throws -> [JournalEntry] {
        try await withConnection(retrying: true) { connection, _ throws(PostgreSQLFailure) in
            let rows = try connection.run(
                "SELECT sequence, kind, payload, idempotency_key, time FROM journal WHERE machine = $1 ORDER BY sequence",
                [.text(key)]
            )
            var entries: [JournalEntry] = []
            for row in 0..<rows.count {
                entries.append(
                    JournalEntry(
                        sequence: rows.integer(row, 0) ?? 0,
                        kind: try Self.kind(rows.integer(row, 1), of: key),
                        payload: rows.blob(row, 2) ?? Data(),
                        idempotencyKey: rows.text(row, 3),
                        time: rows.integer(row, 4) ?? 0
                    )
                )
            }
            return entries
        }
    }

    public func outbox(of key: String) async throws -> [OutboxEntry] {
        try await withConnection(retrying: true) { connection, _ throws(PostgreSQLFailure) in
            try Self.readOutbox(key, onlyUndelivered: false, connection)
        }
    }

    // MARK: Posts

    /// Waits for posts on a connection of its own, which LISTENs to the channel that the
    /// inbox's trigger notifies (opened by the first call, closed with the store).
    public func awaitPosts(timeout: Duration) async -> Set<String>? {
        let listener = listener.withLock { listener in
            if listener == nil {
                listener = PostgreSQLListener(conninfo: connection.conninfo, server: server, channel: channel)
            }
            return listener
        }
        guard let listener else {
            // No thread or descriptor to listen with: look for work every `timeout`.
            try? await Task.sleep(for: timeout)
            return []
        }
        return await listener.next(timeout: timeout)
    }

    deinit { listener.withLock { $0?.stop() } }

    // MARK: The clock

    public func now() async throws -> DurableInstant {
        switch clock {
        case .system: return DurableClock.wallTime()
        case .manual:
            return try await withConnection(retrying: true) { connection, _ throws(PostgreSQLFailure) in
                try connection.run("SELECT now FROM clock WHERE id = 0").integer(0, 0) ?? 0
            }
        }
    }

    public func setManualTime(_ time: DurableInstant) async throws {
        guard clock == .manual else { throw DurableError.notManualClock }
        try await withConnection(retrying: true) { connection, _ throws(PostgreSQLFailure) in
            try connection.run("UPDATE clock SET now = greatest(now, $1) WHERE id = 0", [.integer(time)])
        }
    }
}
