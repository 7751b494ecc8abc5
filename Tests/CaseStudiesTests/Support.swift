import Foundation
import StateMachineCore
import StateMachineDump
import Terminal
import TestSupport
import Testing

@testable import CaseStudiesScreens

/// Drives the CaseStudies app in-process through a scripted console: piped behaviour by
/// default (each command settles before its frame), or a terminal's with `interactive`
/// (frames follow the machines, commands return once sent).
@MainActor
final class AppDriver {
    let console: ScriptedConsole
    private var run: Task<Int32, Never>?

    init(
        delayScale: Double = 0,
        interactive: Bool = false,
        dumpStateMachine: AsyncStateMachine<DumpState, DumpEvent> = defaultDumpStateMachine,
        dumpMediator: Mediator<DumpEvent> = defaultDumpMediator,
        delay: (@Sendable (_ seconds: Double) async throws -> Void)? = nil
    ) {
        console = ScriptedConsole(isInteractive: interactive)
        let app = CaseStudiesApp.make(
            options: .init(delayScale: delayScale),
            console: console,
            style: TerminalStyle(isEnabled: false),
            dumpStateMachine: dumpStateMachine,
            dumpMediator: dumpMediator,
            delay: delay
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

    /// Waits until something written from the `start`-th output on contains `expected`.
    func waitFor(
        _ expected: String,
        after start: Int = 0,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let console = self.console
        await within("'\(expected)'", sourceLocation: sourceLocation) {
            await console.waitForOutput { output in output.dropFirst(start).contains { $0.contains(expected) } }
        }
    }

    /// Types `line` and returns everything written until the app has read the next line
    /// (`help`, whose answer marks the end): with piped behaviour, exactly what `line` printed.
    func outputOf(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) async -> [String] {
        let start = console.output.count
        console.type(line)
        console.type("help")
        await waitFor("List the commands of this screen", after: start, sourceLocation: sourceLocation)
        return Array(console.output.dropFirst(start).prefix { $0 != "casestudies> help" })
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
