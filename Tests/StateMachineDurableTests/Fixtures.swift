import Foundation
import PostgreSQLTestCluster
import StateMachineDurable
import StateMachineHierarchy
import StateMachinePostgreSQL
import StateMachineSupport
import StateMachineTable
import TestSupport
import Testing

/// A folder of its own under the system's temporary folder, removed when `body` returns or throws.
func withTemporaryFolder<T>(_ body: (String) async throws -> T) async throws -> T {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("durable-\(UUID().uuidString)", isDirectory: true).path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    return try await body(folder)
}

/// What effect handlers saw, in order.
final class Deliveries: Sendable {
    private let keys = Lock<[String]>([])

    func record(_ effect: DeliveredEffect) { keys.withLock { $0.append("\(effect.name) \(effect.key)") } }
    var all: [String] { keys.withLock { $0 } }
}

/// A turnstile table: a coin unlocks it (emitting "unlock"), a push locks it, and an
/// unlocked turnstile locks itself after 30 s (a scheduled event).
enum Gate: String, Codable, Hashable, Sendable { case locked, unlocked }
enum Input: String, Codable, Hashable, Sendable { case coin, push, timeout }

struct TurnstileTable: SyntaxBuilder {
    typealias State = Gate
    typealias Event = Input

    func build(in state: Gate, _ effects: DurableEffects) throws -> FSM<Gate, Input> {
        let fsm = FSM<Gate, Input>(initialState: state)
        try fsm.buildTable {
            define(.locked) {
                when(.coin) | then(.unlocked) | {
                    effects.emit("unlock", ["gate": 3])
                    effects.schedule(Input.timeout, after: .seconds(30), id: "relock")
                }
            }
            define(.unlocked) {
                when(.push) | then(.locked) | { effects.cancelScheduled("relock") }
                when(.timeout) | then(.locked)
            }
        }
        return fsm
    }
}

func turnstile(
    _ deliveries: Deliveries,
    version: String = "1",
    failing: Bool = false
) throws -> DurableTable<Gate, Input> {
    try DurableTable<Gate, Input>(
        version: version,
        initialState: .locked,
        effects: [
            "unlock": { effect in
                if failing { throw CocoaError(.featureUnsupported) }
                deliveries.record(effect)
                return nil
            }
        ]
    ) { state, effects in
        try TurnstileTable().build(in: state, effects)
    }
}

typealias Chart = Statechart<String, String, Int>

/// A door chart: "open" opens it, it closes itself 10 s later; opening emits "opened".
func doorChart(_ deliveries: Deliveries, version: String = "1") throws -> DurableStatechart<String, String, Int> {
    try DurableStatechart<String, String, Int>(
        version: version,
        effects: [
            "opened": { effect in
                deliveries.record(effect)
                return nil
            }
        ]
    ) { effects in
        Chart.Definition(name: "door") {
            Chart.State("closed").on("open", to: "opened", action: { _ in effects.emit("opened") })
            Chart.State("opened")
                .on("close", to: "closed")
                .after(.seconds(10), to: "closed")
        }
    }
}

/// The stores every guarantee is tested on: the same test runs once on each.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgresql

    var testDescription: String { self == .sqlite ? "SQLite" : "PostgreSQL" }
}

/// Where a test's stores live: a temporary folder (SQLite's file), or a schema of its own in
/// the test process's PostgreSQL cluster. `open` opens the test's store, again and again:
/// each call is another connection to the same data, as another program's would be.
struct TestStores: Sendable {
    let kind: StoreKind
    let folder: String
    let schema: String
    let cluster: PostgreSQLCluster?

    func open(clock: DurableClock = .system) async throws -> any DurableStore {
        switch kind {
        case .sqlite: try SQLiteStore(path: folder + "/m.sqlite", clock: clock)
        case .postgresql: try await PostgreSQLStore(connection: cluster!.connection, schema: schema, clock: clock)
        }
    }
}

/// Runs `body` with a fresh store of `kind` (removed afterwards).
func withStores<T>(_ kind: StoreKind, _ body: (TestStores) async throws -> T) async throws -> T {
    try await withTemporaryFolder { folder in
        let cluster = kind == .postgresql ? try await PostgreSQLCluster.shared() : nil
        return try await body(
            TestStores(kind: kind, folder: folder, schema: PostgreSQLCluster.uniqueSchema(), cluster: cluster)
        )
    }
}
