import Observation
import StateMachineHierarchy
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
    /// Which transition the last event matched, when by a prefix or `*`.
    private var matched: String?

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
        matched = nil
        step = ChartStep(log: log)
    }

    func body(style: TerminalStyle) -> [String] {
        let active = session.activeStates
        var lines = ["  Active: " + (active.isEmpty ? "(none)" : active.joined(separator: ", "))]
        if let error = session.variablesError {
            lines.append("  Data: (\(error))")
        } else if let variables = session.variables, !variables.isEmpty {
            lines.append("  Data: " + Self.describe(variables).joined(separator: ", "))
        }
        lines.append("  Step \(stepNumber) (\(stepName)):")
        lines += step.log.isEmpty ? ["    (nothing entered or exited)"] : step.log.map { "    " + $0 }
        if let matched { lines.append("  " + matched) }
        if let note = step.note { lines.append("  " + style.yellow(note)) }
        if let reason = session.endReason { lines.append("  " + style.bold(reason)) }
        return lines
    }

    /// The variables as the frame shows them: `name = JSON`, sorted by name.
    static func describe(_ variables: [String: SCXMLValue]) -> [String] {
        variables.keys.sorted().map { "\($0) = \(variables[$0]!.json)" }
    }

    var commands: [CommandSpec] {
        let accepted = Set(session.acceptedEvents)
        let typeable = session.events.filter { event in
            !Self.reserved.contains(event.lowercased()) && !event.contains(where: \.isWhitespace)
        }
        return typeable.map { event in
            let isEnabled = accepted.contains(event)
            return CommandSpec(
                event,
                "Send the event '\(event)'",
                isEnabled: isEnabled,
                availableWhen: isEnabled ? "" : Self.availableWhen(event, session.match(event))
            )
        } + [CommandSpec("send", arguments: "<event>", "Send any event by name, even one no active state handles")]
    }

    /// What would allow `event`, which `match` says no active state takes.
    private static func availableWhen(_ event: String, _ match: EventMatch) -> String {
        let anyway = "('send \(ParsedCommand.shortened(event))' sends it anyway)"
        switch match {
        case .accepted: return ""
        case .elsewhere(let transitions): return "where a transition matches it: \(transitions) \(anyway)"
        case .unmatched: return "nowhere: no transition of the chart matches it \(anyway)"
        }
    }

    /// An event no command lists that the chart matches (by a prefix, or `*`): sent when an
    /// active state's transition matches it, refused saying which transitions would.
    func command(forUnlisted name: String) -> CommandSpec? {
        guard !name.contains(where: \.isWhitespace), !Self.reserved.contains(name.lowercased()) else { return nil }
        let match = session.match(name)
        switch match {
        case .unmatched: return nil
        case .accepted, .elsewhere:
            return CommandSpec(
                name,
                "Send the event '\(name)'",
                isEnabled: match.isAccepted,
                availableWhen: Self.availableWhen(name, match)
            )
        }
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
        return "to send '\(shown)' as an event, which no transition of the chart matches: send \(shown)"
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
        // Which transition the chart matches the event with, when it is not by its name.
        if case .accepted(let transition, byPrefix: true) = session.match(event) {
            matched = "'\(ParsedCommand.shortened(event))' matches \(transition)."
        } else {
            matched = nil
        }
        stepNumber += 1
        stepName = event
        step = session.send(event)
        return .done
    }
}
