import Foundation
import PostgreSQLTestCluster
import StateMachineCore
import StateMachineDurable
import StateMachinePostgreSQL
import StateMachineSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

// Run one test at a time with the other tests of `WorkerTests` (each starts a cluster and
// processes of its own; side by side on a loaded host they would blur each other's bounds).
extension WorkerTests {
    /// A process cut off from the server, as in a network partition that the server notices
    /// (it ends the process's sessions, and their advisory locks with them): another process
    /// takes its machines over, and the cut-off one, back, commits nothing for them. Each test
    /// on a cluster of its own, stopped even when it fails.
    @Suite("Partitions on PostgreSQL")
    struct PartitionTests {
        enum CountEvent {}

        struct Count: State, Codable, Hashable {
            var value: Int
            var superState: Int { value }
        }

        struct Add: Event, Codable {
            typealias SuperEvent = CountEvent
            var amount: Int
        }

        /// A counter, as a durable Core machine.
        static func form() -> DurableCore<Int, CountEvent> {
            let machine = StateMachine<Int, CountEvent>(initial: Count(value: 0)) {
                When(state: Count.self) {
                    On(event: Add.self) { state, event in Transition(state: Count(value: state.value + event.amount)) }
                }
            }
            var types = DurableTypes<Int, CountEvent>()
            types.state(Count.self, named: "count")
            types.event(Add.self, named: "add")
            return DurableCore(machine, version: "1", types: types)
        }

        /// The server ends the sessions of the process whose connections are named `name`;
        /// returns once they are gone (and their locks with them), failing after 10 s.
        static func cutOff(_ name: String, on cluster: PostgreSQLCluster) async throws {
            try psql(
                cluster,
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = '\(name)'"
            )
            let deadline = ContinuousClock.now + .seconds(10)
            while try psql(cluster, "SELECT count(*) FROM pg_stat_activity WHERE application_name = '\(name)'") != "0" {
                guard ContinuousClock.now < deadline else { throw ClusterError("the sessions of \(name) did not end") }
                try await Task.sleep(for: .milliseconds(10))
            }
        }

        @Test(
            "a store whose sessions the server ended loses its machine to another store; back, its send is refused with claimLost and applies nothing"
        )
        func storeCutOff() async throws {
            let cluster = try await PostgreSQLCluster.start()
            defer { cluster.remove() }
            let events = Lock<[PostgreSQLStore.ConnectionEvent]>([])
            let cut = try await PostgreSQLStore(
                connection: cluster.connection + " application_name=cut",
                schema: "cut",
                onConnectionEvent: { event in events.withLock { $0.append(event) } }
            )
            let other = try await PostgreSQLStore(connection: cluster.connection, schema: "cut")
            let form = Self.form()
            let first = try await cut.open("m", form)
            try await first.send(Add(amount: 1))
            await #expect(throws: DurableError.self) { _ = try await other.open("m", form) }

            try await Self.cutOff("cut", on: cluster)
            // Its lock went with its session: the other store takes the machine over.
            let second = try await other.open("m", form)
            try await second.send(Add(amount: 10))
            // Back: the first store reconnects (on a read, so that the send below is a first try,
            // not the repeat of a cut-off one), but the claim's epoch moved on: the commit's
            // fence refuses it.
            _ = try await cut.inspect("m")
            do {
                try await first.send(Add(amount: 100))
                Issue.record("a send for a machine taken over was committed")
            } catch DurableError.claimLost(let key) {
                #expect(key == "m")
            }
            #expect(await first.hasLostClaim)
            // It told of the lost connection, and of its return.
            let told = events.withLock { $0 }
            #expect(told.count == 2, "\(told)")
            if case .lost = told.first {} else { Issue.record("no lost connection reported: \(told)") }
            #expect(told.last == .restored)
            try await second.send(Add(amount: 5))
            let journal = try await other.journal(of: "m")
            #expect(journal.map(\.sequence) == [1, 2, 3])
            #expect(journal.map { String(decoding: $0.payload, as: UTF8.self) }.allSatisfy { !$0.contains("100") })
            let stored = try #require(try await other.inspect("m"))
            #expect(String(decoding: stored.state, as: UTF8.self).contains("16"))
            await first.close()
            await second.close()
        }

        @Test(
            "a worker cut off from the server has its machines taken over within the stated bound; back, it applies nothing twice"
        )
        func workerCutOff() async throws {
            signal(SIGPIPE, SIG_IGN)
            let cluster = try await PostgreSQLCluster.start()
            defer { cluster.remove() }
            let effects = FileManager.default.temporaryDirectory.appendingPathComponent(
                "partition-\(UUID().uuidString)"
            )
            .path
            defer { try? FileManager.default.removeItem(atPath: effects) }
            let schema = "partition"
            let store = try await PostgreSQLStore(connection: cluster.connection, schema: schema, clock: .manual)
            let first = try ServedWorker(name: "first", cluster: cluster, schema: schema, effects: effects)
            await first.waitForLine { $0 == "ready" }
            let machines = (0..<20).map { "m\($0)" }
            try await WorkerTests.round(store, machines.map { ($0, "add:1", "\($0)-a") })
            let second = try ServedWorker(name: "second", cluster: cluster, schema: schema, effects: effects)
            await second.waitForLine { $0 == "ready" }

            // Frozen, it cannot talk to the server, like a process on the far side of a partition;
            // the server notices and ends its sessions.
            first.signal(SIGSTOP)
            try await Self.cutOff("first", on: cluster)
            let cut = ContinuousClock.now
            try await WorkerTests.round(store, machines.map { ($0, "add:2", "\($0)-b") })
            let takeover = ContinuousClock.now - cut
            print("takeover of 20 machines from a worker cut off: \(takeover)")
            #expect(takeover < WorkerTests.takeoverBound, "took \(takeover)")

            // Back, it reconnects and serves beside the other; every event is still applied once.
            first.signal(SIGCONT)
            try await WorkerTests.round(store, machines.map { ($0, "add:4", "\($0)-c") })
            for key in machines {
                let stored = try #require(try await store.inspect(key))
                #expect(Tally.value(of: stored.state) == 7, "\(key)")
                let journal = try await store.journal(of: key)
                #expect(journal.compactMap(\.idempotencyKey) == ["\(key)-a", "\(key)-b", "\(key)-c"], "\(key)")
            }
            await first.stop()
            await second.stop()
        }
    }
}
