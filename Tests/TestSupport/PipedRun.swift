import Foundation

/// Runs `executable` with `input` piped in (then closed) and returns its exit status and
/// everything it wrote (standard output and error together, read to the end). `NO_COLOR`
/// is set, and `environment` overrides variables of this process's environment. The process
/// is killed after `seconds`, and the status is then the signal's.
public func runPiped(
    _ executable: URL,
    _ arguments: [String],
    input: String,
    seconds: Double,
    environment overrides: [String: String] = [:]
) async throws -> (status: Int32, text: String) {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    environment.merge(overrides) { _, new in new }
    process.environment = environment
    let stdin = Pipe.closedOnExec()
    let stdout = Pipe.closedOnExec()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stdout
    try process.run()
    let killer = Task {
        try? await Task.sleep(for: .seconds(seconds))
        if !Task.isCancelled, process.isRunning { process.terminate() }
    }
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    // Read to the end of the output (the process and its children closed it), off the
    // cooperative pool: the read blocks.
    let data = await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
            let data = stdout.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            continuation.resume(returning: data)
        }
    }
    killer.cancel()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

extension Pipe {
    /// A pipe whose two ends are close-on-exec (Foundation's are not), for a child started
    /// with Foundation's `Process`, which gives it its end with `dup2` (that clears the flag).
    /// A child that other code starts meanwhile without closing what it does not need (as
    /// a bare `posix_spawn` does) then cannot hold an end open: the app would not see the end
    /// of its input, nor the reader the end of the app's output, until that child exits.
    public static func closedOnExec() -> Pipe {
        let pipe = Pipe()
        for handle in [pipe.fileHandleForReading, pipe.fileHandleForWriting] {
            _ = fcntl(handle.fileDescriptor, F_SETFD, FD_CLOEXEC)
        }
        return pipe
    }
}
