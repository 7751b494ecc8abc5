/// Where a ``StateMachineView`` writes its frames: the terminal, or a fake in tests.
@MainActor
public protocol TerminalOutput {
    /// Shows `frame`, replacing the previous frame when the output can.
    func write(frame: TerminalFrame)
}

/// One rendering of a view: its lines of text, without line terminators.
public struct TerminalFrame: Equatable, Sendable, CustomStringConvertible {
    /// The lines, top to bottom.
    public let lines: [String]

    /// A frame of `lines`.
    public init(lines: [String]) {
        self.lines = lines
    }

    /// The lines joined with newlines.
    public var description: String { lines.joined(separator: "\n") }
}
