import CaseStudiesFeatures
import StateMachineUI
import Terminal

/// Elevator: people enter and leave; the elevator closes only with 5 persons or fewer.
@MainActor
final class ElevatorScreen: Screen {
    private let ui: UIStateMachine<ElevatorState, ElevatorEvent>

    init(environment: CaseStudiesEnvironment) {
        ui = UIStateMachine(asyncStateMachineFactory: environment.elevator)
    }

    var title: String { "Elevator" }

    func body(style: TerminalStyle) -> [String] {
        let state = ui.state
        let symbol =
            switch state.symbol {
            case "lock.open.fill": style.green("[ open ]")
            case "lock.fill": style.cyan("[ closed ]")
            default: style.red("[ ! warning ]")
            }
        return [
            "  Rules: make people enter or leave the elevator and try to close it",
            "  Persons: \(state.numberOfPersons)",
            "  \(symbol) \(state.message)",
        ]
    }

    var commands: [CommandSpec] {
        let state = ui.state
        return [
            CommandSpec(
                "enter",
                "A person enters",
                isEnabled: state.canAddPerson,
                availableWhen: "while the doors are open ('open' first)"
            ),
            CommandSpec(
                "leave",
                "A person leaves",
                isEnabled: state.canRemovePerson,
                availableWhen: "while the doors are open and someone is inside"
            ),
            CommandSpec(
                "open",
                "Open the doors",
                isEnabled: state.canPressOpen,
                availableWhen: "in ElevatorIsClosed"
            ),
            CommandSpec(
                "close",
                "Close the doors",
                isEnabled: state.canPressClose,
                availableWhen: "in ElevatorIsOpen, with 5 persons or fewer"
            ),
        ]
    }

    var stateName: String? { ui.machineStateDescription }

    func didAppear() { ui.start() }

    func perform(_ command: ParsedCommand) async -> CommandResult {
        switch command.name {
        case "enter": await ui.sendAndWait(DidEnter())
        case "leave": await ui.sendAndWait(DidLeave())
        case "open": await ui.sendAndWait(DidRequestToOpen())
        case "close": await ui.sendAndWait(DidRequestToClose())
        default: break
        }
        return .done
    }

    func settle() async { await ui.waitUntilCaughtUp() }
}

extension ElevatorScreen: DiagramScreen {
    /// The elevator explored 7 events deep: up to 7 persons.
    func drawing() async -> MachineDrawing {
        await exploredDrawing(
            of: makeElevatorStateMachine(),
            events: [DidEnter(), DidLeave(), DidRequestToClose(), DidRequestToOpen()],
            maxDepth: 7
        )
    }
}
