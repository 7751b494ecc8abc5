// swift-format-ignore-file
// The README's and the articles' StateMachineGraph examples, verbatim and run as tests
// (ReadmeCodeTests checks that every swift block of the documents appears in a compiled
// file): edit the documents and this file together.
import CaseStudiesFeatures
import StateMachineCore
import StateMachineGraph
import StateMachineTest
import Testing
import XCTest

@Suite("README: tests from the model")
struct ReadmeGraphSnippets {
    @Test func elevatorTransitions() async throws {
        let graph = try await makeElevatorStateMachine().stateGraph(
            events: [DidEnter(), DidLeave(), DidRequestToClose(), DidRequestToOpen()],
            maxDepth: 7
        )
        // Every transition, each checked on a fresh machine; Close is offered only when open.
        await expectPaths(graph.transitionCover(), replayingOn: makeElevatorStateMachine()) { state in
            state.superState.canPressClose == (state is ElevatorIsOpen)
        }
    }

    @MainActor
    @Test func turnstileTransitions() async throws {
        let graph = try Turnstile().transitionTable.stateGraph()
        await expectPaths(graph.transitionCover(), replayingOn: { try Turnstile().transitionTable })
    }

    @Test func playerConfigurations() throws {
        let graph = try makePlayer().stateGraph()
        expectPaths(try graph.simplePaths(maxLength: 3), replayingOn: makePlayer) { configuration in
            configuration == ["stopped"] || configuration.count == 3
        }
    }

    @Test func printedPaths() throws {
        let graph = try makePlayer().stateGraph()
        for path in graph.shortestPaths() {
            print(path)  // stopped -(play)-> active, playing, normal -(pause)-> active, paused, normal
        }
        #expect(graph.shortestPaths()[2].description == "stopped -(play)-> active, playing, normal -(pause)-> active, paused, normal")
    }

    @MainActor
    @Test func untestedTransitions() async throws {
        let coverage = TransitionCoverage()
        let table = try Turnstile().transitionTable
        await coverage.handle(.coin, on: table)
        await coverage.handle(.pass, on: table)

        let graph = try Turnstile().transitionTable.stateGraph()
        print(coverage.report(untestedIn: graph))
        // 2 of 4 transitions of FSM<State, Event> taken; untested:
        //   locked -(pass)-> locked
        //   unlocked -(coin)-> unlocked
        #expect(coverage.untested(in: graph).count == 2)
    }
}

/// The XCTest flavour, as the Test product's article shows it.
final class ReadmeGraphXCTestSnippets: XCTestCase {
    func test_elevatorPaths() async throws {
        let elevator = makeElevatorStateMachine()
        let graph = try await elevator.stateGraph(events: [DidEnter(), DidRequestToClose(), DidRequestToOpen()], maxDepth: 4)
        await XCTAssertPaths(graph.shortestPaths(), replayingOn: elevator)
    }
}
