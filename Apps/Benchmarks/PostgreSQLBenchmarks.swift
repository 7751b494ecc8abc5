import CLibPQ
import Foundation
import PostgreSQLTestCluster
import StateMachineDurable
import StateMachinePostgreSQL
import StateMachineSupport
import StateMachineTable

#if canImport(Glibc)
import Glibc
#endif

/// Durable machines on PostgreSQL (`Benchmarks durable`, figures `postgresql.*`), on a cluster
/// the benchmark starts itself (as the tests do: initdb into a temporary folder, run as the
/// `postgres` user when root, a Unix socket, `fsync=off`), removed at the end:
/// - one event sent to a durable table machine on a `PostgreSQLStore` and awaited, against the
///   same statements by hand on one libpq connection (BEGIN, journal INSERT, state UPDATE,
///   COMMIT, prepared), target ≤ 1.5x;
/// - events per second with 1, 2 and 4 worker processes (`Benchmarks postgresql-worker`, a
///   `MachineWorker` with the default settings) applying events this process posts to 200
///   machines, against the same work by 1, 2 and 4 libpq connections, a thread each (per
///   event: the inbox INSERT, then BEGIN, journal INSERT, inbox DELETE, state UPDATE, COMMIT),
///   target ≤ 1.5x the baseline's time per event;
/// - takeover: a worker process (this executable, `Benchmarks postgresql-worker`) holding 50
///   machines is killed with kill -9; the time until an event posted to each of them is applied
///   by the worker that remains, target ≤ 3 s in every run.
enum PostgreSQLBenchmarks {
    static func run(_ report: SuiteReport) async throws {
        let names = ["postgresql.event"] + [1, 2, 4].map { "postgresql.workers.\($0)" } + ["postgresql.takeover"]
        guard names.contains(where: report.wants) else { return }
        let cluster = try await PostgreSQLCluster.start()
        defer { cluster.remove() }
        if report.wants("postgresql.event") { try await event(report, cluster) }
        for count in [1, 2, 4] where report.wants("postgresql.workers.\(count)") {
            try await workers(report, cluster, count: count)
        }
        if report.wants("postgresql.takeover") { try await takeover(report, cluster) }
    }

    static func form() throws -> DurableTable<DurableBenchmarks.Gate, DurableBenchmarks.Input> {
        try DurableBenchmarks.Turnstile().form()
    }

    static func event(_ report: SuiteReport, _ cluster: PostgreSQLCluster) async throws {
        let events = 1_000
        let store = try await PostgreSQLStore(connection: cluster.connection, schema: "bench_event")
        let machine = try await store.open("gate", try form())
        let byHand = try ByHand(cluster.connection, schema: "bench_event_by_hand", machines: ["gate"])
        let samples = try await Harness.interleaved(
            repetitions: report.repetitions,
            operations: events,
            [
                {
                    for index in 0..<events {
                        try byHand.apply(machine: "gate", index.isMultiple(of: 2) ? "coin" : "push")
                    }
                },
                { for index in 0..<events { try await machine.send(index.isMultiple(of: 2) ? .coin : .push) } },
            ]
        )
        await machine.close()
        report.add(
            "postgresql.event",
            unit: "ns/event",
            samples[1],
            baseline: ("by hand: BEGIN, journal INSERT, state UPDATE, COMMIT on one libpq connection", samples[0]),
            target: .ratioAtMost(1.5),
            note: "a durable table machine's send on a PostgreSQLStore, awaited (Unix socket, fsync=off)"
        )
    }

