import CaseStudiesFeatures
import StateMachineCore
import StateMachineGraph
import StateMachineHierarchy
import StateMachineTable
import StateMachineTest
import XCTest

/// The XCTest runners replay generated paths of each kind, and report through `fail:`.
final class XCTestRunnerTests: XCTestCase {
    func testCoreMachinePaths() async throws {
        let graph = try await makeElevatorStateMachine().stateGraph(events: Machines.elevatorEvents, maxDepth: 3)
        await XCTAssertPaths(graph.transitionCover(), replayingOn: makeElevatorStateMachine())
        let failures = Failures()
        await XCTAssertPaths(graph.transitionCover(), replayingOn: Machines.brokenElevator(), fail: failures.fail)
        XCTAssertEqual(failures.all.count, 1)
        XCTAssertTrue(failures.all.first?.contains("(DidRequestToOpen()) led to ElevatorIsClosed") == true)
    }

    @MainActor
    func testTablePaths() async throws {
        let paths = try Machines.turnstileGraph().transitionCover()
        await XCTAssertPaths(paths, replayingOn: { try Turnstile().transitionTable })
        let failures = Failures()
        await XCTAssertPaths(paths, replayingOn: Machines.brokenTurnstile, fail: failures.fail)
        XCTAssertEqual(failures.all.count, 1)
        XCTAssertTrue(failures.all.first?.contains("step 3 (pass) led to unlocked, expected locked.") == true)
    }

    func testStatechartPaths() throws {
        let paths = try makePlayer().stateGraph().transitionCover()
        XCTAssertPaths(paths, replayingOn: makePlayer, invariant: { !$0.isEmpty })
        let failures = Failures()
        XCTAssertPaths(paths, replayingOn: Machines.brokenPlayer, fail: failures.fail)
        XCTAssertEqual(failures.all.count, 1)
        XCTAssertTrue(failures.all.first?.contains("Generated path 1 of 1 failed: step 5 (play)") == true)
    }
}
