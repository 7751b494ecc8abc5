// Renders DOT text into an image by running Graphviz's `dot` program.
//
// Why the program and not libgvc through a module map: a library product that links libgvc
// would make every user of diagrams, and every build of the package, need Graphviz's
// development files, while the program is needed only by whoever asks for a picture, and
// only then: a missing `dot` is an error of the call, not of the build. The program runs
// as a child process with its own sockets (`spawn_process`: found on PATH, holding none of
// the program's other descriptors), fed the DOT on standard input; its output is read while
// the input is written, so neither side blocks on a full buffer. It is bounded by a
// deadline, after which it is killed and reaped.

internal import CSpawn

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a diagram could not be rendered as an image by Graphviz.
public enum GraphvizError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Graphviz's `dot` program is not on the `PATH` (Debian: `apt-get install graphviz`,
    /// or the package's `scripts/setup`).
    case graphvizMissing(program: String)
    /// `dot` ran but failed (it exited with `status`, or was killed by a signal when
    /// `status` is negative); `message` is what it wrote on standard error.
    case renderingFailed(status: Int32, message: String)
    /// `dot` did not finish within `seconds` and was stopped.
    case timedOut(seconds: Int)
    /// The program could not be started or talked to (`reason` is the system's error).
    case systemError(reason: String)

    /// What went wrong, and for a missing program how to install it.
    public var description: String {
        switch self {
        case .graphvizMissing(let program):
            "Graphviz's '\(program)' program is not installed (or not on PATH); install Debian's graphviz package (apt-get install graphviz, or scripts/setup)"
        case .renderingFailed(let status, let message):
            "Graphviz's dot failed (\(status < 0 ? "signal \(-status)" : "exit status \(status)")): \(message.isEmpty ? "no message" : message)"
        case .timedOut(let seconds):
            "Graphviz's dot did not finish within \(seconds) seconds and was stopped"
        case .systemError(let reason):
            "Graphviz's dot could not be run: \(reason)"
        }
    }
}

/// An image format Graphviz writes.
package enum GraphvizFormat: String, Sendable, CaseIterable {
    /// Scalable vector graphics (text, UTF-8).
    case svg
    /// A PNG bitmap.
    case png
}

