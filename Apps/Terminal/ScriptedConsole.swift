import Foundation
import StateMachineSupport

/// A console for tests: the app reads lines the test feeds, and everything it writes is
/// kept, in order, for the test to read.
public final class ScriptedConsole: Console {
    /// The lines the test feeds.
    public let lines: AsyncStream<String>
    /// Whether the app should behave as on a terminal (frames follow the machines, commands
    /// return once sent) rather than as when piped (each command settles before its frame).
    public let isInteractive: Bool

    private let input: AsyncStream<String>.Continuation
    private let state: Lock<State>

    /// What the app writes and the test reads, and the test's waits.
    private struct State {
        var written: [String] = []
        var prompts: [(prompt: String, completions: [String])] = []
        var waiters: [(predicate: @Sendable ([String]) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
        var width: Int?
        var resizeHandler: (@Sendable () -> Void)?
    }

    /// A console with no input yet; piped behaviour unless `isInteractive`; a terminal
    /// `columns` wide when given.
    public init(isInteractive: Bool = false, columns: Int? = nil) {
        (lines, input) = AsyncStream<String>.makeStream()
        self.isInteractive = isInteractive
        state = Lock(State(width: columns))
    }

    /// The width set at init or by the last ``resize(columns:)``.
    public var columns: Int? { state.withLock { $0.width } }

    /// Records the app's resize handler.
    public func onResize(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.resizeHandler = handler }
    }

    /// Resizes the terminal, as a user dragging its window would.
    public func resize(columns: Int) {
        let handler = state.withLock { state -> (@Sendable () -> Void)? in
            state.width = columns
            return state.resizeHandler
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
    public var output: [String] { state.withLock { $0.written } }

    /// The last prompt and its completions.
    public var lastPrompt: (prompt: String, completions: [String])? { state.withLock { $0.prompts.last } }

    /// Waits until what was written satisfies `predicate` (the caller bounds the wait).
    public func waitForOutput(where predicate: @escaping @Sendable ([String]) -> Bool) async {
        await withCheckedContinuation { continuation in
            let satisfied = state.withLock { state -> Bool in
                if predicate(state.written) { return true }
                state.waiters.append((predicate, continuation))
                return false
            }
            if satisfied { continuation.resume() }
        }
    }

    /// Records the prompt.
    public func setPrompt(_ prompt: String, completions: [String]) {
        state.withLock { $0.prompts.append((prompt, completions)) }
    }

    /// Records `text` and wakes the waits it satisfies.
    public func write(_ text: String) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.written.append(text)
            let written = state.written
            let (ready, waiting) = state.waiters.reduce(
                into: (
                    [CheckedContinuation<Void, Never>](),
                    [(predicate: @Sendable ([String]) -> Bool, continuation: CheckedContinuation<Void, Never>)]()
                )
            ) { result, waiter in
                if waiter.predicate(written) { result.0.append(waiter.continuation) } else { result.1.append(waiter) }
            }
            state.waiters = waiting
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    /// Ends the input.
    public func close() {
        input.finish()
    }
}
