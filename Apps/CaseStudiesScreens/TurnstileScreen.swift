import CaseStudiesFeatures
import Foundation
import Observation
import StateMachineCore
import StateMachineDump
import Terminal

/// Turnstile: the SMC-style transition table of `StateMachineTable` (the `Turnstile`
/// feature).
@MainActor
final class TurnstileScreen: Screen {
    private let turnstile: Turnstile?
    /// The table's id in the dump.
    private let dumpId = UUID()
    /// Where the table reports its states for the dump.
    private let dumpMediator: Mediator<DumpEvent>
    private let buildError: String?

    init(dumpMediator: Mediator<DumpEvent>) {
        self.dumpMediator = dumpMediator
        do {
            turnstile = try Turnstile()
            buildError = nil
        } catch {
            turnstile = nil
            buildError = "\(error)"
        }
        recordInDump()
    }

    private func recordInDump() {
        guard let turnstile else { return }
        recordState(
            CaseStudyState(machine: "Turnstile", configuration: turnstile.state.rawValue),
            of: dumpId,
            dumpMediator: dumpMediator
        )
    }

    var title: String { "Turnstile" }

    func body(style: TerminalStyle) -> [String] {
        guard let turnstile else { return ["  The table does not build: \(buildError ?? "")"] }
        return [
            "  SMC table:  Locked { Coin Unlocked unlock; Pass Locked alarm }",
            "              Unlocked { Coin Unlocked thankyou; Pass Locked lock }",
            "  State: \(turnstile.state == .locked ? style.red("locked") : style.green("unlocked"))",
            "  Last action: \(turnstile.lastAction)   coins: \(turnstile.coins)   alarms: \(turnstile.alarms)",
        ]
    }

    var commands: [CommandSpec] {
        [CommandSpec("coin", "Insert a coin"), CommandSpec("pass", "Walk through")]
    }

    func perform(_ command: ParsedCommand) async -> CommandResult {
        guard let turnstile else { return .message("The table did not build.") }
        await turnstile.handle(command.name == "coin" ? .coin : .pass)
        recordInDump()
        return .done
    }
}

extension TurnstileScreen: DiagramScreen {
    /// The turnstile's table, drawn by the table's own diagram (its actions named as the screen's table names them).
    func drawing() async -> MachineDrawing {
        guard let turnstile else { return .unavailable("The table did not build: \(buildError ?? "")\n") }
        return .machine(turnstile.transitionTable)
    }
}
