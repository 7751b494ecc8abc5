import Terminal
import Testing

/// A screen that can intercept the built-in `back`.
@MainActor
private final class RoutesScreen: Screen {
    var routes: [String]
    let intercepts: Bool
    init(routes: [String], intercepts: Bool) {
        self.routes = routes
        self.intercepts = intercepts
    }
    var title: String { "Routes" }
    func body(style: TerminalStyle) -> [String] { ["routes: \(routes)"] }
    var commands: [CommandSpec] { [] }
    func perform(_ command: ParsedCommand) async -> CommandResult { .done }
    func back() async -> CommandResult? {
        guard intercepts else { return nil }
        guard !routes.isEmpty else { return .message("No route to pop.") }
        routes.removeLast()
        return .message("popped, left: \(routes)")
    }
}

@Suite("The screens' back hook", .timeLimit(.minutes(2)))
@MainActor
struct BackHookTests {
    /// Runs an app on `screen`, types `lines`, ends the input, and returns everything written.
    /// The app ends at once; the bound (60 s) leaves room for the thread sanitizer on a
    /// loaded host, where 20 s was passed once in a full run.
    private func session(_ screen: any Screen, _ lines: [String]) async -> [String] {
        let console = ScriptedConsole()
        let app = TerminalApp(name: "t", console: console, style: TerminalStyle(isEnabled: false), home: screen)
        lines.forEach(console.type)
        console.endInput()
        let status = await withTaskGroup(of: Int32?.self) { group in
            group.addTask { await app.run() }
            group.addTask {
                try? await Task.sleep(for: .seconds(60))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        #expect(status == 0, "the app did not end within 60 s")
        return console.output
    }

    @Test("a screen that handles back gets it, and its result is applied")
    func intercepted() async {
        let output = await session(RoutesScreen(routes: ["a", "b"], intercepts: true), ["back", "back", "back"])
        #expect(output.contains("popped, left: [\"a\"]"))
        #expect(output.contains("popped, left: []"))
        #expect(output.contains("No route to pop."))
        #expect(!output.contains { $0.contains("Already on the first screen") })
    }

    @Test("by default back still pops the runner's stack or says it is on the first screen")
    func defaultBack() async {
        let output = await session(RoutesScreen(routes: ["a"], intercepts: false), ["back"])
        #expect(output.contains("Already on the first screen; 'quit' leaves the app."))
    }
}
