import Foundation
import Observation
import StateMachineCore
import StateMachineDump
import StateMachineTable
import Terminal

/// Turnstile: the SMC-style transition table of `StateMachineTable`.
@MainActor
@Observable
final class TurnstileScreen: Screen, SyntaxBuilder {
    enum State: String { case locked, unlocked }
    enum Event { case coin, pass }

    @ObservationIgnored private let turnstile = FSM<State, Event>(initialState: .locked)
    /// The table's id in the dump.
    @ObservationIgnored private let dumpId = UUID()
    /// Where the table reports its states for the dump.
    @ObservationIgnored private let dumpMediator: Mediator<DumpEvent>
    private(set) var state: State = .locked
    private(set) var lastAction = "none yet"
    private(set) var coins = 0
    private(set) var alarms = 0
    private var buildError: String?

    init(dumpMediator: Mediator<DumpEvent>) {
        self.dumpMediator = dumpMediator
        do {
            try turnstile.buildTable {
                define(.locked) {
                    when(.coin) | then(.unlocked) | unlock
                    when(.pass) | then(.locked) | alarm
                }
                define(.unlocked) {
                    when(.coin) | then(.unlocked) | thankYou
                    when(.pass) | then(.locked) | lock
                }
            }
        } catch {
            buildError = "\(error)"
        }
        recordInDump()
    }

    private func recordInDump() {
        recordState(
            CaseStudyState(machine: "Turnstile", configuration: state.rawValue),
            of: dumpId,
            dumpMediator: dumpMediator
        )
    }

    var title: String { "Turnstile" }

    func body(style: TerminalStyle) -> [String] {
        if let buildError { return ["  The table does not build: \(buildError)"] }
        return [
            "  SMC table:  Locked { Coin Unlocked unlock; Pass Locked alarm }",
            "              Unlocked { Coin Unlocked thankyou; Pass Locked lock }",
            "  State: \(state == .locked ? style.red("locked") : style.green("unlocked"))",
            "  Last action: \(lastAction)   coins: \(coins)   alarms: \(alarms)",
        ]
    }

    var commands: [CommandSpec] {
        [CommandSpec("coin", "Insert a coin"), CommandSpec("pass", "Walk through")]
    }

    func perform(_ command: ParsedCommand) async -> CommandResult {
        await turnstile.handleEvent(command.name == "coin" ? .coin : .pass)
        state = turnstile.state
        recordInDump()
        return .done
    }

    private func unlock() {
        coins += 1
        lastAction = "unlock"
    }

    private func alarm() {
        alarms += 1
        lastAction = "alarm"
    }

    private func thankYou() {
        coins += 1
        lastAction = "thank you"
    }

    private func lock() {
        lastAction = "lock"
    }
}
