import CaseStudiesFeatures
import StateMachineCore
import StateMachineSupport
import StateMachineUI
import Terminal

/// Analysis: an output with no cancellation policy (a reset lets the running analysis go on).
@MainActor
final class AnalysisScreen: Screen {
    private let ui: UIStateMachine<AnalysisState, AnalysisEvent>
    private let seconds: Double
    private let waitsForOutputs: Bool
    /// Picks the identifier of a new analysis (1...1000, random or from the seed; tests
    /// inject their own).
    var nextIdentifier: () -> Int

    init(environment: CaseStudiesEnvironment) {
        if let seed = environment.seed {
            var generator = SplitMix64(seed: seed)
            nextIdentifier = { Int.random(in: 1...1000, using: &generator) }
        } else {
            nextIdentifier = { Int.random(in: 1...1000) }
        }
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

    var stateName: String? { ui.machineStateDescription }

    var commands: [CommandSpec] {
        [
            CommandSpec(
                "analyse",
                "Start a new analysis",
                isEnabled: ui.state.canMakeNewAnalysis,
                availableWhen: "in AnalysisIsIdle ('reset' first)"
            ),
            CommandSpec(
                "reset",
                "Reset the analysis",
                isEnabled: ui.state.canResetAnalysis,
                availableWhen: "once an analysis started ('analyse' first)"
            ),
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

extension AnalysisScreen: DiagramScreen {
    /// The analysis machine explored with one analysis identifier (the analysis never runs
    /// while exploring).
    func drawing() async -> MachineDrawing {
        await exploredDrawing(
            of: makeAnalysisStateMachine(perform: {}),
            events: [DidRequestAnalysis(identifier: 1), DidCompleteAnalysis(), DidRequestAnalysisReset()],
            maxDepth: 3
        )
    }
}
