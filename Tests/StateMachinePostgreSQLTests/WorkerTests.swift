import Foundation
import PostgreSQLTestCluster
import StateMachineDurable
import StateMachinePostgreSQL
import StateMachineSupport
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Several worker processes serving one set of machines on one PostgreSQL store, each test on
/// a cluster of its own (started by the test, stopped even when it fails).
@Suite("Workers on PostgreSQL", .serialized, .timeLimit(.minutes(20)))
struct WorkerTests {
    static let environment = ProcessInfo.processInfo.environment
    /// The fault test's size: machines, each sent `POSTGRES_FAULT_EVENTS` events.
    static let faultMachines = environment["POSTGRES_FAULT_MACHINES"].flatMap(Int.init) ?? 100
    static let faultEvents = environment["POSTGRES_FAULT_EVENTS"].flatMap(Int.init) ?? 20
    /// The takeover bound the article states: a killed worker's machines apply a posted event
    /// within this time of the kill.
    static let takeoverBound: Duration = .seconds(3)

    /// Runs `body` with a cluster of its own, removed afterwards whatever happens.
    func withCluster<T>(_ body: (PostgreSQLCluster, String) async throws -> T) async throws -> T {
        let cluster = try await PostgreSQLCluster.start()
        defer { cluster.remove() }
        return try await withTemporaryFolder { folder in try await body(cluster, folder) }
    }

    func withTemporaryFolder<T>(_ body: (String) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("workers-\(UUID().uuidString)", isDirectory: true).path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        return try await body(folder)
    }

    /// Posts `token` to `key` with idempotency key `idempotency` (posted again after an
    /// error: the key makes it once).
    static func post(
        _ store: PostgreSQLStore,
        _ key: String,
        _ token: String,
        idempotency: String
    ) async throws -> DurablePost {
        let entry = InboxEntry(
            kind: .posted,
            payload: Tally.payload(token),
            idempotencyKey: idempotency,
            time: try await store.now()
        )
        let id = try await store.post(key, entry)
        return DurablePost(key: key, entry: id, idempotencyKey: idempotency)
    }

    /// Posts one event to each machine, eight senders at a time, each posting and then
    /// awaiting its event; returns once every one is applied. `during` runs alongside, told
    /// how many events were applied so far.
    static func round(
        _ store: PostgreSQLStore,
        _ events: [(key: String, token: String, idempotency: String)],
        during: (@Sendable (Progress) async throws -> Void)? = nil
    ) async throws {
        let progress = Progress()
        try await withThrowingTaskGroup(of: Void.self) { group in
            if let during { group.addTask { try await during(progress) } }
            for (index, event) in events.enumerated() {
                if index >= 8 { try await group.next() }
                group.addTask {
                    let posted = try await post(store, event.key, event.token, idempotency: event.idempotency)
                    try await store.awaitApplied(posted, timeout: .seconds(120))
                    progress.add()
                }
            }
            try await group.waitForAll()
        }
    }

    /// How many events of a round were applied; awaitable.
    final class Progress: Sendable {
        private let state = Lock<(count: Int, waiters: [(Int, CheckedContinuation<Void, Never>)])>((0, []))

        func add() {
            let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.count += 1
                let count = state.count
                let ready = state.waiters.filter { $0.0 <= count }.map(\.1)
                state.waiters.removeAll { $0.0 <= count }
                return ready
            }
            for continuation in ready { continuation.resume() }
        }

        /// Returns once `count` events were applied (at once for 0).
        func wait(for count: Int) async {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state in
                    if state.count >= count { return true }
                    state.waiters.append((count, continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        }
    }

    @Test(
        "several workers serve one set of machines: each posted event is applied once, in order, and its sender learns when"
    )
    func servedOnce() async throws {
        signal(SIGPIPE, SIG_IGN)
        try await withCluster { cluster, folder in
            let schema = "served"
            let store = try await PostgreSQLStore(connection: cluster.connection, schema: schema, clock: .manual)
            let workers = try (0..<3).map {
                try ServedWorker(name: "w\($0)", cluster: cluster, schema: schema, effects: folder + "/effects")
            }
            for worker in workers { await worker.waitForLine { $0 == "ready" } }
            let machines = (0..<30).map { "m\($0)" }
            var models = Dictionary(uniqueKeysWithValues: machines.map { ($0, Tally.Model()) })
            var random = SplitMix64(seed: 42)
            for step in 0..<8 {
                let tokens = ["add:1", "add:2", "add:5", "clear"]
                let events = machines.map { key in
                    (
                        key: key, token: tokens[Int.random(in: 0..<tokens.count, using: &random)],
                        idempotency: "\(key)-\(step)"
                    )
                }
                for event in events { models[event.key]!.apply(event.token, key: event.key, at: 0) }
                try await Self.round(store, events)
            }
            for key in machines {
                let stored = try #require(try await store.inspect(key))
                #expect(Tally.value(of: stored.state) == models[key]!.value, "\(key)")
                let journal = try await store.journal(of: key)
                #expect(
                    journal.compactMap(\.idempotencyKey) == (0..<8).map { "\(key)-\($0)" },
                    "\(key) applied in the order posted, once"
                )
                #expect(journal.map(\.sequence) == Array(1...8))
            }
            // A post repeated with its key is a duplicate; awaiting it returns at once.
            let again = try await Self.post(store, "m0", "add:1", idempotency: "m0-3")
            #expect(again.isDuplicate)
            try await store.awaitApplied(again)
            // Every machine is driven by one worker at a time: the workers hold disjoint sets.
            let held = try psql(
                cluster,
                """
                SELECT count(*) - count(DISTINCT objid) FROM pg_locks
                WHERE locktype = 'advisory' AND objsubid = 2 AND granted
                """
            )
            #expect(held == "0")
            for worker in workers { await worker.stop() }
            #expect(workers.allSatisfy { !$0.lines.contains { $0.hasPrefix("failure") } }, "\(workers.map(\.lines))")
        }
    }

