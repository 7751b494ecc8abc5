import CPseudoTerminal
import Foundation
import StateMachineSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Runs an executable with its standard input and output on pipes, or on a pseudo-terminal,
/// and lets a test write input and wait for output.
public final class ProcessDriver: @unchecked Sendable {
    // @unchecked Sendable: the output and the waits are in `shared` (a lock); the other
    // stored properties are immutable after init (`Process` and `FileHandle` are not
    // marked Sendable).
    private let process = Process()
    private let shared = Lock(Received())

    /// The output so far and the waits for text in it.
    private struct Received {
        var output = ""
        var waiters: [(String, Int, CheckedContinuation<Void, Never>)] = []
    }
    private let input: FileHandle
    private let reader: FileHandle
    private var keepAlive: [FileHandle] = []

    /// Starts `executable` with `arguments`; on a pseudo-terminal when `terminal` is set.
    /// The environment is this process's with `TERM=xterm` and `NO_COLOR=1`, then
    /// `environment` on top (an empty value unsets a variable).
    public init(
        _ executable: URL,
        arguments: [String],
        terminal: Bool = false,
        environment overrides: [String: String] = [:]
    ) throws {
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm"
        environment["NO_COLOR"] = "1"
        for (name, value) in overrides {
            environment[name] = value.isEmpty ? nil : value
        }
        process.environment = environment
        if terminal {
            var path = [CChar](repeating: 0, count: 128)
            let master = pseudo_terminal_open(&path, path.count)
            guard master >= 0 else { throw POSIXError(.ENODEV) }
            let slavePath = String(decoding: path.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let slave = open(slavePath, O_RDWR | O_NOCTTY | O_CLOEXEC)
            guard slave >= 0 else { throw POSIXError(.ENODEV) }
            let slaveHandle = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
            process.standardInput = slaveHandle
            process.standardOutput = slaveHandle
            process.standardError = slaveHandle
            let masterHandle = FileHandle(fileDescriptor: master, closeOnDealloc: true)
            input = masterHandle
            reader = masterHandle
            keepAlive = [slaveHandle]
        } else {
            let stdin = Pipe.closedOnExec()
            let stdout = Pipe.closedOnExec()
            process.standardInput = stdin
            process.standardOutput = stdout
            process.standardError = stdout
            input = stdin.fileHandleForWriting
            reader = stdout.fileHandleForReading
        }
        reader.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            self.received(String(decoding: data, as: UTF8.self))
        }
        try process.run()
    }

    /// Everything written so far.
    public var text: String { shared.withLock { $0.output } }

    /// Writes `text` to the process's input.
    public func write(_ text: String) {
        input.write(Data(text.utf8))
    }

    /// Closes the input (end of file) when on pipes.
    public func closeInput() {
        try? input.close()
    }

    /// Waits until the output contains `expected`, at least `times` times (the caller
    /// bounds the wait).
    public func waitFor(_ expected: String, times: Int = 1) async {
        await withCheckedContinuation { continuation in
            let done = shared.withLock { received -> Bool in
                if Self.count(of: expected, in: received.output) >= times { return true }
                received.waiters.append((expected, times, continuation))
                return false
            }
            if done { continuation.resume() }
        }
    }

    private static func count(of expected: String, in text: String) -> Int {
        text.components(separatedBy: expected).count - 1
    }

    /// Waits for the process to exit and returns its status.
    public func exitStatus() async -> Int32 {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                self.process.waitUntilExit()
                continuation.resume(returning: self.process.terminationStatus)
            }
        }
    }

    /// Sends SIGINT, as Ctrl-C on a terminal does.
    public func interrupt() {
        process.interrupt()
    }

    /// Kills the process if it still runs.
    public func terminate() {
        if process.isRunning { process.terminate() }
        reader.readabilityHandler = nil
    }

    private func received(_ text: String) {
        let ready = shared.withLock { received -> [CheckedContinuation<Void, Never>] in
            received.output += text
            let output = received.output
            var ready: [CheckedContinuation<Void, Never>] = []
            received.waiters.removeAll { expected, times, continuation in
                guard Self.count(of: expected, in: output) >= times else { return false }
                ready.append(continuation)
                return true
            }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }
}
