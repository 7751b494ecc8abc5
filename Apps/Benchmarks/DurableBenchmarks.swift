import CSQLite
import Foundation
import StateMachineDurable
import StateMachineTable

/// Durable machines on SQLite (`Benchmarks durable`), each store in a fresh temporary file:
/// - one event sent to a durable table machine and awaited, against the same work by hand
///   on one SQLite connection: a transaction with one journal insert and one state update
///   (same schema, same bytes), with `synchronous` FULL (the default; target ≤ 1.5x) and
///   NORMAL (target ≤ 1.5x);
/// - events per second for one machine with 64 concurrent senders (group commit), and for
///   1,000 machines with an event each in flight, with FULL and NORMAL (no target: figures);
/// - the PostgreSQL figures (`PostgreSQLBenchmarks`).
enum DurableBenchmarks {
    static func run(_ report: SuiteReport) async throws {
        for synchronous in [SQLiteStore.Synchronous.full, .normal] {
            let level = synchronous.rawValue.lowercased()
            if report.wants("event.\(level)") { try await event(report, synchronous) }
            if report.wants("throughput.\(level)") { try await throughput(report, synchronous) }
        }
        try await PostgreSQLBenchmarks.run(report)
    }

    enum Gate: String, Codable, Hashable, Sendable { case locked, unlocked }
    enum Input: String, Codable, Hashable, Sendable { case coin, push }

    struct Turnstile: SyntaxBuilder {
        typealias State = Gate
        typealias Event = Input

        func form() throws -> DurableTable<Gate, Input> {
            try DurableTable(version: "1", initialState: .locked) { state, _ in
                let fsm = FSM<Gate, Input>(initialState: state)
                try fsm.buildTable {
                    define(.locked) { when(.coin) | then(.unlocked) }
                    define(.unlocked) { when(.push) | then(.locked) }
                }
                return fsm
            }
        }
    }