/// Runs `dot`.
package enum Graphviz {
    /// The program run, looked up on `PATH`.
    package static let program = "dot"

    /// How long one rendering may take before `dot` is stopped. Our sample charts take
    /// under a second; a chart of thousands of states, a few.
    package static let defaultTimeoutSeconds = 30

    /// `dot` renders `source` as `format`; returns the image's bytes.
    /// - Throws: ``GraphvizError``: `.graphvizMissing` when `dot` is not installed,
    ///   `.renderingFailed` with its message when it rejects the input, `.timedOut` when it
    ///   runs longer than `timeoutSeconds` (it is killed, nothing is left running).
    package static func render(
        _ source: String,
        as format: GraphvizFormat,
        timeoutSeconds: Int = defaultTimeoutSeconds
    ) throws(GraphvizError) -> [UInt8] {
        let result = try run(
            [program, "-T\(format.rawValue)"],
            input: Array(source.utf8),
            timeoutSeconds: timeoutSeconds
        )
        guard result.status == 0, !result.output.isEmpty else {
            throw .renderingFailed(
                status: result.status,
                message: String(decoding: result.error, as: UTF8.self).trimmingTrailingWhitespace
            )
        }
        return result.output
    }

    /// What a finished child wrote, and how it ended (negative: the signal that ended it).
    package struct Outcome {
        package var output: [UInt8] = []
        package var error: [UInt8] = []
        package var status: Int32 = 0
    }

    /// Runs `arguments` (the first one looked up on `PATH`) with `input` on its standard
    /// input, collecting its standard output and error, for at most `timeoutSeconds`.
    package static func run(_ arguments: [String], input: [UInt8], timeoutSeconds: Int) throws(GraphvizError) -> Outcome
    {
        var sockets = [[Int32]](repeating: [-1, -1], count: 3)
        defer { for pair in sockets { for fd in pair where fd >= 0 { close(fd) } } }
        // Sockets rather than pipes, for two reasons. Standard input is written with
        // MSG_NOSIGNAL: a child that exits before reading all of it must not kill us with
        // SIGPIPE (a library may not ignore the signal for the whole program). And all are
        // made close-on-exec in the same call (glibc's pipe2 is not imported): a child spawned
        // at that moment by another thread must not inherit our ends, or our child's output
        // would stay open until that other child ends. The dup2 onto 0, 1 and 2 clears the
        // flag for our own child, which gets none of the program's other descriptors.
        for index in sockets.indices {
            let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            guard socketpair(AF_UNIX, type, 0, &sockets[index]) == 0 else {
                throw .systemError(reason: "socketpair: \(errorText())")
            }
        }
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = spawn_process(&pid, arguments[0], argv, environ, sockets[0][0], sockets[1][1], sockets[2][1], 1)
        guard spawned == 0 else {
            if spawned == ENOENT { throw .graphvizMissing(program: arguments[0]) }
            throw .systemError(reason: "posix_spawnp \(arguments[0]): \(String(cString: strerror(spawned)))")
        }
        // The child holds its own ends; closing ours lets it see the end of its input and
        // us the end of its output.
        for (index, end) in [(0, 0), (1, 1), (2, 1)] {
            close(sockets[index][end])
            sockets[index][end] = -1
        }
        var outcome = Outcome()
        let deadline = monotonicSeconds() + Double(timeoutSeconds)
        // From here on `exchange` owns (and closes) our ends.
        let ends = (sockets[0][1], sockets[1][0], sockets[2][0])
        sockets = []
        let finished = exchange(input: input, ends: ends, outcome: &outcome, deadline: deadline)
        var status: Int32 = 0
        // A child that closed its outputs is ending; it still has until the deadline.
        let exited = finished && reap(pid, status: &status, until: deadline)
        if !exited {
            kill(pid, SIGKILL)
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            throw .timedOut(seconds: timeoutSeconds)
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as functions.
        outcome.status = status & 0x7f == 0 ? (status >> 8) & 0xff : -(status & 0x7f)
        return outcome
    }

    /// Writes `input` to the child and reads both of its outputs until they end; false
    /// when the deadline passed first.
    private static func exchange(
        input: [UInt8],
        ends: (stdin: Int32, stdout: Int32, stderr: Int32),
        outcome: inout Outcome,
        deadline: Double
    ) -> Bool {
        var (stdin, stdout, stderr) = ends
        defer { for fd in [stdin, stdout, stderr] where fd >= 0 { close(fd) } }
        var written = 0
        if input.isEmpty {
            close(stdin)
            stdin = -1
        } else {
            _ = fcntl(stdin, F_SETFL, fcntl(stdin, F_GETFL) | O_NONBLOCK)
        }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while stdout >= 0 || stderr >= 0 {
            let remaining = deadline - monotonicSeconds()
            guard remaining > 0 else { return false }
            var fds: [pollfd] = []
            if stdin >= 0 { fds.append(pollfd(fd: stdin, events: Int16(POLLOUT), revents: 0)) }
            if stdout >= 0 { fds.append(pollfd(fd: stdout, events: Int16(POLLIN), revents: 0)) }
            if stderr >= 0 { fds.append(pollfd(fd: stderr, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), Int32(min(remaining * 1000, 1000)) + 1)
            if ready < 0 {
                if errno == EINTR { continue }
                return false
            }
            for entry in fds where entry.revents != 0 {
                if entry.fd == stdin {
                    let count = input.withUnsafeBytes { bytes in
                        send(stdin, bytes.baseAddress! + written, bytes.count - written, Int32(MSG_NOSIGNAL))
                    }
                    if count > 0 { written += count }
                    // A child that stops reading (it failed) closes its end: stop writing.
                    if written == input.count || (count < 0 && errno != EAGAIN && errno != EINTR) {
                        close(stdin)
                        stdin = -1
                    }
                    continue
                }
                let count = read(entry.fd, &buffer, buffer.count)
                if count > 0 {
                    if entry.fd == stdout {
                        outcome.output += buffer[0..<count]
                    } else {
                        outcome.error += buffer[0..<count]
                    }
                } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                    close(entry.fd)
                    if entry.fd == stdout { stdout = -1 } else { stderr = -1 }
                }
            }
        }
        return true
    }

    /// Waits for `pid` to end, until `deadline`; false when it is still running then.
    private static func reap(_ pid: pid_t, status: inout Int32, until deadline: Double) -> Bool {
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { return true }
            if result < 0 && errno != EINTR { return true }
            if monotonicSeconds() >= deadline { return false }
            var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
            nanosleep(&pause, nil)
        }
    }

    private static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}

extension String {
    /// The text without trailing spaces and line breaks.
    fileprivate var trimmingTrailingWhitespace: String {
        var text = self
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return text
    }
}
