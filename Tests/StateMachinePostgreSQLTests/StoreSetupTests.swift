import Foundation
import PostgreSQLTestCluster
import StateMachineDurable
import StateMachinePostgreSQL
import StateMachineSupport
import Testing

// Run one test at a time with the other tests of `WorkerTests` (each starts a cluster and
// processes of its own; side by side on a loaded host they would blur each other's bounds).
extension WorkerTests {
    /// Stores made while others run on the same schema (a worker process starting beside
    /// running ones), on a cluster of its own.
    @Suite("Store setup on PostgreSQL")
    struct StoreSetupTests {
        @Test(
            "stores made on a schema that running workers commit to leave its tables alone: no deadlock, every post applied"
        )
        func madeWhileOthersCommit() async throws {
            let cluster = try await PostgreSQLCluster.start()
            defer { cluster.remove() }
            let form = PartitionTests.form()
            let poster = try await PostgreSQLStore(connection: cluster.connection, schema: "busy")
            let failures = Lock<[String]>([])
            let worker = MachineWorker(
                store: try await PostgreSQLStore(connection: cluster.connection, schema: "busy"),
                onFailure: { failure in failures.withLock { $0.append("\(failure)") } },
                form: { _ in form }
            )
            let serving = Task { await worker.run() }
            // Posts, each applied by a commit that checks its claim and consumes its inbox entry.
            let posting = Task {
                var last: [String: DurablePost] = [:]
                while !Task.isCancelled {
                    let key = "m\(last.count % 10)"
                    last[key] = try await poster.post(PartitionTests.Add(amount: 1), to: key, as: form)
                    if last.count == 10 { try? await Task.sleep(for: .milliseconds(1)) }
                }
                return Array(last.values)
            }
            // Each new store used to alter `claims` while holding a lock on the inbox (taken by
            // its CREATE INDEX IF NOT EXISTS), as the commits did the reverse: PostgreSQL found a
            // deadlock and failed one of them.
            for _ in 0..<20 {
                _ = try await PostgreSQLStore(connection: cluster.connection, schema: "busy")
            }
            posting.cancel()
            for post in try await posting.value { try await poster.awaitApplied(post, timeout: .seconds(30)) }
            serving.cancel()
            await serving.value
            #expect(failures.withLock { $0 } == [])
        }

        @Test("a schema of an earlier layout is brought up to this one, its rows kept")
        func earlierLayoutUpgraded() async throws {
            let cluster = try await PostgreSQLCluster.start()
            defer { cluster.remove() }
            let form = PartitionTests.form()
            let store = try await PostgreSQLStore(connection: cluster.connection, schema: "old")
            let machine = try await store.open("m", form)
            try await machine.send(PartitionTests.Add(amount: 3))
            await machine.close()
            // The previous layout: functions that set their search path, no layout comment.
            _ = try psql(
                cluster,
                """
                ALTER FUNCTION old.durable_fence(text, bigint) SET search_path = old;
                ALTER FUNCTION old.durable_posted() SET search_path = old;
                COMMENT ON SCHEMA old IS NULL;
                """
            )
            let upgraded = try await PostgreSQLStore(connection: cluster.connection, schema: "old")
            #expect(
                try psql(cluster, "SELECT obj_description('old'::regnamespace, 'pg_namespace')")
                    == "durable machines, layout 2"
            )
            #expect(
                try psql(
                    cluster,
                    "SELECT count(*) FROM pg_proc WHERE pronamespace = 'old'::regnamespace AND proconfig IS NOT NULL"
                ) == "0"
            )
            let reopened = try await upgraded.open("m", form)
            try await reopened.send(PartitionTests.Add(amount: 4))
            #expect(await reopened.state.superState == 7)
            await reopened.close()
        }
    }
}