    /// `count` worker processes (this executable, `Benchmarks postgresql-worker`, as a user
    /// deploys them) apply the events this process posts to 200 machines, in steady state:
    /// the workers run, and hold their machines, from the warm-up on (taking machines over
    /// is the takeover figure's); the baseline does the same inserts and updates on `count`
    /// connections.
    static func workers(_ report: SuiteReport, _ cluster: PostgreSQLCluster, count: Int) async throws {
        let machines = (0..<200).map { "gate-\($0)" }
        let perMachine = 10
        let events = machines.count * perMachine
        let form = try form()
        let connections = try (0..<count).map { index in
            try ByHand(cluster.connection, schema: "bench_hand_\(count)", machines: index == 0 ? machines : [])
        }
        let schema = "bench_workers_\(count)"
        // The senders post on `count` connections, as the baseline does.
        var posters: [PostgreSQLStore] = []
        for _ in 0..<count { posters.append(try await PostgreSQLStore(connection: cluster.connection, schema: schema)) }
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var children: [pid_t] = []
        defer {
            for child in children { kill(child, SIGKILL) }
            for child in children { _ = PostgreSQLCluster.waitForExit(child) }
        }
        for _ in 0..<count {
            children.append(try PostgreSQLCluster.spawn([executable, "postgresql-worker", cluster.connection, schema]))
        }
        let samples = try await Harness.interleaved(
            repetitions: report.repetitions,
            operations: events,
            [
                {
                    // A thread per connection, as a plain client drives its connections (the
                    // calls block: on tasks, only as many would run at once as there are cores).
                    try await Self.onThreads(
                        connections.enumerated().map { index, connection in
                            let mine = machines.enumerated().filter { $0.offset % count == index }.map(\.element)
                            return {
                                for step in 0..<perMachine {
                                    for key in mine {
                                        let event = step.isMultiple(of: 2) ? "coin" : "push"
                                        let id = try connection.post(machine: key, event)
                                        try connection.apply(machine: key, event, consuming: id)
                                    }
                                }
                            }
                        }
                    )
                },
                {
                    // Eight senders post, each machine's events in order, then await each
                    // machine's last.
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for sender in 0..<8 {
                            let mine = machines.enumerated().filter { $0.offset % 8 == sender }.map(\.element)
                            let poster = posters[sender % count]
                            group.addTask {
                                var last: [DurablePost] = []
                                for step in 0..<perMachine {
                                    for key in mine {
                                        // No idempotency key: the baseline's post has none.
                                        let posted = try await poster.post(
                                            step.isMultiple(of: 2) ? .coin : .push,
                                            to: key,
                                            as: form
                                        )
                                        if step == perMachine - 1 { last.append(posted) }
                                    }
                                }
                                for posted in last { try await poster.awaitApplied(posted) }
                            }
                        }
                        try await group.waitForAll()
                    }
                },
            ]
        )
        report.add(
            "postgresql.workers.\(count)",
            unit: "ns/event",
            samples[1],
            baseline: (
                "by hand on \(count) libpq connection\(count == 1 ? "" : "s"), a thread each: inbox INSERT, then BEGIN, journal INSERT, inbox DELETE, state UPDATE, COMMIT",
                samples[0]
            ),
            target: .ratioAtMost(1.5),
            note:
                "\(count) MachineWorker process\(count == 1 ? "" : "es") (woken by LISTEN/NOTIFY) applying \(events) events posted to \(machines.count) machines they hold, by 8 senders on \(count) connection\(count == 1 ? "" : "s"): \(Sample.format(1e9 / samples[1].median)) events/s"
        )
    }

    /// Runs each of `bodies` on a thread of its own, all at once; returns when all are done,
    /// throwing the first error one of them threw.
    static func onThreads(_ bodies: [@Sendable () throws -> Void]) async throws {
        let failure = Lock<(any Error)?>(nil)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let group = DispatchGroup()
            for body in bodies {
                group.enter()
                Thread {
                    do { try body() } catch { failure.withLock { $0 = $0 ?? error } }
                    group.leave()
                }.start()
            }
            group.notify(queue: .global()) { continuation.resume() }
        }
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// A worker process holding 50 machines is killed; the time until the remaining worker has
    /// applied an event posted to each.
    static func takeover(_ report: SuiteReport, _ cluster: PostgreSQLCluster) async throws {
        let machines = (0..<50).map { "gate-\($0)" }
        let form = try form()
        var times: [Double] = []
        for run in 0..<max(3, report.repetitions / 3) {
            let schema = "bench_takeover_\(run)"
            let store = try await PostgreSQLStore(connection: cluster.connection, schema: schema)
            let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
            let child = try PostgreSQLCluster.spawn([executable, "postgresql-worker", cluster.connection, schema])
            // The child serves alone: it holds every machine once their first event is applied.
            for key in machines {
                try await store.awaitApplied(try await store.post(.coin, to: key, as: form, idempotencyKey: "\(key)-1"))
            }
            let worker = MachineWorker(store: store, pollInterval: .milliseconds(50)) { _ in form }
            let serving = Task { await worker.run() }
            kill(child, SIGKILL)
            let killed = ContinuousClock.now
            PostgreSQLCluster.waitForExit(child)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for key in machines {
                    group.addTask {
                        try await store.awaitApplied(
                            try await store.post(.push, to: key, as: form, idempotencyKey: "\(key)-2")
                        )
                    }
                }
                try await group.waitForAll()
            }
            times.append((ContinuousClock.now - killed).nanoseconds / 1e6)
            serving.cancel()
            await serving.value
        }
        report.add(
            "postgresql.takeover",
            unit: "ms",
            Sample(values: times),
            target: .everyAtMost(3_000),
            note:
                "a worker process holding \(machines.count) machines killed with kill -9: until an event posted to each is applied by the other worker (poll interval 50 ms)"
        )
    }

    /// `Benchmarks postgresql-worker CONNECTION SCHEMA`: serves the benchmark's machines until killed.
    static func serveInThisProcess(_ arguments: [String]) async throws {
        guard arguments.count == 2 else {
            throw BenchmarkError("postgresql-worker takes a connection string and a schema")
        }
        let store = try await PostgreSQLStore(connection: arguments[0], schema: arguments[1])
        let form = try form()
        let worker = MachineWorker(store: store, idleTimeout: .seconds(3_600)) { _ in form }
        await worker.run()
    }

    /// The baseline: the statements a durable event costs, by hand on one libpq connection,
    /// on tables like the store's.
    final class ByHand: @unchecked Sendable {
        // @unchecked Sendable: each ByHand is used by one task at a time (the benchmark's
        // sequence of calls), never by two at once.
        private let handle: OpaquePointer
        private var sequences: [String: Int64] = [:]

        init(_ connection: String, schema: String, machines: [String]) throws {
            guard let handle = PQconnectdb(connection), PQstatus(handle) == CONNECTION_OK else {
                throw BenchmarkError("cannot connect to \(connection)")
            }
            self.handle = handle
            _ = PQsetNoticeProcessor(handle, { _, _ in }, nil)
            try execute(
                """
                CREATE SCHEMA IF NOT EXISTS \(schema); SET search_path TO \(schema);
                CREATE TABLE IF NOT EXISTS journal(machine text NOT NULL, sequence bigint NOT NULL, kind bigint NOT NULL,
                    payload bytea NOT NULL, idempotency_key text, time bigint NOT NULL, PRIMARY KEY(machine, sequence));
                CREATE TABLE IF NOT EXISTS machines(key text PRIMARY KEY, version text NOT NULL, fingerprint text NOT NULL,
                    state bytea NOT NULL, last_sequence bigint NOT NULL);
                CREATE TABLE IF NOT EXISTS inbox(id bigserial PRIMARY KEY, machine text NOT NULL, kind bigint NOT NULL,
                    payload bytea NOT NULL, idempotency_key text, time bigint NOT NULL);
                """
            )
            for machine in machines {
                try execute(
                    "INSERT INTO machines VALUES ('\(machine)', '1', '0', '\"locked\"', 0) ON CONFLICT DO NOTHING"
                )
            }
            try prepare("insert", "INSERT INTO journal VALUES ($1, $2, 0, $3, NULL, $4)")
            try prepare("update", "UPDATE machines SET state = $2, last_sequence = $3 WHERE key = $1")
            try prepare("post", "INSERT INTO inbox(machine, kind, payload, time) VALUES ($1, 1, $2, 0) RETURNING id")
            try prepare("consume", "DELETE FROM inbox WHERE id = $1")
            try prepare("begin", "BEGIN")
            try prepare("commit", "COMMIT")
        }

        deinit { PQfinish(handle) }

        func execute(_ sql: String) throws {
            let result = PQexec(handle, sql)
            defer { PQclear(result) }
            let status = PQresultStatus(result)
            guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
                throw BenchmarkError("PostgreSQL: \(String(cString: PQerrorMessage(handle)))")
            }
        }

        private func prepare(_ name: String, _ sql: String) throws {
            let result = PQprepare(handle, name, sql, 0, nil)
            defer { PQclear(result) }
            guard PQresultStatus(result) == PGRES_COMMAND_OK else {
                throw BenchmarkError("PostgreSQL: \(String(cString: PQerrorMessage(handle)))")
            }
        }

        /// Runs prepared statement `name` with text parameters; returns the first column of its first row.
        @discardableResult
        private func run(_ name: String, _ parameters: [String]) throws -> String? {
            let values = parameters.map { strdup($0) }
            defer { for value in values { free(value) } }
            let result = values.map { UnsafePointer<CChar>($0) }.withUnsafeBufferPointer { pointers in
                PQexecPrepared(handle, name, Int32(parameters.count), pointers.baseAddress, nil, nil, 0)
            }
            defer { PQclear(result) }
            let status = PQresultStatus(result)
            guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
                throw BenchmarkError("PostgreSQL: \(String(cString: PQerrorMessage(handle)))")
            }
            guard status == PGRES_TUPLES_OK, PQntuples(result) > 0 else { return nil }
            return String(cString: PQgetvalue(result, 0, 0))
        }

        /// Puts an event in the inbox; returns its id.
        func post(machine: String, _ event: String) throws -> String {
            try run("post", [machine, "\\x" + Array("\"\(event)\"".utf8).map { String(format: "%02x", $0) }.joined()])
                ?? "0"
        }

        /// One event: its journal row, its inbox row's removal (when posted) and the new state,
        /// in one transaction.
        func apply(machine: String, _ event: String, consuming id: String? = nil) throws {
            let sequence = (sequences[machine] ?? 0) + 1
            sequences[machine] = sequence
            let payload = "\\x" + Array("\"\(event)\"".utf8).map { String(format: "%02x", $0) }.joined()
            let state =
                "\\x"
                + Array((event == "coin" ? "\"unlocked\"" : "\"locked\"").utf8).map { String(format: "%02x", $0) }
                .joined()
            try run("begin", [])
            try run("insert", [machine, String(sequence), payload, String(sequence)])
            if let id { try run("consume", [id]) }
            try run("update", [machine, state, String(sequence)])
            try run("commit", [])
        }
    }
}
