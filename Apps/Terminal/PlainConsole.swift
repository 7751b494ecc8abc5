import Foundation

/// Reads plain lines from standard input and prints plain text, for scripts, pipes and
/// end-to-end tests. The app echoes each command after the prompt when it runs it
/// (`casestudies> load`), so that the output reads as a transcript.
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
        // A thread of its own: `readLine` blocks, and must not hold a cooperative thread.
        let reader = Thread {
            while let line = Swift.readLine(strippingNewline: true) {
                continuation.yield(line)
            }
            continuation.finish()
        }
        reader.name = "PlainConsole input"
        reader.start()
    }

    /// No prompt and no completion without a terminal.
    public func setPrompt(_ prompt: String, completions: [String]) {}

    /// Prints `text` on standard output.
    public func write(_ text: String) {
        output.write(text)
    }

    /// Nothing to restore.
    public func close() {}
}

/// Serialises writes to standard output.
final class OutputLock: Sendable {
    private let lock = NSLock()

    func write(_ text: String) {
        lock.withLock {
            FileHandle.standardOutput.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
        }
    }
}
