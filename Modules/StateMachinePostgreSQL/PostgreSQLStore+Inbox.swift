import CLibPQ
import FoundationEssentials
import StateMachineDurable
import StateMachineSupport

// The inbox of a PostgreSQLStore: events posted by any process, read by the worker that
// holds the machine (apart from the store's claims, commits and reads).
extension PostgreSQLStore {
    public func knows(_ key: String, idempotencyKey: String) async throws -> Bool {
        try await withConnection(retrying: true) { connection, _ throws(PostgreSQLFailure) in
            try connection.run(
                """
                SELECT 1 FROM journal WHERE machine = $1 AND idempotency_key = $2
                UNION ALL SELECT 1 FROM inbox WHERE machine = $1 AND idempotency_key = $2 LIMIT 1
                """,
                [.text(key), .text(idempotencyKey)]
            ).count > 0
        }
    }

    public func post(_ key: String, _ entry: InboxEntry) async throws -> Int64? {
        let values: [PostgreSQLValue] = [
            .text(key), .integer(entry.kind.rawValue), .blob(entry.payload), .text(entry.idempotencyKey),
            .integer(entry.time),
        ]
        guard entry.idempotencyKey != nil else {
            // Without an idempotency key, a post whose commit the lost connection hid could
            // not be told from one that never ran: it is not repeated (the caller sees the error).
            return try await withConnection(retrying: false) { connection, _ throws(PostgreSQLFailure) in
                try connection.run(
                    "INSERT INTO inbox(machine, kind, payload, idempotency_key, time) VALUES ($1, $2, $3, $4, $5) RETURNING id",
                    values
                ).integer(0, 0)
            }
        }
        return try await withConnection(retrying: true) { connection, _ throws(PostgreSQLFailure) in
            // One transaction. Its first statement locks the machine's claim row: a commit
            // applying the same idempotency key holds it until it is done, and the insert
            // (a statement of its own, so a snapshot of its own) then sees its journal entry.
            let results = try connection.transaction([
                (
                    "INSERT INTO claims(machine) VALUES ($1) ON CONFLICT (machine) DO UPDATE SET machine = excluded.machine",
                    [.text(key)]
                ),
                (
                    """
                    INSERT INTO inbox(machine, kind, payload, idempotency_key, time)
                    SELECT $1, $2, $3, $4, $5
                    WHERE NOT EXISTS (SELECT 1 FROM journal WHERE machine = $1 AND idempotency_key = $4)
                    ON CONFLICT DO NOTHING RETURNING id
                    """,
                    values
                ),
            ])
            return results[1].count > 0 ? results[1].integer(0, 0) : nil
        }
    }

    public func inbox(of key: String) async throws -> [InboxEntry] {
        try await withConnection(retrying: true) { connection, _ throws(PostgreSQLFailure) in
            try Self.readInbox(key, connection)
        }
    }

    public func inboxes(of keys: [String]) async throws -> [String: [InboxEntry]] {
        guard !keys.isEmpty else { return [:] }
        return try await withConnection(retrying: true) { connection, _ throws(PostgreSQLFailure) in
            let rows = try connection.run(
                """
                SELECT machine, id, kind, payload, idempotency_key, time FROM inbox
                WHERE machine = ANY($1::text[]) ORDER BY machine, id
                """,
                [.text(Self.array(keys))]
            )
            var inboxes: [String: [InboxEntry]] = [:]
            for row in 0..<rows.count {
                let key = rows.text(row, 0) ?? ""
                inboxes[key, default: []].append(try Self.inboxEntry(rows, row, column: 1, of: key))
            }
            return inboxes
        }
    }

    public func inboxHolds(_ key: String, entry id: Int64?, idempotencyKey: String?) async throws -> Bool {
        try await withConnection(retrying: true) { connection, _ throws(PostgreSQLFailure) in
            if let id {
                return try connection.run(
                    "SELECT 1 FROM inbox WHERE id = $1 AND machine = $2",
                    [.integer(id), .text(key)]
                )
                .count > 0
            }
            return try connection.run(
                "SELECT 1 FROM inbox WHERE machine = $1 AND idempotency_key = $2",
                [.text(key), .text(idempotencyKey)]
            ).count > 0
        }
    }

    public func machinesWithWork(dueBy time: DurableInstant, limit: Int) async throws -> [String] {
        try await withConnection(retrying: true) { connection, _ throws(PostgreSQLFailure) in
            // A machine whose claim's advisory lock another session holds is that session's.
            let rows = try connection.run(
                """
                SELECT work.machine FROM (
                    SELECT DISTINCT machine FROM inbox
                    UNION SELECT machine FROM timers WHERE due <= $1
                    UNION SELECT machine FROM outbox WHERE NOT delivered) AS work
                LEFT JOIN claims ON claims.machine = work.machine
                WHERE claims.id IS NULL OR NOT EXISTS (
                    SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = \(self.lockClass)::oid
                        AND objid = claims.id::oid AND objsubid = 2 AND granted AND pid <> pg_backend_pid())
                ORDER BY random() LIMIT $2
                """,
                [.integer(time), .integer(Int64(max(0, limit)))]
            )
            return (0..<rows.count).compactMap { rows.text($0, 0) }
        }
    }

    static func readInbox(
        _ key: String,
        _ connection: PostgreSQLConnection
    ) throws(PostgreSQLFailure) -> [InboxEntry] {
        let rows = try connection.run(
            "SELECT id, kind, payload, idempotency_key, time FROM inbox WHERE machine = $1 ORDER BY id",
            [.text(key)]
        )
        var entries: [InboxEntry] = []
        for row in 0..<rows.count { entries.append(try inboxEntry(rows, row, column: 0, of: key)) }
        return entries
    }

    /// The inbox entry in row `row` of `rows`, its columns (id, kind, payload, idempotency
    /// key, time) from `column` on.
    static func inboxEntry(
        _ rows: PostgreSQLRows,
        _ row: Int,
        column: Int,
        of key: String
    ) throws(PostgreSQLFailure) -> InboxEntry {
        InboxEntry(
            id: rows.integer(row, column) ?? 0,
            kind: try kind(rows.integer(row, column + 1), of: key),
            payload: rows.blob(row, column + 2) ?? Data(),
            idempotencyKey: rows.text(row, column + 3),
            time: rows.integer(row, column + 4) ?? 0
        )
    }
}
