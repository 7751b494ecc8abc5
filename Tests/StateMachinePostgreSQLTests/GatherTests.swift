import Foundation
import PostgreSQLTestCluster
import StateMachineDurable
import StateMachinePostgreSQL
import StateMachineSupport
import Testing

// Run one test at a time with the other tests of `WorkerTests` (each starts a cluster of its
// own; side by side on a loaded host they would blur each other's bounds).
extension WorkerTests {
    /// A worker told of posts right after a pull gathers them for `gatherWindow`.
    @Suite("Gathering posts on PostgreSQL")
    struct GatherTests {
        @Test("posts told of within the gather window after a pull wait for it, and are all applied")
        func postsWaitForTheWindow() async throws {
            let cluster = try await PostgreSQLCluster.start()
            defer { cluster.remove() }
            let form = PartitionTests.form()
            let poster = try await PostgreSQLStore(connection: cluster.connection, schema: "gather")
            let keys = (0..<5).map { "m\($0)" }
            // Posted before the worker runs: its first round takes every machine. Rounds are
            // then 30 s apart, so every later post is applied by a pull it is told of.
            var first: [DurablePost] = []
            for key in keys { first.append(try await poster.post(PartitionTests.Add(amount: 1), to: key, as: form)) }
            let window = Duration.milliseconds(400)
            let worker = MachineWorker(
                store: try await PostgreSQLStore(connection: cluster.connection, schema: "gather"),
                pollInterval: .seconds(30),
                gatherWindow: window,
                form: { _ in form }
            )
            let serving = Task { await worker.run() }
            defer { serving.cancel() }
            for post in first { try await poster.awaitApplied(post, timeout: .seconds(30)) }
            #expect(await worker.heldMachines == keys)

            // A post to m0 is pulled; the posts right after it wait for the window (less the
            // awaiting's polling, at most 50 ms), then go together. A round looks for work once
            // more when the worker's listener has connected, and would pull them at once: of
            // three tries, at least the last ones are told of, so the longest wait shows it.
            let clock = ContinuousClock()
            var waits: [Duration] = []
            for _ in 0..<3 {
                try await poster.awaitApplied(
                    try await poster.post(PartitionTests.Add(amount: 1), to: "m0", as: form),
                    timeout: .seconds(30)
                )
                let pulled = clock.now
                var posts: [DurablePost] = []
                for key in keys.dropFirst() {
                    posts.append(try await poster.post(PartitionTests.Add(amount: 1), to: key, as: form))
                }
                for post in posts { try await poster.awaitApplied(post, timeout: .seconds(30)) }
                waits.append(clock.now - pulled)
            }
            #expect(waits.max()! >= window - .milliseconds(100), "applied \(waits) after the previous pull")
            serving.cancel()
            await serving.value
            for key in keys {
                #expect(try await poster.journal(of: key).count == 4, "\(key)")
            }
        }
    }
}
