import Foundation

/// Reads plain lines from standard input and prints plain text, for scripts, pipes and
/// end-to-end tests. Each command read is echoed after the prompt (`casestudies> load`),
/// so that the output reads as a transcript.
public final class PlainConsole: Console {
    /// The lines read from standard input.
    public let lines: AsyncStream<String>
    /// Never interactive.
    public var isInteractive: Bool { false }

    private let output = OutputLock()

    /// A console over standard input and output.
    public init() {
        let (lines, continuation) = AsyncStream<String>.makeStream()
        self.lines = lines
        let output = self.output
        // A thread of its own: `readLine` blocks, and must not hold a cooperative thread.
        let reader = Thread {
            while let line = Swift.readLine(strippingNewline: true) {
                output.echo(line)
                continuation.yield(line)
            }
            continuation.finish()
        }
        reader.name = "PlainConsole input"
        reader.start()
    }

    /// Remembers the prompt to echo commands after it (no completion without a terminal).
    public func setPrompt(_ prompt: String, completions: [String]) {
        output.prompt = prompt
    }

    /// Prints `text` on standard output.
    public func write(_ text: String) {
        output.write(text)
    }

    /// Nothing to restore.
    public func close() {}
}

/// Serialises writes to standard output from the reader thread and the app.
final class OutputLock: @unchecked Sendable {
    // @unchecked Sendable: `storedPrompt` is only read or written under `lock`.
    private let lock = NSLock()
    private var storedPrompt = "> "

    var prompt: String {
        get { lock.withLock { storedPrompt } }
        set { lock.withLock { storedPrompt = newValue } }
    }

    func echo(_ line: String) {
        lock.withLock {
            FileHandle.standardOutput.write(Data("\(storedPrompt)\(line)\n".utf8))
        }
    }

    func write(_ text: String) {
        lock.withLock {
            FileHandle.standardOutput.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
        }
    }
}
