import CaseStudiesFeatures
import StateMachineCore
import StateMachineGraph
import StateMachineHierarchy
import StateMachineTable
import Testing

/// Bounds, keys and bad input of the explorations.
@Suite("Exploration")
struct ExplorationTests {
    @Test("a depth bound stops exploration and says so; the states within it keep all their transitions")
    func depthBound() async throws {
        let graph = try await makeWalletStateMachine().stateGraph(
            events: [DidRequestToAddCredits(credits: 1), DidRequestToRemoveCredits(credits: 1)],
            maxDepth: 2
        )
        #expect(
            graph.nodes.map(\.name) == [
                "WalletState (credits: 0.00)", "WalletState (credits: 1.00)", "WalletState (credits: 2.00)",
            ]
        )
        #expect(graph.truncation == StateGraphTruncation(bound: .maxDepth, limit: 2, droppedEdges: 1))
        #expect(graph.truncation?.description == "maxDepth 2 reached: 1 transition leads to states not explored")
        #expect(graph.description.hasSuffix("truncated: maxDepth 2 reached: 1 transition leads to states not explored"))
        // The transition back from the deepest state is kept.
        #expect(
            graph.description.contains(
                "WalletState (credits: 2.00) -(DidRequestToRemoveCredits(credits: 1.00))-> WalletState (credits: 1.00)"
            )
        )
    }

    @Test("a node bound stops exploration and counts every transition left out")
    func nodeBound() async throws {
        let graph = try await makeUnitsStateMachine().stateGraph(
            events: [DidRequestIncrease(), DidRequestDecrease()],
            maxNodes: 2
        )
        #expect(graph.nodes.count == 2)
        #expect(graph.truncation == StateGraphTruncation(bound: .maxNodes, limit: 2, droppedEdges: 2))
        #expect(graph.truncation?.description == "maxNodes 2 reached: 2 transitions lead to states not explored")
    }

    @Test("a machine explored within its bounds is complete")
    func complete() async throws {
        let graph = try await makeTensStateMachine().stateGraph(events: [TensEvent(value: 3)], maxDepth: 1, maxNodes: 2)
        #expect(graph.truncation == nil)
        #expect(graph.nodes.count == 2)
        #expect(!graph.description.contains("truncated"))
    }

    @Test("the default bounds are documented values")
    func defaults() {
        #expect(StateGraphLimits.defaultMaxDepth == 32)
        #expect(StateGraphLimits.defaultMaxNodes == 1_000)
    }

    @Test("bounds below 1 and an empty alphabet are refused, naming what is wrong")
    func badInput() async throws {
        let elevator = makeElevatorStateMachine()
        await #expect(throws: StateGraphError.invalidBound(name: "maxDepth", value: 0)) {
            try await elevator.stateGraph(events: Machines.elevatorEvents, maxDepth: 0)
        }
        await #expect(throws: StateGraphError.invalidBound(name: "maxNodes", value: -1)) {
            try await elevator.stateGraph(events: Machines.elevatorEvents, maxNodes: -1)
        }
        await #expect(throws: StateGraphError.emptyAlphabet(machine: "ElevatorState")) {
            try await elevator.stateGraph(events: [])
        }
        #expect(throws: StateGraphError.invalidBound(name: "maxDepth", value: 0)) {
            try makePlayer().stateGraph(maxDepth: 0)
        }
        #expect(throws: StateGraphError.invalidBound(name: "maxNodes", value: 0)) {
            try makePlayer().stateGraph(maxNodes: 0)
        }
        #expect(
            StateGraphError.emptyAlphabet(machine: "ElevatorState").description
                == "The event alphabet for ElevatorState is empty: give at least one event to explore the machine with."
        )
        #expect(
            StateGraphError.invalidBound(name: "maxNodes", value: -1).description
                == "maxNodes must be at least 1, not -1."
        )
    }

    @Test("states that are not Hashable need a key, and the error says so")
    func unhashable() async throws {
        let machine = Door.machine()
        await #expect(throws: StateGraphError.unhashableState(typeName: "StateMachineGraphTests.DoorIsClosed")) {
            try await machine.stateGraph(events: [DoorToggle()])
        }
        #expect(
            StateGraphError.unhashableState(typeName: "DoorIsClosed").description
                == "The state DoorIsClosed is not Hashable: make it Hashable, or pass key: to say how to compare states."
        )
        let graph = try await machine.stateGraph(events: [DoorToggle()], key: { $0.superState })
        #expect(
            graph.description == """
                initial: DoorIsClosed()
                DoorIsClosed() -(DoorToggle())-> DoorIsOpen()
                DoorIsOpen() -(DoorToggle())-> DoorIsClosed()
                """
        )
    }

    @Test("a key coarser than the description keeps states with one name apart")
    func duplicateNames() async throws {
        let machine = StateMachine<Int, DoorEvent>(initial: Numbered(number: 0)) {
            When(state: Numbered.self) {
                On(event: DoorToggle.self) { state, _ in Transition(state: Numbered(number: state.number + 1)) }
            }
        }
        let graph = try await machine.stateGraph(events: [DoorToggle()], maxDepth: 2, key: { ($0 as! Numbered).number })
        #expect(graph.nodes.map(\.name) == ["a number", "a number #2", "a number #3"])
    }

    @Test("a table must be built before it is explored")
    func tableNotBuilt() {
        let table = FSM<Int, Int>(initialState: 0)
        #expect(throws: StateGraphError.tableNotBuilt) { try table.stateGraph() }
        #expect(
            StateGraphError.tableNotBuilt.description == "The table is not built: call buildTable before exploring it."
        )
    }

    @Test("a table's predicates and conditions show on its edges")
    func tablePredicates() throws {
        let graph = try Gate.table().stateGraph()
        #expect(
            graph.description == """
                initial: closed
                closed -(push [Mode.strict])-> alarmed
                closed -(push [Mode.relaxed])-> open
                closed -(knock)-> open [condition]
                open -(push)-> closed
                """
        )
        #expect(graph.edges.map(\.isConditional) == [false, false, true, false])
        #expect(graph.edges[0].event.predicates.count == 1)
        #expect(graph.mermaid().contains("closed --> open : knock [condition]"))
    }

    @Test("a chart step that fails stops exploration, naming the configuration and the event")
    func chartFailure() throws {
        typealias Chart = Statechart<String, String, Int>
        let chart = try Chart(name: "broken") {
            Chart.State("idle").on("go", to: .junction("choice"))
            Chart.Junction("choice", paths: [Chart.Junction.Path(to: "idle", guard: { _ in false })])
        }
        #expect {
            try chart.stateGraph()
        } throws: { error in
            guard case .chartFailed(let configuration, let event, _) = error as? StateGraphError else { return false }
            return configuration == "idle" && event == "go"
                && (error as? StateGraphError)?.description.hasPrefix(
                    "Exploring the chart failed on 'go' from [idle]: "
                ) == true
        }
    }
}

