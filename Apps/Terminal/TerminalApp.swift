import StateMachineSupport

/// A command every screen accepts, provided by the app (for example `dump`).
public struct GlobalCommand {
    /// The command as `help` lists it.
    public let spec: CommandSpec
    /// Runs the command; the text it returns is shown under the frame.
    public let action: @MainActor (ParsedCommand) async -> String?
    /// Whether the command does something on a screen; where it does not, it is shown
    /// dimmed (its action still runs when typed, and says what would allow it).
    public let isAvailable: @MainActor (any Screen) -> Bool

    /// A global command, available on every screen (see ``available(on:)``).
    public init(_ spec: CommandSpec, action: @escaping @MainActor (ParsedCommand) async -> String?) {
        self.init(spec, isAvailable: { _ in true }, action: action)
    }

    private init(
        _ spec: CommandSpec,
        isAvailable: @escaping @MainActor (any Screen) -> Bool,
        action: @escaping @MainActor (ParsedCommand) async -> String?
    ) {
        self.spec = spec
        self.isAvailable = isAvailable
        self.action = action
    }

    /// The same command, available only on the screens `isAvailable` accepts (shown dimmed
    /// on the others, where its action still runs and says what would allow it).
    public func available(on isAvailable: @escaping @MainActor (any Screen) -> Bool) -> GlobalCommand {
        GlobalCommand(spec, isAvailable: isAvailable, action: action)
    }
}

/// Runs a terminal app: a stack of screens, a prompt, and a frame redrawn whenever the
/// state the current screen renders changes.
///
/// Every screen accepts `help` (its commands with one line each), `back` (previous screen),
/// `quit` (also `exit`), and the app's global commands. An unknown command, an unavailable
/// one, or bad arguments get a one-line message naming what was wrong and what would work;
/// nothing else changes. The app ends on `quit`, at the end of input (Ctrl-D, Ctrl-C, the
/// end of a pipe) or when a screen returns `.quit`.
@MainActor
public final class TerminalApp {
    private let name: String
    private let console: any Console
    private let style: TerminalStyle
    private let globalCommands: [GlobalCommand]
    /// What the app keeps between runs, if it does: frames wait until it is saved.
    private let keptState: (any KeptState)?
    private var stack: [any Screen]
    private var lastFrame: String?
    /// Draws the current screen, and again whenever the state it reads changes (the
    /// package's one render loop, which `StateMachineUI.StateMachineView` also runs on).
    private var renderLoop: RenderLoop?
    /// Whether the next drawing writes its frame even if unchanged (after a resize).
    private var isFrameForced = false
    private var spinner: Task<Void, Never>?
    private var spinnerPhase = 0
    /// Without a terminal, a command runs to the end (its screen settles) before its frame is
    /// drawn; state changes observed meanwhile draw nothing, so that a piped transcript does
    /// not depend on timing.
    private var isRunningCommand = false

    private static let builtIns = [
        CommandSpec("help", "List the commands of this screen"),
        CommandSpec("back", "Go back to the previous screen"),
        CommandSpec("quit", "Leave the app (also: exit, Ctrl-D)"),
    ]

    /// An app named `name` (the prompt) that starts on `home`. With `keptState`, a frame is
    /// drawn only once what it shows is saved (see ``KeptState``).
    public init(
        name: String,
        console: any Console,
        style: TerminalStyle,
        home: any Screen,
        globalCommands: [GlobalCommand] = [],
        keptState: (any KeptState)? = nil
    ) {
        self.name = name
        self.keptState = keptState
        self.console = console
        self.style = style
        self.stack = [home]
        self.globalCommands = globalCommands
        // Without a terminal, a change while a command runs draws nothing: the command's
        // own frame follows once it settled.
        renderLoop = RenderLoop(
            mayDraw: { [weak self] in self.map { $0.console.isInteractive || !$0.isRunningCommand } ?? false },
            draw: { [weak self] in self?.draw() }
        )
    }

    /// The screen shown now.
    public var currentScreen: any Screen { stack[stack.count - 1] }

