import Foundation
import StateMachineSupport

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

    /// Prints `text` on standard output, its control characters made visible
    /// (see ``visible(_:)``): plain output is plain text, whatever a command echoed.
    public func write(_ text: String) {
        output.write(Self.visible(text))
    }

    /// `text` with every control character but newline and tab in caret notation (`^[`
    /// for escape, `^G` for the bell, `^@` for NUL, `^?` for delete) and the C1 controls
    /// as `\u{85}`, so that piped output never carries terminal escapes or bytes a
    /// reader would not see.
    public static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isHidden) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A, 0x09: result.unicodeScalars.append(scalar)
            case 0x00..<0x20: result += "^" + String(UnicodeScalar(UInt8(scalar.value + 0x40)))
            case 0x7F: result += "^?"
            case 0x80..<0xA0: result += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar.value != 0x0A && scalar.value != 0x09) || (0x7F..<0xA0).contains(scalar.value)
    }

    /// Nothing to restore.
    public func close() {}
}

/// Serialises writes to standard output.
final class OutputLock: Sendable {
    private let lock = Lock(())

    func write(_ text: String) {
        lock.withLock { _ in
            FileHandle.standardOutput.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
        }
    }
}
