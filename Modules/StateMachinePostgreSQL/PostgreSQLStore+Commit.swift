import CLibPQ
import FoundationEssentials
import StateMachineDurable
import StateMachineSupport

// The commits of a PostgreSQLStore: each one round trip, and the commits of several
// machines made at the same time written in the same one.
extension PostgreSQLStore {
    /// Commits made at the same time (by different machines) are written together: the
    /// caller that holds the connection writes every commit queued meanwhile in the same
    /// round trip, each as a transaction of its own (one fails alone).
    public func commit(_ commit: DurableCommit) async throws {
        let queued = QueuedCommit(commit)
        turns.withLock { $0.commits.append(queued) }
        do {
            try await withConnection(retrying: true) { connection, isRetry throws(PostgreSQLFailure) in
                if let outcome = queued.outcome { return try outcome.get() }
                if isRetry { queued.attempted = true }
                var group = self.turns.withLock { turns in
                    defer { turns.commits = [] }
                    return turns.commits
                }
                // Taken by a write that the lost connection cut off: it is written again here.
                if !group.contains(where: { $0 === queued }) { group.insert(queued, at: 0) }
                try self.write(group, connection)
                try queued.outcome?.get()
            }
        } catch {
            // Given up (the server unreachable): no later write takes it.
            turns.withLock { $0.commits.removeAll { $0 === queued } }
            throw error
        }
    }

    /// A commit waiting to be written, with what became of it.
    final class QueuedCommit: @unchecked Sendable {
        // @unchecked Sendable: `attempted` and `outcome` are only used by the holder of the
        // connection's turn (handed over under the `turns` lock), `commit` is immutable.
        let commit: DurableCommit
        /// Whether a round trip that carried it was cut off: it may be committed.
        var attempted = false
        /// Its outcome, once written or refused.
        var outcome: Result<Void, PostgreSQLFailure>?

        init(_ commit: DurableCommit) { self.commit = commit }
    }

    /// Writes the commits of `group` in one round trip, each as a transaction of its own, and
    /// records each one's outcome. One that may have been committed by a cut-off round trip
    /// is looked up in the journal first.
    /// - Throws: ``PostgreSQLFailure/connectionLost(_:)``; the group's commits are then
    ///   marked attempted and left to their callers, each of which writes its own again.
    func write(_ group: [QueuedCommit], _ connection: PostgreSQLConnection) throws(PostgreSQLFailure) {
        var writing: [(queued: QueuedCommit, epoch: Int64)] = []
        do throws(PostgreSQLFailure) {
            for queued in group {
                let commit = queued.commit
                guard let claim = claims[commit.key] else {
                    queued.outcome = .failure(.refused(DurableError.claimLost(key: commit.key)))
                    continue
                }
                if queued.attempted, let first = commit.entries.first {
                    let rows = try connection.run(
                        "SELECT 1 FROM journal WHERE machine = $1 AND sequence = $2",
                        [.text(commit.key), .integer(first.sequence)]
                    )
                    if rows.count > 0 {
                        let fence = try connection.run(
                            "SELECT epoch FROM claims WHERE machine = $1",
                            [.text(commit.key)]
                        )
                        queued.outcome =
                            fence.integer(0, 0) == claim.epoch
                            ? .success(()) : .failure(.refused(DurableError.claimLost(key: commit.key)))
                        continue
                    }
                }
                writing.append((queued, claim.epoch))
            }
            let outcomes = try connection.transactions(
                writing.map { Self.statements(of: $0.queued.commit, epoch: $0.epoch) }
            )
            for ((queued, _), outcome) in zip(writing, outcomes) {
                switch outcome {
                case .success: queued.outcome = .success(())
                case .failure(.refused(.server(_, let code, _))) where code == Self.claimLostCode:
                    queued.outcome = .failure(.refused(DurableError.claimLost(key: queued.commit.key)))
                case .failure(let failure): queued.outcome = .failure(failure)
                }
            }
        } catch {
            for queued in group where queued.outcome == nil { queued.attempted = true }
            throw error
        }
    }

