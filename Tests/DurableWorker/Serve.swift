import Foundation
import StateMachineDurable
import StateMachinePostgreSQL

/// Serves the tally machines of the PostgreSQL store `connection`/`schema` until standard
/// input closes (or the process is killed).
func serve(connection: String, schema: String, pollMilliseconds: Int) async {
    let store: PostgreSQLStore
    do {
        store = try await PostgreSQLStore(
            connection: connection,
            schema: schema,
            clock: .manual,
            reconnectTimeout: .seconds(120),
            onConnectionEvent: { event in
                switch event {
                case .lost(let message): say("connection lost: \(message.split(separator: "\n").first ?? "")")
                case .restored: say("connection restored")
                }
            }
        )
    } catch {
        say("failure store: \(error)")
        exit(1)
    }
    let worker = MachineWorker(
        store: store,
        pollInterval: .milliseconds(pollMilliseconds),
        onFailure: { failure in say("failure \(failure)") },
        form: { _ in WorkerForms.core() }
    )
    let serving = Task { await worker.run() }
    say("ready")
    // Standard input closing (the test ending) stops the worker.
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        Thread.detachNewThread {
            while readLine() != nil {}
            done.resume()
        }
    }
    serving.cancel()
    await serving.value
}