/// A door whose states are not Hashable.
struct DoorIsClosed: State {
    var superState: String { "closed" }
}

/// The door is open.
struct DoorIsOpen: State {
    var superState: String { "open" }
}

/// The door's events.
enum DoorEvent {}

/// Opens a closed door, closes an open one.
struct DoorToggle: Event {
    typealias SuperEvent = DoorEvent
}

/// A state named the same whatever its number.
struct Numbered: State {
    let number: Int
    var superState: Int { number }
    var description: String { "a number" }
}

enum Door {
    static func machine() -> StateMachine<String, DoorEvent> {
        StateMachine<String, DoorEvent>(initial: DoorIsClosed()) {
            When(state: DoorIsClosed.self) {
                On(event: DoorToggle.self) { _, _ in Transition(state: DoorIsOpen()) }
            }
            When(state: DoorIsOpen.self) {
                On(event: DoorToggle.self) { _, _ in Transition(state: DoorIsClosed()) }
            }
        }
    }
}

/// A gate table with a predicate and a condition.
struct Gate: ExpandedSyntaxBuilder {
    enum State { case closed, open, alarmed }
    enum Event { case push, knock }
    enum Mode: Predicate { case strict, relaxed }

    /// The gate's table; the knock opens it when `knockOpens`.
    static func table(knockOpens: Bool) throws -> FSM<State, Event> {
        let table = FSM<State, Event>(initialState: .closed)
        try Gate().build(table, knockOpens: knockOpens)
        return table
    }

    /// The gate's table, whose knock opens it.
    static func table() throws -> FSM<State, Event> {
        try table(knockOpens: true)
    }

    func build(_ table: FSM<State, Event>, knockOpens: Bool) throws {
        try table.buildTable {
            define(.closed) {
                matching(Mode.strict) | when(.push) | then(.alarmed)
                matching(Mode.relaxed) | when(.push) | then(.open)
                condition({ knockOpens }) | when(.knock) | then(.open)
            }
            define(.open) {
                when(.push) | then(.closed)
            }
        }
    }
}
