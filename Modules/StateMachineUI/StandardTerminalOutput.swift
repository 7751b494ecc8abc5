#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes frames to standard output.
///
/// On a terminal each frame replaces the previous one in place (the cursor moves back to
/// the previous frame's first line and clears to the end of the screen, with ANSI
/// escapes). Anywhere else (a pipe, a file, a test) frames are written one after the
/// other, as plain lines, with no escape sequence.
@MainActor
public final class StandardTerminalOutput: TerminalOutput {
    /// Whether frames replace each other with ANSI escapes.
    public let isTerminal: Bool
    private let sink: (String) -> Void
    private var previousLineCount = 0

    /// An output to standard output; `isTerminal` defaults to whether standard output is
    /// a terminal.
    public convenience init() {
        self.init(isTerminal: isatty(STDOUT_FILENO) != 0, sink: writeToStandardOutput)
    }

    /// An output that hands each frame's text to `sink`, with ANSI escapes when
    /// `isTerminal` is true.
    public init(isTerminal: Bool, sink: @escaping (String) -> Void) {
        self.isTerminal = isTerminal
        self.sink = sink
    }

    /// Writes `frame`, erasing the previous one first on a terminal.
    public func write(frame: TerminalFrame) {
        var text = ""
        if isTerminal, previousLineCount > 0 {
            // To the start of the previous frame's first line, then clear to the end.
            text += "\u{1B}[\(previousLineCount)F\u{1B}[J"
        }
        for line in frame.lines { text += line + "\n" }
        previousLineCount = frame.lines.count
        sink(text)
    }
}

/// Writes `text` to file descriptor 1 at once (no stdio buffering), retrying partial
/// writes and interrupted calls.
private func writeToStandardOutput(_ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        if written < 0 {
            if errno == EINTR { continue }
            return
        }
        bytes = bytes.dropFirst(written)
    }
}