    /// Runs until the user quits or input ends; returns the exit status: 0, or 130 when
    /// Ctrl-C ended the input (the shell convention for SIGINT).
    ///
    /// Without a terminal (``Console/isInteractive`` false) every command runs to the end
    /// before the next line is read: the runner waits for the screen to settle
    /// (``Screen/settle()``), then draws its frame if it changed. The same input then always
    /// prints the same output, and nothing a command started is still running at the end
    /// of input. On a terminal, frames follow the machines as they change and a command
    /// returns as soon as it has been sent; leaving while a screen is still working says so.
    /// With a ``KeptState``, each command also waits until what it changed is saved, and no
    /// frame shows what is not saved yet.
    public func run() async -> Int32 {
        console.onResize { Task { @MainActor [weak self] in self?.render(force: true) } }
        currentScreen.didAppear()
        await settleIfPiped()
        await keptState?.waitUntilSaved()
        render()
        for await line in console.lines {
            if !console.isInteractive { console.write(prompt(isBusy: false) + line) }
            // A blank line does nothing (the frame on screen is current).
            guard let command = ParsedCommand(line) else { continue }
            isRunningCommand = true
            let flow = await handle(command)
            await settleIfPiped()
            await keptState?.waitUntilSaved()
            isRunningCommand = false
            if flow == .quit { break }
            render()
        }
        let leavesWork = console.isInteractive && currentScreen.isBusy
        spinner?.cancel()
        // Closed first: the terminal is restored and the prompt line erased before the last
        // message, which then stands on its own line, above the shell's prompt.
        console.close()
        if leavesWork {
            console.write("Leaving while '\(currentScreen.title)' is still working; what it was doing is dropped.")
        }
        return console.wasInterrupted ? 130 : 0
    }

    /// Without a terminal: waits until the current screen shows the whole effect of what
    /// was done.
    private func settleIfPiped() async {
        guard !console.isInteractive else { return }
        await currentScreen.settle()
    }

    private enum Flow { case proceed, quit }

    private func handle(_ command: ParsedCommand) async -> Flow {
        let screen = currentScreen
        switch command.name {
        case "quit", "exit":
            return .quit
        case "help":
            show(helpText(for: screen))
            return .proceed
        case "back" where screen.offersBack:
            if let result = await screen.back() {
                return apply(result)
            }
            if stack.count > 1 {
                stack.removeLast()
                lastFrame = nil
                currentScreen.didAppear()
            } else {
                show("Already on the first screen; 'quit' leaves the app.")
            }
            return .proceed
        default:
            break
        }
        if let global = globalCommands.first(where: { $0.spec.name == command.name }) {
            if let text = await global.action(command) { show(text) }
            return .proceed
        }
        // Commands match without regard to case, an enabled one first; the screen gets the
        // name as it declared it (a statechart's events keep their case).
        let matching = screen.commands.filter { $0.name.lowercased() == command.name }
        if matching.isEmpty, let unlisted = screen.command(forUnlisted: command.typedName) {
            guard unlisted.isEnabled else {
                show(Self.refusal(of: unlisted, state: screen.stateName))
                return .proceed
            }
            return apply(await screen.perform(ParsedCommand(name: unlisted.name, arguments: command.arguments)))
        }
        guard let spec = matching.first(where: \.isEnabled) ?? matching.first else {
            let available =
                (screen.commands + globals(for: screen) + builtIns(for: screen)).filter(\.isEnabled).map(\.name)
            let hint = screen.hint(forUnknown: command.name).map { "; \($0)" } ?? ""
            show(
                "Unknown command '\(ParsedCommand.shortened(command.name))'\(hint). Available here: \(available.joined(separator: ", "))."
            )
            return .proceed
        }
        guard spec.isEnabled else {
            show(Self.refusal(of: spec, state: screen.stateName))
            return .proceed
        }
        return apply(await screen.perform(ParsedCommand(name: spec.name, arguments: command.arguments)))
    }

    /// Carries out what a screen did with a command.
    private func apply(_ result: CommandResult) -> Flow {
        switch result {
        case .done:
            break
        case .message(let text):
            show(text)
        case .push(let next):
            stack.append(next)
            lastFrame = nil
            next.didAppear()
        case .back:
            if stack.count > 1 {
                stack.removeLast()
                lastFrame = nil
                currentScreen.didAppear()
            }
        case .quit:
            return .quit
        }
        return .proceed
    }

    /// `help`, `back` (when the screen offers it; refused on the first screen unless the
    /// screen has a step of its own to go back to) and `quit`.
    private func builtIns(for screen: any Screen) -> [CommandSpec] {
        let canGoBack = stack.count > 1 || screen.hasOwnBackStep
        return Self.builtIns.filter { $0.name != "back" || screen.offersBack }.map { spec in
            guard spec.name == "back", !canGoBack else { return spec }
            return CommandSpec("back", spec.summary, isEnabled: false, availableWhen: "once a screen is opened")
        }
    }

