import CaseStudiesFeatures
import StateMachineCore
import StateMachineGraph
import Testing

@MainActor
@Test func probe() async throws {
    let elevator = try await makeElevatorStateMachine().stateGraph(
        events: [DidEnter(), DidLeave(), DidRequestToClose(), DidRequestToOpen()], maxDepth: 7)
    print("ELEVATOR\n\(elevator)\n\(elevator.mermaid())")
    let units = try await makeUnitsStateMachine().stateGraph(events: [DidRequestIncrease(), DidRequestDecrease()], maxDepth: 2)
    print("UNITS\n\(units)")
    let tens = try await makeTensStateMachine().stateGraph(events: [TensEvent(value: 0), TensEvent(value: 1)])
    print("TENS\n\(tens)")
    let wallet = try await makeWalletStateMachine().stateGraph(
        events: [DidRequestToAddCredits(credits: 10), DidRequestToRemoveCredits(credits: 10)], maxNodes: 3)
    print("WALLET\n\(wallet)")
    let clics = try await makeClicsStateMachine(cancelling: true, load: {}).stateGraph(
        events: [DidRequestClicsLoading(), DidCompleteClicsLoading(), DidRequestClicsReset()], maxDepth: 4)
    print("CLICS\n\(clics)")
    let turnstile = try Turnstile().transitionTable.stateGraph()
    print("TURNSTILE\n\(turnstile)\n\(turnstile.mermaid())")
    let player = try makePlayer().stateGraph()
    print("PLAYER\n\(player)")
    for p in player.transitionCover() { print("cover", p) }
    for p in elevator.shortestPaths().prefix(4) { print("short", p) }
    for p in try player.simplePaths(maxLength: 3) { print("simple", p) }
}
