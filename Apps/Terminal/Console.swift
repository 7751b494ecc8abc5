/// Where a terminal app reads commands and writes frames.
///
/// Three implementations: ``ReadlineConsole`` on a terminal (history, Tab completion, frames
/// drawn above the prompt while you type), ``PlainConsole`` when standard input is not a
/// terminal (scripts, pipes: plain lines in, plain text out, no escape sequences), and
/// ``ScriptedConsole`` for tests.
public protocol Console: AnyObject, Sendable {
    /// The lines the user enters; it finishes at the end of input (Ctrl-D, Ctrl-C, the end
    /// of a pipe).
    var lines: AsyncStream<String> { get }
    /// Whether output goes to a terminal: styles and a live "working" indicator are allowed.
    var isInteractive: Bool { get }
    /// Sets the prompt and the phrases Tab completes: the commands the screen accepts now,
    /// alone and followed by each of their argument values (`open wallet`); Tab completes
    /// the word under the cursor from the phrases that start with the line typed so far.
    func setPrompt(_ prompt: String, completions: [String])
    /// Shows `text` (a frame or a message) above the prompt.
    func write(_ text: String)
    /// Stops reading input and restores the terminal; returns once what was written before
    /// is shown. What is written after it goes straight to the output.
    func close()
    /// Whether Ctrl-C ended the input (the app then exits with status 130).
    var wasInterrupted: Bool { get }
    /// The terminal's width in columns, when known (screens lay out to it).
    var columns: Int? { get }
    /// Calls `handler` after the terminal was resized (the app draws its frame again).
    func onResize(_ handler: @escaping @Sendable () -> Void)
}

extension Console {
    /// Not interrupted unless the console says so.
    public var wasInterrupted: Bool { false }
    /// Unknown unless the console says so (not a terminal).
    public var columns: Int? { nil }
    /// Never resized unless the console says so.
    public func onResize(_ handler: @escaping @Sendable () -> Void) {}
}

/// Picks the console for this process: readline on a terminal, plain lines otherwise.
public func makeStandardConsole() -> any Console {
    if ReadlineConsole.isAvailable {
        return ReadlineConsole()
    }
    return PlainConsole()
}
