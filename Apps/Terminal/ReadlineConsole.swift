import CReadline
import Foundation
import StateMachineSupport
import Synchronization

/// The console on a terminal: GNU readline with history and Tab completion of the commands
/// the current screen accepts, and frames drawn above the prompt while the user types.
///
/// Readline runs in its callback mode on a thread of its own, which waits (with `poll`) for
/// either a key or a wake-up from the app; the app's output is handed to that thread and
/// printed between keystrokes (the prompt and the half-typed line are saved, cleared and
/// redrawn), so output never interleaves with the line being edited. Ctrl-D and Ctrl-C end
/// the input cleanly (the terminal is restored).
public final class ReadlineConsole: Console, @unchecked Sendable {
    // @unchecked Sendable: the mutable state is in `shared` (a lock) or atomic; every other
    // stored property is immutable. Readline's own state is only touched on the console
    // thread (see `ReadlineGlobals`), which is not visible to the compiler.

    /// Whether standard input and output are both terminals.
    public static var isAvailable: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    /// The lines the user enters.
    public let lines: AsyncStream<String>
    /// Always interactive.
    public var isInteractive: Bool { true }

    private let continuation: AsyncStream<String>.Continuation
    private let shared = Lock(Shared())
    private let measuredColumns = Atomic(0)
    private let wakeUp: (read: Int32, write: Int32)
    /// Signalled once the console thread has restored the terminal and printed what was
    /// left: ``close()`` waits for it, so that a program that exits right after sees all of
    /// its output on the terminal.
    private let finished = DispatchSemaphore(value: 0)

    /// What the app's threads and the console thread share.
    private struct Shared {
        var pending: [String] = []
        var prompt: (text: String, completions: [String]) = ("> ", [])
        var isClosed = false
        var resizeHandler: (@Sendable () -> Void)?
        /// Set when the console thread has stopped; output is then printed directly.
        var isReaderFinished = false
    }
    /// A console on the process's terminal.
    public init() {
        (lines, continuation) = AsyncStream<String>.makeStream()
        var pipeEnds: [Int32] = [0, 0]
        if pipe(&pipeEnds) != 0 { pipeEnds = [-1, -1] }
        wakeUp = (pipeEnds[0], pipeEnds[1])
        installInterruptHandler()
        let thread = Thread { [self] in run() }
        thread.name = "ReadlineConsole"
        thread.start()
    }

    /// Sets the prompt and the words Tab completes; applied before the next keystroke.
    public func setPrompt(_ prompt: String, completions: [String]) {
        shared.withLock { $0.prompt = (prompt, completions) }
        poke()
    }

    /// Shows `text` above the prompt.
    public func write(_ text: String) {
        let isFinished = shared.withLock { shared -> Bool in
            if !shared.isReaderFinished { shared.pending.append(text) }
            return shared.isReaderFinished
        }
        // After the input ended (Ctrl-D) there is no prompt left to draw around.
        if isFinished { Self.print([text]) } else { poke() }
    }

    private static func print(_ texts: [String]) {
        for text in texts {
            FileHandle.standardOutput.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
        }
    }

    /// Whether Ctrl-C ended the input.
    public var wasInterrupted: Bool { interrupted.load(ordering: .relaxed) }

    /// The terminal's width, as readline last measured it (at start and after each resize).
    public var columns: Int? {
        let columns = measuredColumns.load(ordering: .relaxed)
        return columns > 0 ? columns : nil
    }

    /// Calls `handler` on the console thread after each resize, once readline has
    /// measured the new size.
    public func onResize(_ handler: @escaping @Sendable () -> Void) {
        shared.withLock { $0.resizeHandler = handler }
    }

    /// Stops reading, restores the terminal and erases the prompt line, then prints what
    /// was written and not shown yet; returns once that is done (or after 2 seconds), so
    /// that nothing written before is lost when the program exits next.
    public func close() {
        let wasFinished = shared.withLock { shared -> Bool in
            defer { shared.isClosed = true }
            return shared.isClosed || shared.isReaderFinished
        }
        poke()
        if !wasFinished { _ = finished.wait(timeout: .now() + .seconds(2)) }
    }

    private func poke() {
        var byte: UInt8 = 1
        _ = Foundation.write(wakeUp.write, &byte, 1)
    }

    // MARK: The console thread

    private func run() {
        ReadlineGlobals.console = self
        cr_set_attempted_completion_function(readlineComplete)
        // The console thread handles resizes itself (below): readline's own handler would
        // run on whatever thread the signal lands on.
        cr_set_catch_sigwinch(0)
        installResizeHandler()
        measureColumns()
        var installedPrompt = ""
        var shouldStop = false
        while !shouldStop {
            let (prompt, completions, output, closed) = shared.withLock { shared in
                defer { shared.pending = [] }
                return (shared.prompt.text, shared.prompt.completions, shared.pending, shared.isClosed)
            }
            ReadlineGlobals.completions = completions
            if prompt != installedPrompt || output.isEmpty == false {
                redraw(output: output, prompt: prompt, reinstall: prompt != installedPrompt || installedPrompt.isEmpty)
                installedPrompt = prompt
            }
            if closed || ReadlineGlobals.endOfInput || interrupted.load(ordering: .relaxed) { break }
            if resized.exchange(false, ordering: .relaxed) {
                rl_resize_terminal()
                measureColumns()
                shared.withLock { $0.resizeHandler }?()
            }
            var descriptors = [
                pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeUp.read, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, 2, 250)
            if ready < 0 {
                shouldStop = errno != EINTR ? true : interrupted.load(ordering: .relaxed)
                continue
            }
            if descriptors[1].revents & Int16(POLLIN) != 0 {
                var buffer = [UInt8](repeating: 0, count: 64)
                _ = read(wakeUp.read, &buffer, buffer.count)
            }
            if descriptors[0].revents & Int16(POLLIN | POLLHUP) != 0 {
                rl_callback_read_char()
                for line in ReadlineGlobals.takeLines() { continuation.yield(line) }
            }
        }
        rl_callback_handler_remove()
        // Erase the prompt line (the prompt, a spinner's frame, what was typed): the shell's
        // prompt, or the last messages, take its place rather than follow it.
        FileHandle.standardOutput.write(Data("\r\u{1B}[2K".utf8))
        let leftovers = shared.withLock { shared -> [String] in
            shared.isReaderFinished = true
            defer { shared.pending = [] }
            return shared.pending
        }
        Self.print(leftovers)
        continuation.finish()
        finished.signal()
    }

