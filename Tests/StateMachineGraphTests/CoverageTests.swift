import CaseStudiesFeatures
import StateMachineCore
import StateMachineGraph
import StateMachineHierarchy
import StateMachineTable
import StateMachineTest
import Testing

/// The coverage recorder lists the transitions a sample suite never took.
@Suite("Transition coverage")
struct CoverageTests {
    @Test("a Core suite that never reopens a closed elevator leaves that transition untested")
    func coreSuite() async throws {
        let graph = try await makeElevatorStateMachine().stateGraph(events: Machines.elevatorEvents, maxDepth: 1)
        let coverage = TransitionCoverage()
        // The sample suite: two hand-written tests, each on its own machine.
        let entering = AsyncStateMachine(stateMachine: makeElevatorStateMachine())
        coverage.observe(entering)
        // A generous timeout: a passing assertion never waits for it, and the suite runs
        // beside many others under the thread sanitizer.
        await expect(asyncStateMachine: entering, timeout: .seconds(30)) { assertions in
            await assertions.assert(state: ElevatorIsOpen(persons: 0))
            assertions.send(DidEnter())
            await assertions.assert(state: ElevatorIsOpen(persons: 1))
        }
        let closing = AsyncStateMachine(stateMachine: makeElevatorStateMachine())
        coverage.observe(closing)
        await expect(asyncStateMachine: closing, timeout: .seconds(30)) { assertions in
            await assertions.assert(state: ElevatorIsOpen(persons: 0))
            assertions.send(DidRequestToClose())
            await assertions.assert(state: ElevatorIsClosed(persons: 0))
        }
        #expect(
            coverage.recorded == [
                "ElevatorIsOpen (persons: 0) -(DidEnter())-> ElevatorIsOpen (persons: 1)",
                "ElevatorIsOpen (persons: 0) -(DidRequestToClose())-> ElevatorIsClosed (persons: 0)",
            ]
        )
        #expect(coverage.untested(in: graph).map(\.label) == ["DidLeave()", "DidRequestToOpen()"])
        #expect(
            coverage.report(untestedIn: graph) == """
                2 of 4 transitions of ElevatorState taken; untested:
                  ElevatorIsOpen (persons: 1) -(DidLeave())-> ElevatorIsOpen (persons: 0)
                  ElevatorIsClosed (persons: 0) -(DidRequestToOpen())-> ElevatorIsOpen (persons: 0)
                """
        )
    }

    @MainActor
    @Test("a table suite that never inserts a second coin leaves the thank-you row untested")
    func tableSuite() async throws {
        let graph = try Machines.turnstileGraph()
        let coverage = TransitionCoverage()
        let table = try Turnstile().transitionTable
        await coverage.handle(.coin, on: table)
        await coverage.handle(.pass, on: table)
        await coverage.handle(.pass, on: table)
        #expect(
            coverage.report(untestedIn: graph) == """
                3 of 4 transitions of FSM<State, Event> taken; untested:
                  unlocked -(coin)-> unlocked
                """
        )
        // A row that stays in its state counts once taken; an event no row handles is not a transition.
        await coverage.handle(.coin, on: table)
        await coverage.handle(.coin, on: table)
        #expect(coverage.report(untestedIn: graph) == "4 of 4 transitions of FSM<State, Event> taken; none untested")
        let gate = try Gate.table()
        await coverage.handle(.push, predicates: [Gate.Mode.relaxed], on: gate)
        await coverage.handle(.knock, on: gate)
        #expect(coverage.recorded.last == "closed -(push [Mode.relaxed])-> open")
        #expect(coverage.untested(in: try Gate.table().stateGraph()).count == 3)
    }

    @Test("a statechart suite that never shuffles while paused leaves those transitions untested")
    func statechartSuite() throws {
        let graph = try makePlayer().stateGraph()
        let coverage = TransitionCoverage()
        let player = try makePlayer()
        player.start()
        for event in ["play", "shuffle", "shuffle", "pause", "play", "stop", "stop"] {
            try coverage.handle(event, on: player)
        }
        #expect(
            coverage.untested(in: graph).map { "\(graph.nodes[$0.source].name) -(\($0.label))->" } == [
                "active, paused, normal -(stop)->",
                "active, paused, normal -(shuffle)->",
                "active, playing, shuffled -(stop)->",
                "active, playing, shuffled -(pause)->",
                "active, paused, shuffled -(play)->",
                "active, paused, shuffled -(stop)->",
                "active, paused, shuffled -(shuffle)->",
            ]
        )
    }

    @MainActor
    @Test("the runners record what they replay, so a cover leaves nothing untested")
    func runnersRecord() async throws {
        let coverage = TransitionCoverage()
        let player = try makePlayer().stateGraph()
        expectPaths(player.transitionCover(), replayingOn: makePlayer, coverage: coverage)
        #expect(coverage.untested(in: player).isEmpty)
        let elevator = try await makeElevatorStateMachine().stateGraph(events: Machines.elevatorEvents, maxDepth: 3)
        await expectPaths(elevator.shortestPaths(), replayingOn: makeElevatorStateMachine(), coverage: coverage)
        #expect(coverage.untested(in: elevator).count == elevator.edges.count - (elevator.nodes.count - 1))
        await expectPaths(elevator.transitionCover(), replayingOn: makeElevatorStateMachine(), coverage: coverage)
        #expect(coverage.untested(in: elevator).isEmpty)
        let turnstile = try Machines.turnstileGraph()
        await expectPaths(
            turnstile.transitionCover(),
            replayingOn: { try Turnstile().transitionTable },
            coverage: coverage
        )
        #expect(coverage.untested(in: turnstile).isEmpty)
    }

    @Test("recording from many tasks at once loses nothing")
    func concurrentRecording() async {
        let coverage = TransitionCoverage()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<100 { coverage.record(source: "s\(task)", event: "e\(index)", target: "t") }
                }
            }
        }
        #expect(coverage.recorded.count == 800)
        coverage.record(source: "s0", event: "e0", target: "t")
        #expect(coverage.recorded.count == 800)
    }
}
