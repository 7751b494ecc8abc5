import CaseStudiesFeatures
import StateMachineCore
import StateMachineUI
import Terminal

/// Counter: a units machine linked to a tens machine by a mediator.
@MainActor
final class CounterScreen: Screen {
    private let units: UIStateMachine<UnitsUIState, UnitsEvent>
    private let tens: UIStateMachine<TensState, TensEvent>
    /// Kept alive as long as the screen: it links the two machines.
    private let mediator = Mediator<TensEvent>()

    init(environment: CaseStudiesEnvironment) {
        let unitsMachine = environment.units.makeAsyncStateMachine()
        let tensMachine = environment.tens.makeAsyncStateMachine()
        connectCounter(units: unitsMachine, tens: tensMachine, through: mediator)
        units = UIStateMachine(asyncStateMachine: unitsMachine, mapping: makeUnitsUIState)
        tens = UIStateMachine(asyncStateMachine: tensMachine)
        environment.keeper?.counter = self
    }

    /// The units and the tens shown (the state file keeps them).
    var shownValues: (units: UInt, tens: UInt) { (units.state.unitsState.value, tens.state.value) }

    var title: String { "Counter" }

    func body(style: TerminalStyle) -> [String] {
        let state = units.state
        let value = "\(state.unitsState.value)"
        let colored =
            switch state.color {
            case .green: style.green(value)
            case .red: style.red(value)
            case .accent: style.cyan(value)
            }
        return ["  Units: \(colored)", "    linked to (tens = units / 10)", "  Tens: \(tens.state.value)"]
    }

    var stateName: String? { units.machineStateDescription }

    var commands: [CommandSpec] {
        [
            CommandSpec("+", "Increase the units"),
            CommandSpec(
                "-",
                "Decrease the units",
                isEnabled: units.state.unitsState.canDecrease,
                availableWhen: "above 0 ('+' first)"
            ),
        ]
    }

    func didAppear() {
        units.start()
        tens.start()
    }

    func perform(_ command: ParsedCommand) async -> CommandResult {
        switch command.name {
        case "+": await units.sendAndWait(DidRequestIncrease())
        case "-": await units.sendAndWait(DidRequestDecrease())
        default: break
        }
        return .done
    }

    /// The units caught up, and the tens followed them through the mediator.
    func settle() async {
        await units.waitUntilCaughtUp()
        let units = self.units
        let tens = self.tens
        await waitUntil { tens.isCaughtUp && tens.state.value == units.state.unitsState.value / 10 }
        // ...and the tens' lifecycle callbacks ran (the dump has its last state).
        await tens.waitUntilCaughtUp()
    }
}

extension CounterScreen: DiagramScreen {
    /// The units machine explored 3 events deep (the tens machine only takes each value).
    func drawing() async -> MachineDrawing {
        await exploredDrawing(
            of: makeUnitsStateMachine(),
            events: [DidRequestIncrease(), DidRequestDecrease()],
            maxDepth: 3
        )
    }
}
