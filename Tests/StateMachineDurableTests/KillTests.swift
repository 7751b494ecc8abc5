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

/// kill -9 while a machine of each form applies a script of events, clock moves (timers)
/// and effects: the worker process (Tests/DurableWorker) is killed at random points and
/// restarted; the final state, the journal and the delivered effects must equal an
/// uninterrupted run's. Each form runs on each store: a SQLite file, and a schema of the test
/// process's PostgreSQL cluster (where a restarted worker waits for its killed predecessor's
/// session to end, which releases its claim).
///
/// Size: `DURABLE_KILL_EVENTS` script lines (default 2,000) and `DURABLE_KILLS` kills per
/// form (default 20); `DURABLE_KILL_SYNCHRONOUS=full` commits with SQLite's FULL setting
/// (default NORMAL, which a process crash cannot defeat in WAL mode: only a power loss can).
@Suite("Durable machines killed with kill -9", .serialized, .timeLimit(.minutes(20)))
struct KillTests {
    static let environment = ProcessInfo.processInfo.environment
    static let events = environment["DURABLE_KILL_EVENTS"].flatMap(Int.init) ?? 2_000
    static let kills = environment["DURABLE_KILLS"].flatMap(Int.init) ?? 20
    static let synchronous = environment["DURABLE_KILL_SYNCHRONOUS"] ?? "normal"

    @Test(
        "the final state, journal and effects of a killed run equal an uninterrupted run's",
        arguments: KillScript.forms,
        StoreKind.allCases
    )
    func killed(form: String, kind: StoreKind) async throws {
        signal(SIGPIPE, SIG_IGN)
        var random = SplitMix64(seed: UInt64(form.utf8.reduce(41) { $0 &* 31 &+ UInt64($1) }))
        let script = KillScript.make(form: form, events: Self.events, using: &random)
        try await withTemporaryFolder { folder in
            let reference = try await KillScript.run(form, kind, script, in: folder + "/reference", killAt: [])
            #expect(reference.restarts == 0)
            var chosen: Set<Int> = []
            while chosen.count < min(Self.kills, script.count - 1) {
                chosen.insert(Int.random(in: 1..<script.count, using: &random))
            }
            let points = chosen.sorted()
            let killed = try await KillScript.run(form, kind, script, in: folder + "/killed", killAt: points)
            #expect(killed.restarts == points.count)
            #expect(killed.state == reference.state)
            #expect(killed.journal.filter { $0.kind == .sent }.count == script.filter { $0.hasPrefix("send") }.count)
            let differs = zip(killed.journal, reference.journal).first { $0 != $1 }
            #expect(killed.journal.count == reference.journal.count)
            #expect(differs == nil, "first difference: \(String(describing: differs)) (killed, uninterrupted)")
            // Every effect of the uninterrupted run was delivered, and a repeated delivery
            // repeats its key and its payload.
            #expect(Set(killed.effects) == Set(reference.effects))
            #expect(reference.effects.count == Set(reference.effects).count)
            var payloads: [Substring: String] = [:]
            for line in killed.effects {
                let key = line.prefix { $0 != " " }
                #expect(payloads[key, default: line] == line, "effect \(key) delivered with two payloads")
                payloads[key] = line
            }
            print(
                "kill -9 \(form) on \(kind.testDescription): \(script.count) lines, \(points.count) kills, \(killed.journal.count) journal entries, \(Set(killed.effects).count) effects (\(killed.effects.count - Set(killed.effects).count) delivered again with the same key)"
            )
        }
    }
}

/// The scripts the kill tests run, and a runner that kills and restarts the worker.
enum KillScript {
    static let forms = ["core", "table", "chart", "json", "scxml"]

    /// `count` lines: events of `form`, and every few events a move of the clock by 1–15 s
    /// (absolute times, so that a repeated move is harmless).
    static func make(form: String, events count: Int, using random: inout SplitMix64) -> [String] {
        let events: [String] =
            switch form {
            case "core": ["add:1", "add:2", "add:5", "arm", "clear"]
            case "table": ["coin", "coin", "push"]
            case "chart": ["open", "push", "close"]
            case "scxml": ["sell", "sell", "close"]
            default: ["open", "close", "open"]
            }
        var time: Int64 = 0
        return (0..<count).map { _ in
            if Int.random(in: 0..<8, using: &random) == 0 {
                time += Int64.random(in: 1...15, using: &random) * 1_000_000_000
                return "clock \(time)"
            }
            return "send \(events[Int.random(in: 0..<events.count, using: &random)])"
        }
    }

