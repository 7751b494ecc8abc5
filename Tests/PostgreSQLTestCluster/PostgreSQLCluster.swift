import CSpawn
import Foundation
import StateMachineSupport

#if canImport(Glibc)
import Glibc
#endif

/// A PostgreSQL cluster of a test's own: `initdb` into a short temporary folder
/// (`/tmp/ssmpg.PID.N`), owned by and run as the `postgres` user when the tests run as root
/// (PostgreSQL refuses to run as root; CI runs as root), listening only on a Unix socket in
/// that folder, with `fsync=off` (the tests kill processes, not the machine).
///
/// A guard shell owns the cluster: it starts it, then waits for its standard input to close,
/// and then stops it and removes the folder. The tests hold the other end of that pipe, so the
/// cluster stops when they finish, fail or are killed; a cluster left by a test process that
/// was killed before its guard could clean up (kill -9 of both) is removed by the next run.
public final class PostgreSQLCluster: Sendable {
    /// The folder: the data directory in `data`, the socket and the server's log.
    public let folder: String
    /// A libpq connection string for database `postgres` as user `postgres`.
    public var connection: String { "host=\(folder) dbname=postgres user=postgres connect_timeout=5" }

    private let guardInput: Int32
    private let guardProcess: pid_t

    private static let counter = Lock(0)
    private static let shared = Lock<PostgreSQLCluster?>(nil)
    private static let starting = Lock(false)

