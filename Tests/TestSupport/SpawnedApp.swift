import CSpawn
import Foundation
import StateMachineSupport

#if canImport(Glibc)
import Glibc
#endif

/// An app run on pipes that a test can kill with SIGKILL: spawned with `spawn_process` (not
/// Foundation's `Process`, whose dispatch sources race with a child killed while its pipes
/// are in use), its output (standard output and error) read by a thread of its own.
///
/// ```swift
/// let app = try SpawnedApp(executable("Navigation"), arguments: ["--state", file])
/// app.write("tab profile\n")
/// await within { await app.waitFor("[Profile]") }
/// app.kill()
/// let status = await within { await app.exitStatus() }
/// ```
public final class SpawnedApp: Sendable {
    /// The app's process ID.
    public let processIdentifier: pid_t
    private let input: Int32
    private let shared = Lock(Seen())

    /// What the reader and the waiter threads saw.
    private struct Seen {
        var output = ""
        var ended = false
        var status: Int32?
        var waiters: [(condition: @Sendable (Seen) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
    }

    /// Starts `executable` with `arguments`, its environment this process's with `NO_COLOR=1`.
    public init(_ executable: URL, arguments: [String]) throws {
        // A write to the input of an app that was killed fails rather than killing the tests.
        signal(SIGPIPE, SIG_IGN)
        var toChild: [Int32] = [0, 0]
        var fromChild: [Int32] = [0, 0]
        guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else { throw POSIXError(.EMFILE) }
        // Not inherited by other children this process spawns meanwhile.
        for descriptor in toChild + fromChild { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        let path = executable.path
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for variable in envp { free(variable) } }
        var pid: pid_t = 0
        let status = spawn_process(&pid, path, argv, envp, toChild[0], fromChild[1], fromChild[1], 0)
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
                update { $0.output += String(decoding: buffer[..<count], as: UTF8.self) }
            }
            close(output)
            update { $0.ended = true }
        }
        let spawned = pid
        Thread.detachNewThread { [self] in
            var status: Int32 = 0
            while waitpid(spawned, &status, 0) < 0, errno == EINTR {}
            // The exit status, or 128 + the signal, as a shell reports them.
            let signal = status & 0x7f
            update { $0.status = signal == 0 ? (status >> 8) & 0xff : 128 + signal }
        }
    }

    /// Everything the app wrote so far.
    public var text: String { shared.withLock { $0.output } }

    /// Writes `text` to the app's input (a killed app's closed pipe drops it: the write fails,
    /// SIGPIPE being ignored).
    public func write(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.write(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            offset += count
        }
    }

    /// Closes the app's input (end of file).
    public func closeInput() { close(input) }

    /// Sends SIGKILL: the app ends at once, without running any code of its own.
    public func kill() { _ = Glibc.kill(processIdentifier, SIGKILL) }

    /// Waits until the output contains `expected` (the caller bounds the wait).
    public func waitFor(_ expected: String) async {
        await wait { $0.output.contains(expected) || $0.ended }
    }

    /// Waits until the app has exited and its output ended; returns its exit status
    /// (128 + the signal when a signal ended it).
    public func exitStatus() async -> Int32 {
        await wait { $0.status != nil && $0.ended }
        return shared.withLock { $0.status ?? -1 }
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
