import Foundation
import PostgreSQLTestCluster
import StateMachineDurable
import StateMachinePostgreSQL
import StateMachineSupport
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A `DurableWorker serve` process (Tests/DurableWorker/Serve.swift): a MachineWorker serving
/// the tally machines of one PostgreSQL store, on the store's manual clock. Its output lines
/// are kept; it stops when its input closes, or when it is killed.
final class ServedWorker: Sendable {
    let processIdentifier: pid_t
    let name: String
    private let input: Int32
    private let shared = Lock(Seen())

    struct Seen {
        var lines: [String] = []
        var partial = ""
        var ended = false
        var exited = false
        var waiters: [(condition: @Sendable (Seen) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
    }

    /// Starts a worker named `name` (its connections' application_name) on `cluster`'s
    /// database, serving the store in `schema`, appending delivered effects to `effects`.
    init(name: String, cluster: PostgreSQLCluster, schema: String, effects: String, pollMilliseconds: Int = 20) throws {
        self.name = name
        var toChild: [Int32] = [0, 0]
        var fromChild: [Int32] = [0, 0]
        guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else { throw POSIXError(.EMFILE) }
        for descriptor in toChild + fromChild { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 2)
        let path = executable("DurableWorker").path
        let arguments = [
            path, "serve", cluster.connection + " application_name=\(name)", effects, schema, String(pollMilliseconds),
        ]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
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

    /// The lines the worker printed so far.
    var lines: [String] { shared.withLock { $0.lines } }

    /// Waits until the worker printed a line for which `matching` holds (or its output ended).
    func waitForLine(_ matching: @escaping @Sendable (String) -> Bool) async {
        await wait { $0.lines.contains(where: matching) || $0.ended }
    }

    func kill() { Glibc.kill(processIdentifier, SIGKILL) }

    /// Closes the worker's input (it closes its machines and exits) and waits for it.
    func stop() async {
        close(input)
        await wait { $0.exited && $0.ended }
    }

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

extension ServedWorker.Seen {
    mutating func receive(_ text: String) {
        partial += text
        while let newline = partial.firstIndex(of: "\n") {
            lines.append(String(partial[..<newline]))
            partial.removeSubrange(...newline)
        }
    }
}

/// Runs `sql` with psql on `cluster`'s database; returns its unaligned output.
@discardableResult
func psql(_ cluster: PostgreSQLCluster, _ sql: String) throws -> String {
    var output: [Int32] = [0, 0]
    guard pipe(&output) == 0 else { throw POSIXError(.EMFILE) }
    for descriptor in output { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
    let process = try PostgreSQLCluster.spawn(
        ["/usr/bin/psql", "-X", "-v", "ON_ERROR_STOP=1", "-At", "-d", cluster.connection, "-c", sql],
        output: output[1]
    )
    close(output[1])
    let data = FileHandle(fileDescriptor: output[0], closeOnDealloc: true).readDataToEndOfFile()
    let text = String(decoding: data, as: UTF8.self)
    guard PostgreSQLCluster.waitForExit(process) == 0 else { throw ClusterError("psql failed: \(text)") }
    return text.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// The tally machines the workers serve (Tests/DurableWorker/WorkerForms.swift's Core form),
/// seen from outside: their events' encoding, and what a run of them must end with.
enum Tally {
    /// The encoded event for `token`: `add:N`, `arm` (clears the tally 20 s later) or `clear`.
    static func payload(_ token: String) -> Data {
        if token.hasPrefix("add:") { return Data(#"{"type":"add","value":{"amount":\#(token.dropFirst(4))}}"#.utf8) }
        return Data(#"{"type":"\#(token)","value":{}}"#.utf8)
    }

    /// The value in a stored tally state (`{"type":"tally","value":{"value":N}}`).
    static func value(of state: Data) -> Int? {
        guard let object = try? JSONSerialization.jsonObject(with: state) as? [String: Any],
            let inner = object["value"] as? [String: Any]
        else { return nil }
        return inner["value"] as? Int
    }

    /// A machine as an uninterrupted run leaves it: its value, its journal's length, its
    /// pending clear and the keys of its announcements.
    struct Model {
        var value = 0
        var sequence: Int64 = 0
        var due: Int64?
        var effects: [String] = []

        /// The clock moved to `time`: a clear that fell due fires.
        mutating func advance(to time: Int64) {
            if let due, due <= time {
                sequence += 1
                value = 0
                self.due = nil
            }
        }

        mutating func apply(_ token: String, key: String, at time: Int64) {
            advance(to: time)
            sequence += 1
            if token.hasPrefix("add:") {
                value += Int(token.dropFirst(4))!
                effects.append("\(key)/\(sequence)/0")
            } else if token == "arm" {
                due = time + 20_000_000_000
            } else {
                value = 0
            }
        }
    }
}