    /// The test process's shared cluster, started on first use; each test uses a schema of
    /// its own in it. Stopped when the test process exits.
    public static func shared() async throws -> PostgreSQLCluster {
        while true {
            if let cluster = shared.withLock({ $0 }) { return cluster }
            let mine = starting.withLock { starting -> Bool in
                if starting { return false }
                starting = true
                return true
            }
            if mine {
                do {
                    let cluster = try await PostgreSQLCluster.start()
                    shared.withLock { $0 = cluster }
                    return cluster
                } catch {
                    starting.withLock { $0 = false }
                    throw error
                }
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// A schema name no other test of this run uses.
    public static func uniqueSchema(_ prefix: String = "t") -> String {
        let number = counter.withLock { counter -> Int in
            counter += 1
            return counter
        }
        return "\(prefix)_\(getpid())_\(number)"
    }

    /// Starts a cluster of its own (for a test that stops and restarts its server).
    public static func start() async throws -> PostgreSQLCluster {
        removeAbandoned()
        let number = counter.withLock {
            $0 += 1
            return $0
        }
        let folder = "/tmp/ssmpg.\(getpid()).\(number)"
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        if getuid() == 0 {
            guard let user = getpwnam("postgres") else {
                throw ClusterError(
                    "the tests run as root and there is no postgres user (install postgresql: scripts/setup)"
                )
            }
            chown(folder, user.pointee.pw_uid, user.pointee.pw_gid)
        }
        // Spawned directly (not with Foundation's Process, whose wait for a child can miss
        // its exit when other threads reap their own children): the guard's input is a pipe
        // whose write end only this process holds (close-on-exec).
        var input: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        guard pipe(&input) == 0, pipe(&output) == 0 else { throw ClusterError("no pipe for the cluster's guard") }
        for descriptor in input + output { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        let guardProcess = try spawn(
            ["/bin/sh", "-c", guardScript, "guard", folder, asPostgres, binaries],
            input: input[0],
            output: output[1]
        )
        close(input[0])
        close(output[1])
        let line = await readLine(FileHandle(fileDescriptor: output[0], closeOnDealloc: true))
        guard line == "ready" else {
            close(input[1])
            waitForExit(guardProcess)
            throw ClusterError("the test cluster in \(folder) did not start: \(line)")
        }
        return PostgreSQLCluster(folder: folder, guardInput: input[1], guardProcess: guardProcess)
    }

    private init(folder: String, guardInput: Int32, guardProcess: pid_t) {
        self.folder = folder
        self.guardInput = guardInput
        self.guardProcess = guardProcess
    }

    /// Stops the server (fast shutdown: connections are closed), keeping its data.
    public func stopServer() throws { try control("stop -m fast") }

    /// Starts the stopped server again.
    public func startServer() throws { try control("start") }

    /// Stops the server and removes the folder; returns once done.
    public func remove() {
        close(guardInput)
        Self.waitForExit(guardProcess)
    }

    /// Starts `arguments` with standard input and output (and error) on the given
    /// descriptors (the caller's when nil); returns its process ID. No other descriptor of
    /// this process reaches the child (see `spawn_process`).
    public static func spawn(_ arguments: [String], input: Int32? = nil, output: Int32? = nil) throws -> pid_t {
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let status = spawn_process(&pid, arguments[0], argv, environ, input ?? -1, output ?? -1, output ?? -1, 0)
        guard status == 0 else { throw ClusterError("cannot start \(arguments[0]): error \(status)") }
        return pid
    }

    /// Waits for process `pid` to exit; returns its exit status (-1 when killed).
    @discardableResult
    public static func waitForExit(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return status & 0x7f == 0 ? (status >> 8) & 0xff : -1
    }

    private func control(_ action: String) throws {
        let process = try Self.spawn([
            "/bin/sh", "-c", "$2 \"$3/pg_ctl\" -D \"$1/data\" -l \"$1/log\" -w -o \"$4\" \(action) >/dev/null",
            "control", folder,
            Self.asPostgres, Self.binaries, Self.serverOptions(folder),
        ])
        guard Self.waitForExit(process) == 0 else {
            throw ClusterError("pg_ctl \(action) failed in \(folder) (see \(folder)/log)")
        }
    }

    static func serverOptions(_ folder: String) -> String {
        "-k \(folder) -c listen_addresses= -c fsync=off -c full_page_writes=off -c max_connections=200"
    }

    /// `runuser -u postgres --` when root, nothing otherwise.
    static var asPostgres: String { getuid() == 0 ? "runuser -u postgres --" : "" }

    /// Debian's server programs (not on PATH), or PATH's.
    static var binaries: String {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        if let newest = versions.compactMap(Int.init).max() { return "\(root)/\(newest)/bin" }
        if let initdb = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":")
            .first(where: { FileManager.default.isExecutableFile(atPath: "\($0)/initdb") })
        {
            return String(initdb)
        }
        return "/usr/bin"
    }

    /// $1 folder, $2 the runuser prefix, $3 the server's programs.
    static let guardScript = """
        folder=$1; as=$2; bin=$3
        if ! $as "$bin/initdb" -D "$folder/data" -U postgres -A trust -E UTF8 --no-sync >"$folder/initdb.log" 2>&1; then
            echo "initdb failed: $(tail -n 3 "$folder/initdb.log")"; rm -rf "$folder"; exit 1
        fi
        if ! $as "$bin/pg_ctl" -D "$folder/data" -l "$folder/log" -w -o "-k $folder -c listen_addresses= -c fsync=off -c full_page_writes=off -c max_connections=200" start >/dev/null 2>&1; then
            echo "pg_ctl start failed: $(tail -n 3 "$folder/log")"; rm -rf "$folder"; exit 1
        fi
        echo ready
        cat >/dev/null
        $as "$bin/pg_ctl" -D "$folder/data" -m immediate -w stop >/dev/null 2>&1
        rm -rf "$folder"
        """

    /// Stops and removes the clusters of test processes that are gone.
    static func removeAbandoned() {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []
        for entry in entries where entry.hasPrefix("ssmpg.") {
            let parts = entry.split(separator: ".")
            guard parts.count == 3, let pid = Int32(parts[1]), pid != getpid(), kill(pid, 0) != 0 else { continue }
            let folder = "/tmp/\(entry)"
            if let process = try? spawn([
                "/bin/sh", "-c", "$2 \"$3/pg_ctl\" -D \"$1/data\" -m immediate -w stop >/dev/null 2>&1; rm -rf \"$1\"",
                "clean",
                folder, asPostgres, binaries,
            ]) {
                waitForExit(process)
            }
        }
    }

    private static func readLine(_ handle: FileHandle) async -> String {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var bytes: [UInt8] = []
                while true {
                    let data = handle.readData(ofLength: 1)
                    guard let byte = data.first, byte != UInt8(ascii: "\n") else { break }
                    bytes.append(byte)
                }
                continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
            }
        }
    }
}

/// Why a test cluster did not start.
public struct ClusterError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