    /// The SQLSTATE `durable_fence` raises when the claim is no longer this store's.
    static let claimLostCode = "SM001"

    /// The statements that write `commit`, to run as one transaction: first the check that
    /// the claim is still this store's (`durable_fence`, which also locks the claim's row, so
    /// that a concurrent post of the same idempotency key waits for this commit).
    static func statements(
        of commit: DurableCommit,
        epoch: Int64
    ) -> [(sql: String, parameters: [PostgreSQLValue])] {
        let key = commit.key
        var statements: [(sql: String, parameters: [PostgreSQLValue])] = [
            ("SELECT durable_fence($1, $2)", [.text(key), .integer(epoch)])
        ]
        for entry in commit.entries {
            statements.append(
                (
                    "INSERT INTO journal(machine, sequence, kind, payload, idempotency_key, time) VALUES ($1, $2, $3, $4, $5, $6)",
                    [
                        .text(key), .integer(entry.sequence), .integer(entry.kind.rawValue), .blob(entry.payload),
                        .text(entry.idempotencyKey), .integer(entry.time),
                    ]
                )
            )
        }
        if let id = commit.consumedInbox.first, commit.consumedInbox.count == 1 {
            // The common case, without an array to build and parse.
            statements.append(("DELETE FROM inbox WHERE id = $2 AND machine = $1", [.text(key), .integer(id)]))
        } else if !commit.consumedInbox.isEmpty {
            statements.append(
                (
                    "DELETE FROM inbox WHERE machine = $1 AND id = ANY($2::bigint[])",
                    [.text(key), .text(array(commit.consumedInbox.map(String.init)))]
                )
            )
        }
        if !commit.delivered.isEmpty {
            statements.append((markDeliveredSQL, [.text(key), .text(array(commit.delivered))]))
        }
        let last = commit.entries.last?.sequence ?? 0
        statements.append(
            (
                """
                INSERT INTO machines(key, version, fingerprint, state, last_sequence) VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT (key) DO UPDATE SET version = excluded.version, fingerprint = excluded.fingerprint,
                    state = excluded.state, last_sequence = greatest(machines.last_sequence, excluded.last_sequence)
                """,
                [
                    .text(key), .text(commit.identity.version), .text(commit.identity.fingerprint),
                    .blob(commit.state), .integer(last),
                ]
            )
        )
        if let timers = commit.timers {
            statements.append(("DELETE FROM timers WHERE machine = $1", [.text(key)]))
            for timer in timers {
                statements.append(
                    (
                        "INSERT INTO timers(machine, id, due, delay, event) VALUES ($1, $2, $3, $4, $5)",
                        [
                            .text(key), .text(timer.id), .integer(timer.due), .integer(timer.delay.durableNanoseconds),
                            timer.event.map(PostgreSQLValue.blob) ?? .text(nil),
                        ]
                    )
                )
            }
        }
        for effect in commit.effects {
            statements.append(
                (
                    """
                    INSERT INTO outbox(machine, key, position, name, payload, delivered) VALUES ($1, $2, $3, $4, $5, false)
                    ON CONFLICT DO NOTHING
                    """,
                    [
                        .text(key), .text(effect.key), .integer(effect.position), .text(effect.name),
                        .blob(effect.payload),
                    ]
                )
            )
        }
        return statements
    }

    /// `elements` as a PostgreSQL array literal.
    static func array(_ elements: [String]) -> String {
        "{"
            + elements.map {
                "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                    + "\""
            }.joined(separator: ",") + "}"
    }

    private static let markDeliveredSQL =
        "UPDATE outbox SET delivered = true WHERE machine = $1 AND key = ANY($2::text[])"

    public func markDelivered(_ key: String, effects: [String]) async throws {
        guard !effects.isEmpty else { return }
        try await withConnection(retrying: true) { connection, _ throws(PostgreSQLFailure) in
            try connection.run(Self.markDeliveredSQL, [.text(key), .text(Self.array(effects))])
        }
    }
}
