import CaseStudiesFeatures
import StateMachineCore
import StateMachineGraph
import StateMachineHierarchy
import StateMachineTable

/// The case studies' machines and their alphabets, as the tests explore them.
enum Machines {
    /// The elevator's events, in the order its graph lists them.
    static let elevatorEvents: [any Event<ElevatorEvent>] = [
        DidEnter(), DidLeave(), DidRequestToClose(), DidRequestToOpen(),
    ]

    /// The elevator explored 7 events deep: every state up to 7 persons (the README's).
    static func elevatorGraph() async throws -> StateGraph<any State<ElevatorState>, any Event<ElevatorEvent>> {
        try await makeElevatorStateMachine().stateGraph(events: elevatorEvents, maxDepth: 7)
    }

    /// The turnstile's table explored.
    @MainActor
    static func turnstileGraph() throws -> StateGraph<Turnstile.State, TableInput<Turnstile.Event>> {
        try Turnstile().transitionTable.stateGraph()
    }

    /// The elevator with one wrong transition: opening a closed elevator keeps it closed.
    static func brokenElevator() -> StateMachine<ElevatorState, ElevatorEvent> {
        StateMachine<ElevatorState, ElevatorEvent>(initial: ElevatorIsOpen(persons: 0)) {
            When(state: ElevatorIsOpen.self) {
                On(event: DidEnter.self) { state, _ in
                    Transition(state: ElevatorIsOpen(persons: state.persons + 1))
                }
                On(event: DidLeave.self) { state, _ in
                    state.persons > 0
                } transition: { state, _ in
                    Transition(state: ElevatorIsOpen(persons: state.persons - 1))
                }
                On(event: DidRequestToClose.self) { state, _ in
                    Transition(state: ElevatorIsClosed(persons: state.persons))
                }
            }
            When(state: ElevatorIsClosed.self) {
                On(event: DidRequestToOpen.self) { state, _ in
                    Transition(state: ElevatorIsClosed(persons: state.persons))
                }
            }
        }
    }

    /// The turnstile's table with one wrong row: walking through an unlocked arm keeps it
    /// unlocked.
    static func brokenTurnstile() throws -> FSM<Turnstile.State, Turnstile.Event> {
        let table = FSM<Turnstile.State, Turnstile.Event>(initialState: .locked)
        try BrokenTurnstile().build(table)
        return table
    }

    /// The player with one wrong transition: `play` from `paused` stays paused (its own
    /// transition to `playing` never passes its guard, and a second one leads back to `paused`).
    static func brokenPlayer() throws -> Player {
        var definition = try makePlayer().definition
        try definition.setGuard(forTransition: "play", from: "active@0/paused") { _ in false }
        try definition.addTransition(from: "active@0/paused", on: "play", to: "active@0/paused")
        return try Player(definition)
    }
}

/// Builds the broken turnstile table.
private struct BrokenTurnstile: SyntaxBuilder {
    typealias State = Turnstile.State
    typealias Event = Turnstile.Event

    func build(_ table: FSM<State, Event>) throws {
        try table.buildTable {
            define(.locked) {
                when(.coin) | then(.unlocked)
                when(.pass) | then(.locked)
            }
            define(.unlocked) {
                when(.coin) | then(.unlocked)
                when(.pass) | then(.unlocked)
            }
        }
    }
}