    @Test("a worker killed with kill -9 has its machines taken over by another within the stated bound")
    func takeover() async throws {
        signal(SIGPIPE, SIG_IGN)
        try await withCluster { cluster, folder in
            let schema = "takeover"
            let store = try await PostgreSQLStore(connection: cluster.connection, schema: schema, clock: .manual)
            let first = try ServedWorker(name: "first", cluster: cluster, schema: schema, effects: folder + "/effects")
            await first.waitForLine { $0 == "ready" }
            let machines = (0..<20).map { "m\($0)" }
            try await Self.round(store, machines.map { ($0, "add:1", "\($0)-a") })
            let second = try ServedWorker(
                name: "second",
                cluster: cluster,
                schema: schema,
                effects: folder + "/effects"
            )
            await second.waitForLine { $0 == "ready" }
            // The first worker holds every machine (it served them all, and holds them while it
            // has had work recently).
            let heldByFirst = try psql(
                cluster,
                """
                SELECT count(*) FROM pg_locks JOIN pg_stat_activity USING (pid)
                WHERE locktype = 'advisory' AND objsubid = 2 AND application_name = 'first'
                """
            )
            #expect(Int(heldByFirst) ?? 0 > 0)
            first.kill()
            let killed = ContinuousClock.now
            await first.waitForExit()
            try await Self.round(store, machines.map { ($0, "add:2", "\($0)-b") })
            let takeover = ContinuousClock.now - killed
            print("takeover of \(heldByFirst) machines after kill -9: \(takeover)")
            #expect(takeover < Self.takeoverBound, "took \(takeover)")
            for key in machines {
                #expect(Tally.value(of: try #require(try await store.inspect(key)).state) == 3)
            }
            await second.stop()
        }
    }

