import Foundation

/// A console for tests: the app reads lines the test feeds, and everything it writes is
/// kept, in order, for the test to read.
public final class ScriptedConsole: Console {
    /// The lines the test feeds.
    public let lines: AsyncStream<String>
    /// Whether the app should behave as on a terminal (frames follow the machines, commands
    /// return once sent) rather than as when piped (each command settles before its frame).
    public let isInteractive: Bool

    private let input: AsyncStream<String>.Continuation
    private let state = NSLock()
    private nonisolated(unsafe) var written: [String] = []
    private nonisolated(unsafe) var prompts: [(prompt: String, completions: [String])] = []
    private nonisolated(unsafe) var waiters:
        [(predicate: @Sendable ([String]) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
    // nonisolated(unsafe): `written`, `prompts` and `waiters` are only touched under `state`.

    private nonisolated(unsafe) var width: Int?
    private nonisolated(unsafe) var resizeHandler: (@Sendable () -> Void)?
    // nonisolated(unsafe): `width` and `resizeHandler` are only touched under `state`.

    /// A console with no input yet; piped behaviour unless `isInteractive`; a terminal
    /// `columns` wide when given.
    public init(isInteractive: Bool = false, columns: Int? = nil) {
        (lines, input) = AsyncStream<String>.makeStream()
        self.isInteractive = isInteractive
        self.width = columns
    }

    /// The width set at init or by the last ``resize(columns:)``.
    public var columns: Int? { state.withLock { width } }

    /// Records the app's resize handler.
    public func onResize(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { resizeHandler = handler }
    }

    /// Resizes the terminal, as a user dragging its window would.
    public func resize(columns: Int) {
        let handler = state.withLock { () -> (@Sendable () -> Void)? in
            width = columns
            return resizeHandler
        }
        handler?()
    }

    /// Feeds a line, as if typed.
    public func type(_ line: String) {
        input.yield(line)
    }

    /// Ends the input, as Ctrl-D would.
    public func endInput() {
        input.finish()
    }

    /// Everything written so far.
    public var output: [String] { state.withLock { written } }

    /// The last prompt and its completions.
    public var lastPrompt: (prompt: String, completions: [String])? { state.withLock { prompts.last } }

    /// Waits until what was written satisfies `predicate` (the caller bounds the wait).
    public func waitForOutput(where predicate: @escaping @Sendable ([String]) -> Bool) async {
        await withCheckedContinuation { continuation in
            let satisfied = state.withLock { () -> Bool in
                if predicate(written) { return true }
                waiters.append((predicate, continuation))
                return false
            }
            if satisfied { continuation.resume() }
        }
    }

    /// Records the prompt.
    public func setPrompt(_ prompt: String, completions: [String]) {
        state.withLock { prompts.append((prompt, completions)) }
    }

    /// Records `text` and wakes the waits it satisfies.
    public func write(_ text: String) {
        let ready = state.withLock { () -> [CheckedContinuation<Void, Never>] in
            written.append(text)
            let (ready, waiting) = waiters.reduce(
                into: (
                    [CheckedContinuation<Void, Never>](),
                    [(predicate: @Sendable ([String]) -> Bool, continuation: CheckedContinuation<Void, Never>)]()
                )
            ) { result, waiter in
                if waiter.predicate(written) { result.0.append(waiter.continuation) } else { result.1.append(waiter) }
            }
            waiters = waiting
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    /// Ends the input.
    public func close() {
        input.finish()
    }
}
