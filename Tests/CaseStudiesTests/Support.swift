import CaseStudiesScreens
import Foundation
import Terminal
import TestSupport
import Testing

/// Drives the CaseStudies app in-process through a scripted console.
@MainActor
final class AppDriver {
    let console = ScriptedConsole()
    private var run: Task<Int32, Never>?

    init(delayScale: Double = 0.01) {
        let app = CaseStudiesApp.make(
            options: .init(delayScale: delayScale),
            console: console,
            style: TerminalStyle(isEnabled: false)
        )
        run = Task { await app.run() }
    }

    /// The last frame (text starting with "== ").
    var lastFrame: String { console.output.last { $0.hasPrefix("== ") } ?? "" }

    /// Types `line`, then waits until some output written after it contains `expected`.
    @discardableResult
    func type(
        _ line: String,
        expecting expected: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> String {
        let start = console.output.count
        console.type(line)
        let console = self.console
        await within("'\(expected)' after '\(line)'", sourceLocation: sourceLocation) {
            await console.waitForOutput { output in output.dropFirst(start).contains { $0.contains(expected) } }
        }
        return console.output.dropFirst(start).last { $0.contains(expected) } ?? ""
    }

    /// Waits until a frame satisfies `predicate`.
    func waitForFrame(
        _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation,
        where predicate: @escaping @Sendable (String) -> Bool
    ) async {
        let console = self.console
        await within(what, sourceLocation: sourceLocation) {
            await console.waitForOutput { output in output.contains { $0.hasPrefix("== ") && predicate($0) } }
        }
    }

    /// Ends the input and returns the app's exit status.
    func finish() async -> Int32? {
        console.endInput()
        guard let run else { return nil }
        return await within("the app's exit") { await run.value }
    }
}
