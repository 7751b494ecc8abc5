import Foundation
import NavigationFeatures
import Terminal
import TestSupport
import Testing

@testable import NavigationScreens

/// Drives the Navigation app in-process through a scripted console: piped behaviour by
/// default (every command returns once the screens it leads to have loaded, then its frame
/// is drawn), or a terminal's with `interactive` (frames follow the machines). The backend
/// answers after `delayScale` seconds, or as `backend` does when given.
@MainActor
final class AppDriver {
    let console: ScriptedConsole
    private var run: Task<Int32, Never>?

    init(link: String? = nil, delayScale: Double = 0.01, backend: FakeBackend? = nil, interactive: Bool = false) {
        console = ScriptedConsole(isInteractive: interactive)
        let options = NavigationApp.Options(delayScale: delayScale, seed: 7, link: link.flatMap(DeepLink.init))
        let environment = NavigationEnvironment(backend: backend ?? FakeBackend(latency: .seconds(delayScale), seed: 7))
        let console = self.console
        run = Task {
            await NavigationApp.run(
                options: options,
                console: console,
                style: TerminalStyle(isEnabled: false),
                environment: environment
            )
        }
    }

    /// Waits until the output satisfies `predicate`, failing the test after `seconds`.
    ///
    /// `ScriptedConsole.waitForOutput` ignores cancellation, so a plain `within` would
    /// hang on a wait that never ends: instead a timer writes a marker that ends the wait
    /// (and every later one), and the test records the failure.
    func wait(
        seconds: Double = 60,
        _ what: String,
        sourceLocation: SourceLocation,
        until predicate: @escaping @Sendable ([String]) -> Bool
    ) async {
        let console = self.console
        let timer = Task {
            try? await Task.sleep(for: .seconds(seconds))
            if !Task.isCancelled { console.write(Self.timeoutMarker) }
        }
        await console.waitForOutput { output in predicate(output) || output.contains(Self.timeoutMarker) }
        timer.cancel()
        if !predicate(console.output) {
            Issue.record("\(what) did not happen within \(seconds) s", sourceLocation: sourceLocation)
        }
    }

    private nonisolated static let timeoutMarker = "<the wait timed out>"

    /// The frames written so far.
    var frames: [String] { console.output.filter { $0.hasPrefix("== ") } }

    /// Waits until a frame contains every one of `expected`; returns it.
    @discardableResult
    func waitForFrame(containing expected: [String], sourceLocation: SourceLocation = #_sourceLocation) async -> String
    {
        await wait("a frame with \(expected)", sourceLocation: sourceLocation) { output in
            output.contains { $0.hasPrefix("== ") && expected.allSatisfy($0.contains) }
        }
        return frames.last { frame in expected.allSatisfy(frame.contains) } ?? ""
    }

    /// Types `line`, then waits until something written after it (a frame or a message)
    /// contains every one of `expected`; returns it.
    @discardableResult
    func type(
        _ line: String,
        expecting expected: String...,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> String {
        let start = console.output.count
        console.type(line)
        await wait("\(expected) after '\(line)'", sourceLocation: sourceLocation) { output in
            output.dropFirst(start).contains { text in expected.allSatisfy(text.contains) }
        }
        return console.output.dropFirst(start).last { text in expected.allSatisfy(text.contains) } ?? ""
    }

    /// Types `line` and returns everything written until the app has read the next line
    /// (`help`, whose answer marks the end).
    func outputOf(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) async -> [String] {
        let start = console.output.count
        console.type(line)
        console.type("help")
        await wait("the answer to '\(line)'", sourceLocation: sourceLocation) { output in
            output.dropFirst(start).contains { $0.contains("List the commands of this screen") }
        }
        let output = Array(console.output.dropFirst(start))
        return Array(output.prefix { $0 != "navigation> help" && !$0.contains("List the commands of this screen") })
    }

    /// Ends the input and returns the app's exit status. The app first runs whatever input
    /// is still queued (a whole script, when a test typed one before finishing), so the bound
    /// is a minute: under the thread sanitizer on a busy 2-core host a script of 30 commands
    /// took more than the 20 s of a single wait.
    func finish() async -> Int32? {
        console.endInput()
        guard let run else { return nil }
        return await within(seconds: 60, "the app's exit") { await run.value }
    }
}
