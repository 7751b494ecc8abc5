import CSpawn
import Foundation
import StateMachineSupport

#if canImport(Glibc)
import Glibc
#endif

/// A child process on pipes, spawned with `spawn_process` (not Foundation's `Process`, whose
/// dispatch sources race with a child killed while its pipes are in use): its input written
/// from a thread of its own (a killed child's pipe fails the writes, which are dropped), its
/// output read by another and folded, line by line, into a `Seen` value that tests wait on.
public final class PipedProcess<Seen: Sendable>: Sendable {
    /// The child's process ID.
    public let processIdentifier: pid_t
    private let input: Int32
    private let shared: Lock<Shared>
    private let fold: @Sendable (inout Seen, String) -> Void

    private struct Shared {
        var seen: Seen
        var partial = ""
        var ended = false
        var exited = false
        var waiters: [(condition: @Sendable (Seen, Bool) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []

        /// Takes in output: each complete line is folded into `seen`.
        mutating func receive(_ text: String, _ fold: (inout Seen, String) -> Void) {
            partial += text
            while let newline = partial.firstIndex(of: "\n") {
                fold(&seen, String(partial[..<newline]))
                partial.removeSubrange(...newline)
            }
        }
    }

    /// Starts `path` with `arguments`, its standard output (and standard error, when
    /// `mergingStandardError`) folded line by line into `initial` by `fold`.
    public init(
        path: String,
        arguments: [String],
        initial: Seen,
        mergingStandardError: Bool = false,
        fold: @escaping @Sendable (inout Seen, String) -> Void
    ) throws {
        shared = Lock(Shared(seen: initial))
        self.fold = fold
        var toChild: [Int32] = [0, 0]
        var fromChild: [Int32] = [0, 0]
        guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else { throw POSIXError(.EMFILE) }
        // Not inherited by other children this process spawns meanwhile.
        for descriptor in toChild + fromChild { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let status = spawn_process(
            &pid,
            path,
            argv,
            environ,
            toChild[0],
            fromChild[1],
            mergingStandardError ? fromChild[1] : -1,
            0
        )
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
                update { $0.receive(String(decoding: buffer[..<count], as: UTF8.self), fold) }
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

    /// What the child's output has shown so far.
    public var seen: Seen { shared.withLock { $0.seen } }

    /// Writes `text` to the child's input from another thread, closing it after when `closing`.
    public func write(_ text: String, closing: Bool = true) {
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

    /// Returns once `condition` holds of what the output showed and whether it ended.
    public func wait(until condition: @escaping @Sendable (Seen, _ ended: Bool) -> Bool) async {
        await withCheckedContinuation { continuation in
            let ready = shared.withLock { shared in
                if condition(shared.seen, shared.ended) { return true }
                shared.waiters.append((condition, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Kills the child with SIGKILL.
    public func kill() { Glibc.kill(processIdentifier, SIGKILL) }

    /// Waits until the child has exited and its output has ended.
    public func waitForExit() async {
        await withCheckedContinuation { continuation in
            let ready = shared.withLock { shared in
                if shared.exited && shared.ended { return true }
                shared.waiters.append(({ _, _ in false }, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private func update(_ change: (inout Shared) -> Void) {
        let ready = shared.withLock { shared -> [CheckedContinuation<Void, Never>] in
            change(&shared)
            var ready: [CheckedContinuation<Void, Never>] = []
            let (seen, ended, exited) = (shared.seen, shared.ended, shared.exited)
            shared.waiters.removeAll { waiter in
                // A waiter for the exit is resumed once the child exited and its output ended.
                guard waiter.condition(seen, ended) || (exited && ended) else { return false }
                ready.append(waiter.continuation)
                return true
            }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }
}
