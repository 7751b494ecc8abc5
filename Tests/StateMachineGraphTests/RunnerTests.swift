import CaseStudiesFeatures
import Foundation
import StateMachineCore
import StateMachineGraph
import StateMachineHierarchy
import StateMachineSupport
import StateMachineTable
import StateMachineTest
import Testing

/// The Swift Testing runners replay generated paths on fresh machines of each kind.
@Suite("Path runners")
struct RunnerTests {
    @Test("the elevator's transition cover replays on the elevator, with its invariant after every step")
    func elevatorCover() async throws {
        let graph = try await Machines.elevatorGraph()
        let failures = Failures()
        let checked = StateCounter()
        await expectPaths(
            graph.transitionCover(),
            replayingOn: makeElevatorStateMachine(),
            invariant: { state in
                checked.add()
                // Close is offered exactly when the doors are open within capacity.
                let isOpenWithinCapacity = (state as? ElevatorIsOpen).map { $0.persons <= elevatorCapacity } ?? false
                return state.superState.canPressClose == isOpenWithinCapacity
            },
            fail: failures.fail
        )
        #expect(failures.all == [])
        let steps = graph.transitionCover().reduce(0) { $0 + $1.steps.count + 1 }
        #expect(checked.value == steps)
    }

    @Test("a machine with one transition to the wrong state is caught by a generated path, named in the message")
    func brokenCoreMachine() async throws {
        let graph = try await makeElevatorStateMachine().stateGraph(events: Machines.elevatorEvents, maxDepth: 2)
        let paths = graph.transitionCover()
        let failures = Failures()
        await expectPaths(paths, replayingOn: Machines.brokenElevator(), fail: failures.fail)
        let failing = try #require(paths.firstIndex { $0.steps.contains { $0.label == "DidRequestToOpen()" } })
        let path = paths[failing]
        let step = try #require(path.steps.firstIndex { $0.label == "DidRequestToOpen()" })
        #expect(failures.all.count >= 1)
        #expect(
            failures.all.first
                == """
                Generated path \(failing + 1) of \(paths.count) failed: step \(step + 1) (DidRequestToOpen()) led to \
                ElevatorIsClosed (persons: 0), expected ElevatorIsOpen (persons: 0).
                  path: \(path)
                  events: [\(path.steps.map(\.label).joined(separator: ", "))]
                """
        )
    }

    @Test("the failure the Tests from the model article shows is the one reported")
    func articleFailure() async throws {
        let graph = try await makeElevatorStateMachine().stateGraph(events: Machines.elevatorEvents, maxDepth: 2)
        let failures = Failures()
        await expectPaths(graph.transitionCover(), replayingOn: Machines.brokenElevator(), fail: failures.fail)
        let article = try String(
            contentsOf: URL(fileURLWithPath: #filePath)
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Modules/StateMachineGraph/StateMachineGraph.docc/TestsFromTheModel.md"),
            encoding: .utf8
        )
        let message = try #require(failures.all.first)
        #expect(failures.all.count == 1)
        #expect(article.contains("```text\n" + message + "\n```"))
    }

    @Test("an invariant that breaks is reported with the step and the state")
    func invariantBreaks() async throws {
        let graph = try await makeElevatorStateMachine().stateGraph(events: [DidEnter()], maxDepth: 3)
        let failures = Failures()
        await expectPaths(
            graph.shortestPaths(),
            replayingOn: makeElevatorStateMachine(),
            invariant: { ($0 as? ElevatorIsOpen)?.persons ?? 0 < 2 },
            fail: failures.fail
        )
        #expect(failures.all.count == 2, "\(failures.all)")
        #expect(
            failures.all.first?.hasPrefix(
                "Generated path 3 of 4 failed: the invariant does not hold after step 2 (DidEnter()) in ElevatorIsOpen (persons: 2)."
            ) == true
        )
    }

    @Test("a transition the machine does not take is reported after the timeout, naming the step")
    func missingState() async throws {
        let graph = try await makeElevatorStateMachine().stateGraph(events: Machines.elevatorEvents, maxDepth: 1)
        let closing = try #require(graph.shortestPaths().first { $0.end.name == "ElevatorIsClosed (persons: 0)" })
        let failures = Failures()
        let ignoresClose = StateMachine<ElevatorState, ElevatorEvent>(initial: ElevatorIsOpen(persons: 0))
        await expectPaths([closing], replayingOn: ignoresClose, timeout: .milliseconds(100), fail: failures.fail)
        #expect(
            failures.all == [
                """
                Generated path 1 of 1 failed: step 1 (DidRequestToClose()) should lead to ElevatorIsClosed (persons: 0), \
                but no state arrived within 0.1 seconds.
                  path: ElevatorIsOpen (persons: 0) -(DidRequestToClose())-> ElevatorIsClosed (persons: 0)
                  events: [DidRequestToClose()]
                """
            ]
        )
    }

    @Test("a machine that starts elsewhere fails at the start")
    func wrongStart() async throws {
        let graph = try await makeElevatorStateMachine().stateGraph(events: [DidEnter()], maxDepth: 1)
        let failures = Failures()
        let elsewhere = StateMachine<ElevatorState, ElevatorEvent>(initial: ElevatorIsClosed(persons: 0))
        await expectPaths(graph.shortestPaths(), replayingOn: elsewhere, fail: failures.fail)
        #expect(failures.all.count == 2, "\(failures.all)")
        #expect(
            failures.all.first?.hasPrefix(
                "Generated path 1 of 2 failed: the fresh machine starts in ElevatorIsClosed (persons: 0), not ElevatorIsOpen (persons: 0)."
            ) == true
        )
    }

    @MainActor
    @Test("the turnstile's cover replays on fresh tables; a wrong row is caught")
    func table() async throws {
        let paths = try Machines.turnstileGraph().transitionCover()
        let failures = Failures()
        await expectPaths(paths, replayingOn: { try Turnstile().transitionTable }, fail: failures.fail)
        #expect(failures.all == [])
        await expectPaths(paths, replayingOn: Machines.brokenTurnstile, fail: failures.fail)
        #expect(failures.all.count == 1, "\(failures.all)")
        #expect(
            failures.all.first?.contains("step 3 (pass) led to unlocked, expected locked.") == true,
            "\(failures.all)"
        )
        #expect(failures.all.first?.contains("  path: \(paths[0])\n  events: [coin, coin, pass, pass]") == true)
    }

    @MainActor
    @Test("a table replay reports a row that does not fire and a table that does not build")
    func tableProblems() async throws {
        let graph = try Gate.table().stateGraph()
        let failures = Failures()
        // The knock's condition holds on the gate; the predicates select the push rows.
        await expectPaths(graph.transitionCover(), replayingOn: Gate.table, fail: failures.fail)
        #expect(failures.all == [])
        let knock = try #require(try graph.simplePaths(maxLength: 1).first { $0.steps.first?.label == "knock" })
        await expectPaths([knock], replayingOn: { try Gate.table(knockOpens: false) }, fail: failures.fail)
        await expectPaths(
            [knock],
            replayingOn: { () throws -> FSM<Gate.State, Gate.Event> in throw GateError() },
            fail: failures.fail
        )
        #expect(failures.all.count == 2, "\(failures.all)")
        #expect(failures.all.first?.contains("should lead to open, but no row fired") == true)
        #expect(
            failures.all.last?.hasPrefix("Generated path 1 of 1 failed: making the table threw GateError()") == true
        )
    }

    @Test("the player's cover replays on fresh charts; a wrong transition and an unhandled event are caught")
    func statechart() throws {
        let graph = try makePlayer().stateGraph()
        let failures = Failures()
        expectPaths(
            graph.transitionCover(),
            replayingOn: makePlayer,
            invariant: { $0.first == "stopped" || $0.count == 3 },
            fail: failures.fail
        )
        #expect(failures.all == [])
        expectPaths(graph.transitionCover(), replayingOn: Machines.brokenPlayer, fail: failures.fail)
        #expect(failures.all.count == 1, "\(failures.all)")
        #expect(
            failures.all.first?.contains(
                "step 5 (play) led to active, paused, normal, expected active, playing, normal."
            ) == true,
            "\(failures.all)"
        )
        let stopped = try Player(name: "player") { Player.State("stopped") }
        expectPaths([graph.shortestPaths()[1]], replayingOn: { stopped }, fail: failures.fail)
        #expect(
            failures.all.last?.contains(
                "step 1 (play) should lead to active, playing, normal, but the chart answered unhandled"
            ) == true
        )
        expectPaths(
            [graph.shortestPaths()[1]],
            replayingOn: { () throws -> Player in throw GateError() },
            fail: failures.fail
        )
        #expect(
            failures.all.last?.hasPrefix("Generated path 1 of 1 failed: making the chart threw GateError()") == true
        )
    }
}

/// Counts invariant checks.
final class StateCounter: Sendable {
    private let count = Lock(0)
    /// The checks so far.
    var value: Int { count.withLock { $0 } }
    /// Counts one check.
    func add() { count.withLock { $0 += 1 } }
}

/// A table that cannot be made.
struct GateError: Error {}
