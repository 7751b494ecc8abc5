import CaseStudiesFeatures
import StateMachineCore
import StateMachineUI
import Terminal

/// Analysis: an output with no cancellation policy (a reset lets the running analysis go on).
@MainActor
final class AnalysisScreen: Screen {
    private let ui: UIStateMachine<AnalysisState, AnalysisEvent>
    private let seconds: Double
    private let waitsForOutputs: Bool
    /// Picks the identifier of a new analysis (random 1...1000; tests inject their own).
    var nextIdentifier: () -> Int = { Int.random(in: 1...1000) }

    init(environment: CaseStudiesEnvironment) {
        ui = UIStateMachine(asyncStateMachineFactory: environment.analysis)
        seconds = 3 * environment.delayScale
        waitsForOutputs = environment.waitsForOutputs
    }

    var title: String { "Analysis" }

    func body(style: TerminalStyle) -> [String] {
        let state = ui.state
        return [
            "  Type 'analyse' to start an analysis (\(formatSeconds(seconds))). While it runs you can reset it or wait.",
            "  " + (state.isInProgress ? style.yellow(state.message) : state.message),
        ]
    }

    var commands: [CommandSpec] {
        [
            CommandSpec("analyse", "Start a new analysis", isEnabled: ui.state.canMakeNewAnalysis),
            CommandSpec("reset", "Reset the analysis", isEnabled: ui.state.canResetAnalysis),
        ]
    }

    var isBusy: Bool { ui.state.isInProgress }

    func didAppear() { ui.start() }

    func perform(_ command: ParsedCommand) async -> CommandResult {
        let event: any Event<AnalysisEvent> =
            command.name == "analyse" ? DidRequestAnalysis(identifier: nextIdentifier()) : DidRequestAnalysisReset()
        if waitsForOutputs {
            await ui.sendAndWait(event)
        } else {
            ui.send(event)
        }
        return .done
    }

    func settle() async { await ui.waitUntilCaughtUp() }
}
