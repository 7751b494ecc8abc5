import CaseStudiesFeatures
import StateMachineCore
import StateMachineUI
import Terminal

/// Clics: press `load` several times within the load's 5 s. The cancelling variant counts
/// one load (each new load cancels the previous), the continuing one counts them all.
@MainActor
final class ClicsScreen: Screen {
    private let ui: UIStateMachine<ClicsState, ClicsEvent>
    let cancelling: Bool
    private let seconds: Double
    private let waitsForOutputs: Bool

    init(cancelling: Bool, environment: CaseStudiesEnvironment) {
        self.cancelling = cancelling
        self.seconds = 5 * environment.delayScale
        self.waitsForOutputs = environment.waitsForOutputs
        self.ui = UIStateMachine(
            asyncStateMachineFactory: cancelling ? environment.clicsCancelling : environment.clicsContinuing
        )
    }

    var title: String { cancelling ? "Clics (cancel output)" : "Clics (continue output)" }

    func body(style: TerminalStyle) -> [String] {
        let state = ui.state
        let hint = "Press load several times in a \(formatSeconds(seconds)) window"
        return [
            state.isLoading ? "  " + style.yellow("loading...") : "  " + (state.canLoad ? hint : style.dim(hint)),
            "  Number of loads: \(state.numberOfLoads)",
        ]
    }

    var stateName: String? { ui.machineStateDescription }

    var commands: [CommandSpec] {
        [
            CommandSpec(
                "load",
                "Start a load",
                isEnabled: ui.state.canLoad,
                availableWhen: "in ClicsIsIdle or ClicsIsLoading ('reset' first)"
            ),
            CommandSpec(
                "reset",
                "Back to no loads",
                isEnabled: ui.state.canReset,
                availableWhen: "in ClicsIsLoaded, once a load ended"
            ),
        ]
    }

    var isBusy: Bool { ui.state.isLoading }

    func didAppear() { ui.start() }

    func perform(_ command: ParsedCommand) async -> CommandResult {
        let event: any Event<ClicsEvent> = command.name == "load" ? DidRequestClicsLoading() : DidRequestClicsReset()
        if waitsForOutputs {
            await ui.sendAndWait(event)
        } else {
            ui.send(event)
        }
        return .done
    }

    func settle() async { await ui.waitUntilCaughtUp() }
}

/// `5s`, `0.05s`. Total: a value that is not a whole `Int` prints as a decimal.
func formatSeconds(_ seconds: Double) -> String {
    if seconds == seconds.rounded(), let whole = Int(exactly: seconds) { return "\(whole)s" }
    return "\(seconds)s"
}

extension ClicsScreen: DiagramScreen {
    /// The Clics machine explored 3 events deep (the load never runs while exploring).
    func drawing() async -> MachineDrawing {
        await exploredDrawing(
            of: makeClicsStateMachine(cancelling: cancelling, load: {}),
            events: [DidRequestClicsLoading(), DidCompleteClicsLoading(), DidRequestClicsReset()],
            maxDepth: 3
        )
    }
}
