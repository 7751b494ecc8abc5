import Observation
import Terminal

/// The `statechart run` screen: the active configuration and the last step's log, with
/// the chart's events as commands (those the configuration accepts enabled, so Tab
/// completes them) and `send <event>` for any other name. Steps that no command started
/// (delayed transitions and sends firing) show up as steps named `timer`.
@MainActor
@Observable
final class ChartScreen: Screen {
    @ObservationIgnored let title: String
    @ObservationIgnored private let session: any ChartSession
    private var stepNumber = 0
    private var stepName = "start"
    private var step: ChartStep

    /// Words the terminal app reads itself, so events with these names need `send`.
    private static let reserved: Set<String> = ["help", "back", "quit", "exit", "send"]

    /// The tool has this one screen: nothing to go back to.
    var offersBack: Bool { false }

    /// A screen titled `title` on `session`, which it starts.
    init(title: String, session: any ChartSession) {
        self.title = title
        self.session = session
        step = session.start()
        session.onLog { [weak self] in
            Task { @MainActor in self?.showBackgroundSteps() }
        }
    }

    /// Shows what steps logged outside commands; nothing when a command already took it.
    private func showBackgroundSteps() {
        let log = session.takeLog()
        guard !log.isEmpty else { return }
        stepNumber += 1
        stepName = "timer"
        step = ChartStep(log: log)
    }

    func body(style: TerminalStyle) -> [String] {
        let active = session.activeStates
        var lines = ["  Active: " + (active.isEmpty ? "(none)" : active.joined(separator: ", "))]
        if let variables = session.variables {
            lines.append("  Data: " + (variables.isEmpty ? "(none)" : variables.joined(separator: ", ")))
        }
        lines.append("  Step \(stepNumber) (\(stepName)):")
        lines += step.log.isEmpty ? ["    (nothing entered or exited)"] : step.log.map { "    " + $0 }
        if let note = step.note { lines.append("  " + style.yellow(note)) }
        if let reason = session.endReason { lines.append("  " + style.bold(reason)) }
        return lines
    }

    var commands: [CommandSpec] {
        let accepted = Set(session.acceptedEvents)
        let typeable = session.events.filter { event in
            !Self.reserved.contains(event.lowercased()) && !event.contains(where: \.isWhitespace)
        }
        return typeable.map { event in
            CommandSpec(
                event,
                "Send the event '\(event)'",
                isEnabled: accepted.contains(event),
                availableWhen: "where an active state has a transition on it ('send \(event)' sends it anyway)"
            )
        } + [CommandSpec("send", arguments: "<event>", "Send any event by name, even one no active state handles")]
    }

    /// The active states, as a refusal names them.
    var stateName: String? {
        let active = session.activeStates
        return active.isEmpty ? nil : active.joined(separator: ", ")
    }

    /// `send NAME`: an event of the chart that cannot be typed as a command, or any other
    /// name, which only `send` sends.
    func hint(forUnknown name: String) -> String? {
        let shown = ParsedCommand.shortened(name)
        if let event = session.events.first(where: { $0.lowercased() == name.lowercased() }) {
            return
                "'\(ParsedCommand.shortened(event))' is an event of the chart: send \(ParsedCommand.shortened(event))"
        }
        return "to send '\(shown)' as an event, which no state of the chart names: send \(shown)"
    }

    func perform(_ command: ParsedCommand) async -> CommandResult {
        let event: String
        if command.name == "send" {
            guard command.arguments.count == 1 else {
                return .message("'send' takes one event name (names have no spaces): send <event>.")
            }
            event = command.arguments[0]
        } else {
            guard command.arguments.isEmpty else {
                return .message("An event takes no arguments; to send '\(command.name) ...' use send <event>.")
            }
            event = command.name
        }
        stepNumber += 1
        stepName = event
        step = session.send(event)
        return .done
    }
}
