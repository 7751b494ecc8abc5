import CaseStudiesScreens
import Foundation
import Terminal
import Testing

/// Runs `body`, failing the test when it takes longer than `seconds` (a bound on a wait
/// for a fact, never a sleep).
func within<T: Sendable>(
    seconds: Double = 20,
    _ what: String,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable () async -> T
) async -> T? {
    await withTaskGroup(of: T?.self) { group in
        group.addTask { await body() }
        group.addTask {
            try? await Task.sleep(for: .seconds(seconds))
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        if first == nil { Issue.record("\(what) did not happen within \(seconds) s", sourceLocation: sourceLocation) }
        return first
    }
}

/// Drives the CaseStudies app in-process through a scripted console.
@MainActor
final class AppDriver {
    let console = ScriptedConsole()
    private var run: Task<Int32, Never>?

    init(delayScale: Double = 0.01) {
        let app = CaseStudiesApp.make(
            options: .init(delayScale: delayScale), console: console, style: TerminalStyle(isEnabled: false))
        run = Task { await app.run() }
    }

    /// The last frame (text starting with "== ").
    var lastFrame: String { console.output.last { $0.hasPrefix("== ") } ?? "" }

    /// Types `line`, then waits until some output written after it contains `expected`.
    @discardableResult
    func type(_ line: String, expecting expected: String, sourceLocation: SourceLocation = #_sourceLocation) async -> String {
        let start = console.output.count
        console.type(line)
        let console = self.console
        await within("'\(expected)' after '\(line)'", sourceLocation: sourceLocation) {
            await console.waitForOutput { output in output.dropFirst(start).contains { $0.contains(expected) } }
        }
        return console.output.dropFirst(start).last { $0.contains(expected) } ?? ""
    }

    /// Waits until a frame satisfies `predicate`.
    func waitForFrame(_ what: String, sourceLocation: SourceLocation = #_sourceLocation, where predicate: @escaping @Sendable (String) -> Bool) async {
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

/// The built executable next to the test bundle.
func executable(_ name: String) -> URL {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    // The test bundle itself is a directory on some platforms.
    while !FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path),
        directory.pathComponents.count > 1
    {
        directory.deleteLastPathComponent()
    }
    return directory.appendingPathComponent(name)
}