    /// A fresh folder under the temporary folder, removed after `body`.
    static func withFolder<T>(_ body: (String) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("durable-bench-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        return try await body(folder)
    }

    static func event(_ report: SuiteReport, _ synchronous: SQLiteStore.Synchronous) async throws {
        let events = synchronous == .full ? 200 : 2_000
        try await withFolder { folder in
            let store = try SQLiteStore(path: folder + "/durable.sqlite", synchronous: synchronous)
            let machine = try await store.open("gate", try Turnstile().form())
            let byHand = try ByHand(path: folder + "/by-hand.sqlite", synchronous: synchronous.rawValue)
            let samples = try await Harness.interleaved(
                repetitions: report.repetitions,
                operations: events,
                [
                    {
                        for index in 0..<events { try byHand.commit(index.isMultiple(of: 2) ? "coin" : "push") }
                    },
                    {
                        for index in 0..<events { try await machine.send(index.isMultiple(of: 2) ? .coin : .push) }
                    },
                ]
            )
            await machine.close()
            report.add(
                "event.\(synchronous.rawValue.lowercased())",
                unit: "ns/event",
                samples[1],
                baseline: ("by hand: BEGIN, journal INSERT, state UPDATE, COMMIT on one connection", samples[0]),
                target: .ratioAtMost(1.5),
                note: "a durable table machine's send, awaited, synchronous=\(synchronous.rawValue)"
            )
        }
    }

    static func throughput(_ report: SuiteReport, _ synchronous: SQLiteStore.Synchronous) async throws {
        let level = synchronous.rawValue.lowercased()
        let events = synchronous == .full ? 1_000 : 4_000
        try await withFolder { folder in
            let store = try SQLiteStore(path: folder + "/one.sqlite", synchronous: synchronous)
            let machine = try await store.open("gate", try Turnstile().form())
            let one = try await Harness.repeated(max(3, report.repetitions / 3)) {
                let start = ContinuousClock.now
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for sender in 0..<64 {
                        group.addTask {
                            for index in stride(from: sender, to: events, by: 64) {
                                try await machine.send(index.isMultiple(of: 2) ? .coin : .push)
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                return Double(events) / ((ContinuousClock.now - start).nanoseconds / 1e9)
            }
            await machine.close()
            report.add(
                "throughput.\(level).one-machine",
                unit: "events/s",
                one,
                note: "one machine, 64 concurrent senders (group commit), synchronous=\(synchronous.rawValue)"
            )
        }
        try await withFolder { folder in
            let store = try SQLiteStore(path: folder + "/many.sqlite", synchronous: synchronous)
            let form = try Turnstile().form()
            var machines: [DurableMachine<DurableTable<Gate, Input>>] = []
            for index in 0..<1_000 { machines.append(try await store.open("gate-\(index)", form)) }
            let opened = machines
            let many = try await Harness.repeated(max(3, report.repetitions / 3)) {
                let start = ContinuousClock.now
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for machine in opened {
                        group.addTask {
                            try await machine.send(.coin)
                            try await machine.send(.push)
                        }
                    }
                    try await group.waitForAll()
                }
                return Double(2 * opened.count) / ((ContinuousClock.now - start).nanoseconds / 1e9)
            }
            for machine in machines { await machine.close() }
            report.add(
                "throughput.\(level).1000-machines",
                unit: "events/s",
                many,
                note: "1,000 machines on one store, two events each, all in flight, synchronous=\(synchronous.rawValue)"
            )
        }
    }

    /// The baseline: what a durable event writes, by hand on one connection.
    final class ByHand {
        private var handle: OpaquePointer?
        private var insert: OpaquePointer?
        private var update: OpaquePointer?
        private var sequence: Int64 = 0

        init(path: String, synchronous: String) throws {
            guard sqlite3_open(path, &handle) == SQLITE_OK else { throw BenchmarkError("cannot open \(path)") }
            try execute("PRAGMA journal_mode = WAL")
            try execute("PRAGMA synchronous = \(synchronous)")
            try execute(
                """
                CREATE TABLE journal(machine TEXT NOT NULL, sequence INTEGER NOT NULL, kind INTEGER NOT NULL,
                    payload BLOB NOT NULL, idempotency_key TEXT, time INTEGER NOT NULL,
                    PRIMARY KEY(machine, sequence)) WITHOUT ROWID;
                CREATE TABLE machines(key TEXT PRIMARY KEY, version TEXT NOT NULL, fingerprint TEXT NOT NULL,
                    state BLOB NOT NULL, last_sequence INTEGER NOT NULL);
                INSERT INTO machines VALUES ('gate', '1', '0', '"locked"', 0);
                """
            )
            sqlite3_prepare_v2(
                handle,
                "INSERT INTO journal(machine, sequence, kind, payload, idempotency_key, time) VALUES ('gate', ?, 0, ?, NULL, ?)",
                -1,
                &insert,
                nil
            )
            sqlite3_prepare_v2(
                handle,
                "UPDATE machines SET state = ?, last_sequence = ? WHERE key = 'gate'",
                -1,
                &update,
                nil
            )
        }

        deinit {
            sqlite3_finalize(insert)
            sqlite3_finalize(update)
            sqlite3_close(handle)
        }

        func execute(_ sql: String) throws {
            guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
                throw BenchmarkError("SQLite: \(String(cString: sqlite3_errmsg(handle)))")
            }
        }

        /// One event: its journal row and the new state, in one transaction.
        func commit(_ event: String) throws {
            sequence += 1
            let payload = Array("\"\(event)\"".utf8)
            let state = Array(event == "coin" ? "\"unlocked\"".utf8 : "\"locked\"".utf8)
            try execute("BEGIN IMMEDIATE")
            sqlite3_bind_int64(insert, 1, sequence)
            sqlite3_bind_blob(insert, 2, payload, Int32(payload.count), csqlite_transient())
            sqlite3_bind_int64(insert, 3, Int64(sequence))
            guard sqlite3_step(insert) == SQLITE_DONE else { throw BenchmarkError("insert failed") }
            sqlite3_reset(insert)
            sqlite3_bind_blob(update, 1, state, Int32(state.count), csqlite_transient())
            sqlite3_bind_int64(update, 2, sequence)
            guard sqlite3_step(update) == SQLITE_DONE else { throw BenchmarkError("update failed") }
            sqlite3_reset(update)
            try execute("COMMIT")
        }
    }
}