    /// Why `spec` is refused: the state the screen is in and what would allow it.
    static func refusal(of spec: CommandSpec, state: String?) -> String {
        let now = state.map { "in state \(ParsedCommand.shortened($0, to: 80))" } ?? "now"
        let allowed =
            spec.availableWhen.isEmpty ? "the state does not allow it" : "it is available \(spec.availableWhen)"
        return "'\(spec.name)' is not available \(now): \(allowed)."
    }

    /// The app's global commands, each marked unavailable on a screen it does nothing on.
    private func globals(for screen: any Screen) -> [CommandSpec] {
        globalCommands.map { global in
            guard !global.isAvailable(screen) else { return global.spec }
            let spec = global.spec
            return CommandSpec(spec.name, arguments: spec.arguments, spec.summary, isEnabled: false)
        }
    }

    private func show(_ message: String) {
        console.write(message)
    }

    private func helpText(for screen: any Screen) -> String {
        let commands = screen.commands + globals(for: screen) + builtIns(for: screen)
        let width = commands.map(\.usage.count).max() ?? 0
        return commands.map { spec in
            let line = "  \(spec.usage.padding(toLength: width, withPad: " ", startingAt: 0))  \(spec.summary)"
            return spec.isEnabled ? line : style.dim(line + " (not available now)")
        }.joined(separator: "\n")
    }

    // MARK: Rendering

    /// Draws the current screen if what it shows changed (or always, with `force`), and
    /// re-arms observation so that the next change of its state draws it again (bursts of
    /// changes coalesced into one frame).
    private func render(force: Bool = false) {
        if force { isFrameForced = true }
        renderLoop?.render()
    }

    /// One drawing of the render loop: the frame, the prompt and its completions, read
    /// under observation tracking.
    private func draw() {
        // A change that is not saved yet is drawn once it is (`isSaved` is tracked too).
        if let keptState, !keptState.isSaved { return }
        let screen = currentScreen
        let frame = self.frame(of: screen)
        let completions = screen.commands.filter(\.isEnabled).flatMap(\.completionPhrases)
        let isBusy = screen.isBusy
        let allCompletions =
            completions + (globals(for: screen) + builtIns(for: screen)).filter(\.isEnabled).map(\.name)
        updateBusyIndicator(isBusy)
        // The completions first: once a frame shows, Tab completes the commands it lists
        // (a console applies them no later than the output that follows).
        console.setPrompt(prompt(isBusy: isBusy), completions: allCompletions)
        if isFrameForced || frame != lastFrame {
            console.write(frame)
            lastFrame = frame
        }
        isFrameForced = false
    }

    private func frame(of screen: any Screen) -> String {
        let trail = (stack.map(\.title)).joined(separator: " > ")
        var lines = [style.bold("== \(trail) ==")]
        var style = self.style
        style.columns = console.columns ?? style.columns
        lines += screen.body(style: style)
        // Unavailable commands are dimmed on a terminal, parenthesised in plain text.
        let commands = screen.commands.map { command in
            command.isEnabled ? command.usage : style.isEnabled ? style.dim(command.usage) : "(\(command.usage))"
        }
        let others = (globals(for: screen) + builtIns(for: screen)).map { command in
            command.isEnabled ? command.name : style.isEnabled ? style.dim(command.name) : "(\(command.name))"
        }
        lines.append("")
        lines.append("Commands: " + (commands + others).joined(separator: ", "))
        return lines.joined(separator: "\n")
    }

    private static let spinnerFrames = ["|", "/", "-", "\\"]

    private func prompt(isBusy: Bool) -> String {
        guard isBusy else { return "\(name)> " }
        return "\(Self.spinnerFrames[spinnerPhase % Self.spinnerFrames.count]) working... \(name)> "
    }

    /// On a terminal, animates the prompt while the screen is busy; the prompt stays usable.
    private func updateBusyIndicator(_ isBusy: Bool) {
        guard console.isInteractive else { return }
        if isBusy, spinner == nil {
            spinner = Task { @MainActor [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(150))
                    guard let self, !Task.isCancelled else { return }
                    spinnerPhase += 1
                    render()
                }
            }
        } else if !isBusy {
            spinner?.cancel()
            spinner = nil
        }
    }
}
