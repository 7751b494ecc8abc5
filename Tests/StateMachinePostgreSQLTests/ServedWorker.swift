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
    let name: String
    private let process: PipedProcess<[String]>

    /// Starts a worker named `name` (its connections' application_name) on `cluster`'s
    /// database, serving the store in `schema`, appending delivered effects to `effects`.
    init(name: String, cluster: PostgreSQLCluster, schema: String, effects: String, pollMilliseconds: Int = 20) throws {
        self.name = name
        process = try PipedProcess(
            path: executable("DurableWorker").path,
            arguments: [
                "serve", cluster.connection + " application_name=\(name)", effects, schema, String(pollMilliseconds),
            ],
            initial: [],
            mergingStandardError: true
        ) { lines, line in lines.append(line) }
    }

    /// The lines the worker printed so far.
    var lines: [String] { process.seen }

    /// Waits until the worker printed a line for which `matching` holds (or its output ended).
    func waitForLine(_ matching: @escaping @Sendable (String) -> Bool) async {
        await process.wait { lines, ended in lines.contains(where: matching) || ended }
    }

    func kill() { process.kill() }

    /// Sends the worker signal `number` (SIGSTOP freezes it, SIGCONT lets it go on).
    func signal(_ number: Int32) { _ = Glibc.kill(process.processIdentifier, number) }

    /// Closes the worker's input (it closes its machines and exits) and waits for it.
    func stop() async {
        process.write("", closing: true)
        await process.waitForExit()
    }

    /// Waits until the worker has exited and its output has ended.
    func waitForExit() async { await process.waitForExit() }
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