    /// What a run left behind.
    struct Outcome {
        var state: String
        var journal: [JournalEntry]
        var effects: [String]
        var restarts: Int
    }

    /// Runs `script` in worker processes in `folder`: each is killed (SIGKILL) once it has
    /// acknowledged the line numbered by the next of `killAt`, and the next starts from the
    /// first line not acknowledged.
    static func run(
        _ form: String,
        _ kind: StoreKind,
        _ script: [String],
        in folder: String,
        killAt points: [Int]
    ) async throws -> Outcome {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let cluster = kind == .postgresql ? try await PostgreSQLCluster.shared() : nil
        let schema = PostgreSQLCluster.uniqueSchema("kill")
        let store = cluster.map { "postgresql:\(schema)|\($0.connection)" } ?? folder + "/machines.sqlite"
        let effects = folder + "/effects.txt"
        var acknowledged = 0
        var restarts = 0
        var points = points[...]
        var state = ""
        while state.isEmpty {
            let worker = try WorkerProcess(arguments: [form, store, effects, KillTests.synchronous])
            let lines = script.indices.dropFirst(acknowledged).map { "\($0 + 1) \(script[$0])\n" }.joined()
            worker.write(lines + "dump\n")
            if let point = points.first {
                let reached = await within(seconds: 120, "line \(point) of \(form) acknowledged") {
                    await worker.waitForAcknowledgement(of: point)
                }
                worker.kill()
                await worker.waitForExit()
                points = points.dropFirst()
                restarts += 1
                guard reached != nil else { throw CocoaError(.executableLoad) }
            } else {
                let final = await within(seconds: 300, "the \(form) worker's final state") {
                    await worker.waitForState()
                }
                await worker.waitForExit()
                guard let final, let final else { throw CocoaError(.executableLoad) }
                state = final
            }
            // Lines are acknowledged in order: the next worker starts after the last.
            acknowledged = max(acknowledged, worker.lastAcknowledged)
        }
        let reader: any DurableStore =
            if let cluster {
                try await PostgreSQLStore(connection: cluster.connection, schema: schema, clock: .manual)
            } else {
                try SQLiteStore(path: store, mode: .readOnly, clock: .manual)
            }
        let journal = try await reader.journal(of: "machine")
        let delivered = (try? String(contentsOfFile: effects, encoding: .utf8)) ?? ""
        return Outcome(
            state: state,
            journal: journal,
            effects: delivered.split(separator: "\n").map(String.init),
            restarts: restarts
        )
    }
}

/// A DurableWorker process on pipes (``PipedProcess``): its acknowledgements and its final
/// state, read from its output.
final class WorkerProcess: Sendable {
    struct Seen: Sendable {
        var lastAcknowledged = 0
        var state: String?
    }

    private let process: PipedProcess<Seen>

    /// The worker's process ID.
    var processIdentifier: pid_t { process.processIdentifier }

    init(arguments: [String]) throws {
        process = try PipedProcess(path: executable("DurableWorker").path, arguments: arguments, initial: Seen()) {
            seen,
            line in
            if line.hasPrefix("ok "), let number = Int(line.dropFirst(3)) {
                seen.lastAcknowledged = max(seen.lastAcknowledged, number)
            } else if line.hasPrefix("state ") {
                seen.state = String(line.dropFirst(6))
            }
        }
    }

    /// Writes `text` to the worker's input from another thread, closing it after when `closing`.
    func write(_ text: String, closing: Bool = true) { process.write(text, closing: closing) }

    var lastAcknowledged: Int { process.seen.lastAcknowledged }

    func waitForAcknowledgement(of line: Int) async {
        await process.wait { seen, ended in seen.lastAcknowledged >= line || ended }
    }

    func waitForState() async -> String? {
        await process.wait { seen, ended in seen.state != nil || ended }
        return process.seen.state
    }

    func kill() { process.kill() }

    /// Waits until the worker has exited and its output has ended.
    func waitForExit() async { await process.waitForExit() }
}
