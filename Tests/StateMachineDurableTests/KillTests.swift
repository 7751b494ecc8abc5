import Foundation
import StateMachineDurable
import StateMachineSupport
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// kill -9 while a machine of each form applies a script of events, clock moves (timers)
/// and effects: the worker process (Tests/DurableWorker) is killed at random points and
/// restarted; the final state, the journal and the delivered effects must equal an
/// uninterrupted run's.
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

    @Test("the final state, journal and effects of a killed run equal an uninterrupted run's", arguments: KillScript.forms)
    func killed(form: String) async throws {
        signal(SIGPIPE, SIG_IGN)
        var random = SplitMix64(seed: UInt64(form.utf8.reduce(41) { $0 &* 31 &+ UInt64($1) }))
        let script = KillScript.make(form: form, events: Self.events, using: &random)
        try await withTemporaryFolder { folder in
            let reference = try await KillScript.run(form, script, in: folder + "/reference", killAt: [])
            #expect(reference.restarts == 0)
            var chosen: Set<Int> = []
            while chosen.count < min(Self.kills, script.count - 1) { chosen.insert(Int.random(in: 1..<script.count, using: &random)) }
            let points = chosen.sorted()
            let killed = try await KillScript.run(form, script, in: folder + "/killed", killAt: points)
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
            print("kill -9 \(form): \(script.count) lines, \(points.count) kills, \(killed.journal.count) journal entries, \(Set(killed.effects).count) effects (\(killed.effects.count - Set(killed.effects).count) delivered again with the same key)")
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
    static func run(_ form: String, _ script: [String], in folder: String, killAt points: [Int]) async throws -> Outcome {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let store = folder + "/machines.sqlite"
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
                let final = await within(seconds: 300, "the \(form) worker's final state") { await worker.waitForState() }
                await worker.waitForExit()
                guard let final, let final else { throw CocoaError(.executableLoad) }
                state = final
            }
            // Lines are acknowledged in order: the next worker starts after the last.
            acknowledged = max(acknowledged, worker.lastAcknowledged)
        }
        let reader = try SQLiteStore(path: store, mode: .readOnly, clock: .manual)
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

/// A worker process on pipes, spawned with `posix_spawn` (not Foundation's `Process`,
/// whose dispatch sources race with a child killed while its pipes are in use): its input
/// written from a thread of its own (a killed worker's pipe fails the writes, which are
/// dropped), its output read line by line by another.
final class WorkerProcess: Sendable {
    /// The worker's process ID.
    let processIdentifier: pid_t
    private let input: Int32
    private let shared = Lock(Seen())

    fileprivate struct Seen {
        var partial = ""
        var lastAcknowledged = 0
        var state: String?
        var ended = false
        var exited = false
        var waiters: [(condition: @Sendable (Seen) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
    }

    init(arguments: [String]) throws {
        var toChild: [Int32] = [0, 0]
        var fromChild: [Int32] = [0, 0]
        guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else { throw POSIXError(.EMFILE) }
        // Not inherited by other children this process spawns meanwhile.
        for descriptor in toChild + fromChild { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        let path = executable("DurableWorker").path
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, nil, argv, environ)
        close(toChild[0])
        close(fromChild[1])
        guard status == 0 else {
            close(toChild[1])
            close(fromChild[0])
            throw POSIXError(POSIXErrorCode(rawValue: status) ?? .ENOEXEC)
        }
        processIdentifier = pid
        input = toChild[1]
        let output = fromChild[0]
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(output, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                update { $0.receive(String(decoding: buffer[..<count], as: UTF8.self)) }
            }
            close(output)
            update { $0.ended = true }
        }
        let spawned = pid
        Thread.detachNewThread { [self] in
            var status: Int32 = 0
            while waitpid(spawned, &status, 0) < 0, errno == EINTR {}
            update { $0.exited = true }
        }
    }

    /// Writes `text` to the worker's input from another thread, closing it after when `closing`.
    func write(_ text: String, closing: Bool = true) {
        let input = input
        Thread.detachNewThread {
            let bytes = Array(text.utf8)
            var offset = 0
            while offset < bytes.count {
                let count = bytes[offset...].withUnsafeBytes { Glibc.write(input, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                offset += count
            }
            if closing { close(input) }
        }
    }

    var lastAcknowledged: Int { shared.withLock { $0.lastAcknowledged } }

    func waitForAcknowledgement(of line: Int) async {
        await wait { $0.lastAcknowledged >= line || $0.ended }
    }

    func waitForState() async -> String? {
        await wait { $0.state != nil || $0.ended }
        return shared.withLock { $0.state }
    }

    func kill() { Glibc.kill(processIdentifier, SIGKILL) }

    /// Waits until the worker has exited and its output has ended.
    func waitForExit() async {
        await wait { $0.exited && $0.ended }
    }

    private func wait(until condition: @escaping @Sendable (Seen) -> Bool) async {
        await withCheckedContinuation { continuation in
            let ready = shared.withLock { seen in
                if condition(seen) { return true }
                seen.waiters.append((condition, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private func update(_ change: (inout Seen) -> Void) {
        let ready = shared.withLock { seen -> [CheckedContinuation<Void, Never>] in
            change(&seen)
            var ready: [CheckedContinuation<Void, Never>] = []
            let snapshot = seen
            seen.waiters.removeAll { waiter in
                guard waiter.condition(snapshot) else { return false }
                ready.append(waiter.continuation)
                return true
            }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }
}

extension WorkerProcess.Seen {
    /// Takes in output: each complete line is an acknowledgement or the final state.
    mutating func receive(_ text: String) {
        partial += text
        while let newline = partial.firstIndex(of: "\n") {
            let line = partial[..<newline]
            if line.hasPrefix("ok "), let number = Int(line.dropFirst(3)) {
                lastAcknowledged = max(lastAcknowledged, number)
            } else if line.hasPrefix("state ") {
                state = String(line.dropFirst(6))
            }
            partial.removeSubrange(...newline)
        }
    }
}