    @Test(
        "4 workers, 2 of them killed with kill -9 at random points, the server restarted mid-run, a malformed row: every machine ends where an uninterrupted run does, every effect delivered"
    )
    func faults() async throws {
        signal(SIGPIPE, SIG_IGN)
        try await withCluster { cluster, folder in
            let schema = "faults"
            let effectsPath = folder + "/effects"
            let store = try await PostgreSQLStore(
                connection: cluster.connection,
                schema: schema,
                clock: .manual,
                reconnectTimeout: .seconds(120)
            )
            let workers = try (0..<4).map {
                try ServedWorker(name: "w\($0)", cluster: cluster, schema: schema, effects: effectsPath)
            }
            for worker in workers { await worker.waitForLine { $0 == "ready" } }
            let machines = (0..<Self.faultMachines).map { "m\($0)" }
            var models = Dictionary(uniqueKeysWithValues: machines.map { ($0, Tally.Model()) })
            var random = SplitMix64(seed: 7)
            let rounds = Self.faultEvents
            let restartRound = rounds / 2
            let killRounds = [
                Int.random(in: 1..<restartRound, using: &random),
                Int.random(in: (restartRound + 1)..<rounds, using: &random),
            ]
            let tokens = ["add:1", "add:2", "add:5", "arm", "clear"]
            let started = ContinuousClock.now
            var time: Int64 = 0
            for round in 0..<rounds {
                let events = machines.map { key in
                    (
                        key: key, token: tokens[Int.random(in: 0..<tokens.count, using: &random)],
                        idempotency: "\(key)-\(round)"
                    )
                }
                for event in events { models[event.key]!.apply(event.token, key: event.key, at: time) }
                var during: (@Sendable (Progress) async throws -> Void)?
                if let victim = killRounds.firstIndex(of: round) {
                    // Killed once a random number of this round's events were applied.
                    let worker = workers[victim]
                    let after = Int.random(in: 0..<max(1, machines.count), using: &random)
                    during = { progress in
                        await progress.wait(for: after)
                        worker.kill()
                    }
                } else if round == restartRound {
                    let after = Int.random(in: 0..<max(1, machines.count), using: &random)
                    during = { progress in
                        await progress.wait(for: after)
                        try cluster.stopServer()
                        try cluster.startServer()
                    }
                }
                try await Self.round(store, events, during: during)
                if round == 0 {
                    // A hand-edited malformed row: a machine whose stored state is not a tally.
                    try psql(
                        cluster,
                        """
                        INSERT INTO faults.machines SELECT 'bad', version, fingerprint, convert_to('not a tally', 'UTF8'), 0
                            FROM faults.machines WHERE key = 'm0';
                        INSERT INTO faults.inbox(machine, kind, payload, time) VALUES ('bad', 1, convert_to('{}', 'UTF8'), 0);
                        """
                    )
                }
                time += 7_000_000_000
                try await store.setManualTime(time)
            }
            // The clears armed last fall due; a last event shows each machine has fired them.
            time += 60_000_000_000
            try await store.setManualTime(time)
            let last = machines.map { (key: $0, token: "add:0", idempotency: "\($0)-last") }
            for event in last { models[event.key]!.apply(event.token, key: event.key, at: time) }
            try await Self.round(store, last)
            let elapsed = ContinuousClock.now - started
            // Delivered effects: the survivors deliver what the killed left undelivered.
            let survivors = workers.indices.filter { !killRounds.indices.contains($0) }.map { workers[$0] }
            let expectedEffects = Set(models.values.flatMap(\.effects))
            let delivered: [Substring] =
                await within(seconds: 60, "every effect's delivery") { () async -> [Substring] in
                    while true {
                        let text = (try? String(contentsOfFile: effectsPath, encoding: .utf8)) ?? ""
                        let lines = text.split(separator: "\n")
                        if Set(lines.map { String($0.prefix { $0 != " " }) }).isSuperset(of: expectedEffects) {
                            return lines
                        }
                        try? await Task.sleep(for: .milliseconds(20))
                    }
                } ?? []
            var payloads: [Substring: Substring] = [:]
            for line in delivered {
                let key = line.prefix { $0 != " " }
                #expect(payloads[key, default: line] == line, "effect \(key) delivered twice with different payloads")
                payloads[key] = line
            }
            let deliveredKeys = Set(payloads.keys.map(String.init))
            #expect(
                deliveredKeys == expectedEffects,
                "missing \(expectedEffects.subtracting(deliveredKeys).sorted().prefix(5)), unexpected \(deliveredKeys.subtracting(expectedEffects).sorted().prefix(5))"
            )
            var wrong: [String] = []
            for key in machines {
                let stored = try #require(try await store.inspect(key))
                if Tally.value(of: stored.state) != models[key]!.value || stored.lastSequence != models[key]!.sequence {
                    wrong.append(
                        "\(key): \(String(decoding: stored.state, as: UTF8.self)) at \(stored.lastSequence), expected \(models[key]!.value) at \(models[key]!.sequence)"
                    )
                }
            }
            #expect(wrong.isEmpty, "\(wrong.prefix(5))")
            for worker in survivors {
                #expect(
                    worker.lines.contains { $0.hasPrefix("connection lost") },
                    "\(worker.name): \(worker.lines.prefix(5))"
                )
                #expect(worker.lines.contains("connection restored"), "\(worker.name): \(worker.lines.prefix(5))")
            }
            let failures = workers.flatMap(\.lines).filter { $0.hasPrefix("failure") }
            #expect(failures.contains { $0.hasPrefix("failure machine 'bad': ") }, "\(failures.prefix(3))")
            // Besides the malformed row, a worker may report a machine another took over while it
            // reconnected after the restart (it closes it; nothing was committed twice).
            let unexpected = failures.filter {
                !$0.hasPrefix("failure machine 'bad': ")
                    && !$0.hasSuffix("was taken over by another process; close it here")
            }
            #expect(unexpected.isEmpty, "\(unexpected.prefix(3))")
            print(
                "faults: \(machines.count) machines x \(rounds + 1) events, 4 workers, killed in rounds \(killRounds), server restarted in round \(restartRound): \(elapsed), \(delivered.count) deliveries of \(expectedEffects.count) effects; bad row: \(failures.first ?? "none"); other reports: \(failures.filter { !$0.hasPrefix("failure machine 'bad'") }.prefix(3))"
            )
            for worker in survivors { await worker.stop() }
            for worker in workers where !survivors.contains(where: { $0 === worker }) { await worker.waitForExit() }
        }
    }
}