    private func measureColumns() {
        var rows: Int32 = 0
        var columns: Int32 = 0
        rl_get_screen_size(&rows, &columns)
        measuredColumns.store(Int(columns), ordering: .relaxed)
    }

    /// Prints `output` above the prompt, keeping the half-typed line.
    private func redraw(output: [String], prompt: String, reinstall: Bool) {
        let hasHandler = !reinstall || ReadlineGlobals.isHandlerInstalled
        var savedLine = ""
        var savedPoint: Int32 = 0
        if ReadlineGlobals.isHandlerInstalled, let buffer = cr_line_buffer() {
            savedLine = String(cString: buffer)
            savedPoint = cr_point()
            rl_replace_line("", 0)
            rl_redisplay()
            // Move to the start of the (now empty) prompt line and erase it.
            FileHandle.standardOutput.write(Data("\r\u{1B}[2K".utf8))
        }
        Self.print(output)
        if reinstall || !hasHandler {
            rl_callback_handler_install(prompt, readlineLineHandler)
            ReadlineGlobals.isHandlerInstalled = true
        } else {
            rl_on_new_line()
        }
        rl_replace_line(savedLine, 0)
        cr_set_point(savedPoint)
        rl_redisplay()
    }
}

/// Readline's callbacks are C functions without context; they reach the console through
/// these globals.
enum ReadlineGlobals {
    // nonisolated(unsafe): every one of these is only read or written on the console
    // thread: readline calls its callbacks synchronously from `rl_callback_read_char`,
    // which only that thread calls.
    nonisolated(unsafe) static var console: ReadlineConsole?
    nonisolated(unsafe) static var completions: [String] = []
    nonisolated(unsafe) static var completionCandidates: [String] = []
    nonisolated(unsafe) static var completedLines: [String] = []
    nonisolated(unsafe) static var endOfInput = false
    nonisolated(unsafe) static var isHandlerInstalled = false

    static func takeLines() -> [String] {
        defer { completedLines = [] }
        return completedLines
    }
}

/// Set by SIGINT; the console thread then ends the input cleanly.
let interrupted = Atomic(false)

/// Set by SIGWINCH; the console thread then measures the terminal and redraws.
let resized = Atomic(false)

private func installResizeHandler() {
    signal(SIGWINCH) { _ in resized.store(true, ordering: .relaxed) }
}

private func installInterruptHandler() {
    signal(SIGINT) { _ in interrupted.store(true, ordering: .relaxed) }
}

/// Called by readline with each complete line (nil at end of input).
private let readlineLineHandler: @convention(c) (UnsafeMutablePointer<CChar>?) -> Void = { line in
    guard let line else {
        ReadlineGlobals.endOfInput = true
        return
    }
    let text = String(cString: line)
    free(line)
    if !text.trimmingCharacters(in: .whitespaces).isEmpty { add_history(text) }
    ReadlineGlobals.completedLines.append(text)
}

/// Completes the word under the cursor (a command's name or one of its arguments) from the
/// phrases that start with the line typed before it; nothing else.
private let readlineComplete:
    @convention(c) (UnsafePointer<CChar>?, Int32, Int32) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = {
        text,
        start,
        _ in
        cr_set_attempted_completion_over(1)
        guard let text, let buffer = cr_line_buffer() else { return nil }
        let before = Array(String(cString: buffer).utf8.prefix(Int(start)))
        let typed = before + Array(String(cString: text).utf8)
        ReadlineGlobals.completionCandidates = completionWords(
            phrases: ReadlineGlobals.completions,
            typed: typed,
            wordStart: before.count
        )
        return rl_completion_matches(text, readlineCandidate)
    }

/// The words that can stand at `wordStart` (a UTF-8 offset) of a line starting with
/// `typed`: from each phrase that starts with `typed`, the word that begins there.
func completionWords(phrases: [String], typed: [UInt8], wordStart: Int) -> [String] {
    var words: [String] = []
    for phrase in phrases {
        let bytes = Array(phrase.utf8)
        guard bytes.starts(with: typed) else { continue }
        let word = String(decoding: bytes.dropFirst(wordStart).prefix { $0 != UInt8(ascii: " ") }, as: UTF8.self)
        if !words.contains(word) { words.append(word) }
    }
    return words
}

/// Hands readline the candidates one by one (state 0 starts over).
private let readlineCandidate: @convention(c) (UnsafePointer<CChar>?, Int32) -> UnsafeMutablePointer<CChar>? = {
    _,
    state in
    let index = Int(state)
    guard index < ReadlineGlobals.completionCandidates.count else { return nil }
    return strdup(ReadlineGlobals.completionCandidates[index])
}
