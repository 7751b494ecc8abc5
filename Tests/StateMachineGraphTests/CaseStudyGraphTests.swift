import CaseStudiesFeatures
import StateMachineCore
import StateMachineGraph
import StateMachineHierarchy
import Testing

/// The graph of every case-study machine, against a graph checked by hand against the
/// machine's declaration (guards included).
@Suite("Case-study graphs")
struct CaseStudyGraphTests {
    @Test("the elevator: open 0...5 and closed 0...5, warning above 5; leaving is refused when empty")
    func elevator() async throws {
        let graph = try await Machines.elevatorGraph()
        var expected = ["initial: ElevatorIsOpen (persons: 0)"]
        for persons in 0...5 {
            if persons < 5 {
                expected.append(
                    "ElevatorIsOpen (persons: \(persons)) -(DidEnter())-> ElevatorIsOpen (persons: \(persons + 1))"
                )
            } else {
                expected.append("ElevatorIsOpen (persons: 5) -(DidEnter())-> ElevatorIsInWarning (persons: 6)")
            }
            if persons > 0 {
                expected.append(
                    "ElevatorIsOpen (persons: \(persons)) -(DidLeave())-> ElevatorIsOpen (persons: \(persons - 1))"
                )
            }
            expected.append(
                "ElevatorIsOpen (persons: \(persons)) -(DidRequestToClose())-> ElevatorIsClosed (persons: \(persons))"
            )
            if persons == 5 {
                expected += [
                    "ElevatorIsClosed (persons: 4) -(DidRequestToOpen())-> ElevatorIsOpen (persons: 4)",
                    "ElevatorIsInWarning (persons: 6) -(DidEnter())-> ElevatorIsInWarning (persons: 7)",
                    "ElevatorIsInWarning (persons: 6) -(DidLeave())-> ElevatorIsOpen (persons: 5)",
                    "ElevatorIsClosed (persons: 5) -(DidRequestToOpen())-> ElevatorIsOpen (persons: 5)",
                    "ElevatorIsInWarning (persons: 7) -(DidLeave())-> ElevatorIsInWarning (persons: 6)",
                    "truncated: maxDepth 7 reached: 1 transition leads to states not explored",
                ]
            } else if persons > 0 {
                expected.append(
                    "ElevatorIsClosed (persons: \(persons - 1)) -(DidRequestToOpen())-> ElevatorIsOpen (persons: \(persons - 1))"
                )
            }
        }
        #expect(graph.description == expected.joined(separator: "\n"))
        #expect(graph.nodes.count == 14)
        #expect(graph.edges.count == 26)
        #expect(graph.truncation == StateGraphTruncation(bound: .maxDepth, limit: 7, droppedEdges: 1))
    }

    @Test("the counter: units increase always, decrease above zero; tens take each event's value")
    func counter() async throws {
        let units = try await makeUnitsStateMachine().stateGraph(
            events: [DidRequestIncrease(), DidRequestDecrease()],
            maxDepth: 2
        )
        #expect(
            units.description == """
                initial: ValueIsFixed (value: 0)
                ValueIsFixed (value: 0) -(DidRequestIncrease())-> ValueIsIncreasing (value: 1)
                ValueIsIncreasing (value: 1) -(DidRequestIncrease())-> ValueIsIncreasing (value: 2)
                ValueIsIncreasing (value: 1) -(DidRequestDecrease())-> ValueIsDecreasing (value: 0)
                ValueIsDecreasing (value: 0) -(DidRequestIncrease())-> ValueIsIncreasing (value: 1)
                truncated: maxDepth 2 reached: 2 transitions lead to states not explored
                """
        )
        let tens = try await makeTensStateMachine().stateGraph(events: [TensEvent(value: 0), TensEvent(value: 1)])
        #expect(
            tens.description == """
                initial: Value (0)
                Value (0) -(TensEvent(value: 0))-> Value (0)
                Value (0) -(TensEvent(value: 1))-> Value (1)
                Value (1) -(TensEvent(value: 0))-> Value (0)
                Value (1) -(TensEvent(value: 1))-> Value (1)
                """
        )
        #expect(tens.truncation == nil)
    }

    @Test("the wallet: adding always works, removing only what is there")
    func wallet() async throws {
        let graph = try await makeWalletStateMachine().stateGraph(
            events: [DidRequestToAddCredits(credits: 10), DidRequestToRemoveCredits(credits: 10)],
            maxNodes: 3
        )
        #expect(
            graph.description == """
                initial: WalletState (credits: 0.00)
                WalletState (credits: 0.00) -(DidRequestToAddCredits(credits: 10.00))-> WalletState (credits: 10.00)
                WalletState (credits: 10.00) -(DidRequestToAddCredits(credits: 10.00))-> WalletState (credits: 20.00)
                WalletState (credits: 10.00) -(DidRequestToRemoveCredits(credits: 10.00))-> WalletState (credits: 0.00)
                WalletState (credits: 20.00) -(DidRequestToRemoveCredits(credits: 10.00))-> WalletState (credits: 10.00)
                truncated: maxNodes 3 reached: 1 transition leads to states not explored
                """
        )
    }

    @Test("clics: load from idle or loading, count completions, reset; a load while loaded is an output only")
    func clics() async throws {
        let graph = try await makeClicsStateMachine(cancelling: true, load: {}).stateGraph(
            events: [DidRequestClicsLoading(), DidCompleteClicsLoading(), DidRequestClicsReset()],
            maxDepth: 4
        )
        #expect(
            graph.description == """
                initial: ClicsIsIdle()
                ClicsIsIdle() -(DidRequestClicsLoading())-> ClicsIsLoading()
                ClicsIsLoading() -(DidRequestClicsLoading())-> ClicsIsLoading()
                ClicsIsLoading() -(DidCompleteClicsLoading())-> ClicsIsLoaded (numberOfLoads: 1)
                ClicsIsLoaded (numberOfLoads: 1) -(DidCompleteClicsLoading())-> ClicsIsLoaded (numberOfLoads: 2)
                ClicsIsLoaded (numberOfLoads: 1) -(DidRequestClicsReset())-> ClicsIsIdle()
                ClicsIsLoaded (numberOfLoads: 2) -(DidCompleteClicsLoading())-> ClicsIsLoaded (numberOfLoads: 3)
                ClicsIsLoaded (numberOfLoads: 2) -(DidRequestClicsReset())-> ClicsIsIdle()
                ClicsIsLoaded (numberOfLoads: 3) -(DidRequestClicsReset())-> ClicsIsIdle()
                truncated: maxDepth 4 reached: 1 transition leads to states not explored
                """
        )
    }

    @Test("clics: exploring runs no output (the load is never started)")
    func clicsRunsNoOutput() async throws {
        let started = LoadCounter()
        _ = try await makeClicsStateMachine(cancelling: false, load: { await started.increment() }).stateGraph(
            events: [DidRequestClicsLoading(), DidCompleteClicsLoading()],
            maxDepth: 3
        )
        #expect(await started.count == 0)
    }

    @MainActor
    @Test("the turnstile: the SMC table's four rows")
    func turnstile() throws {
        let graph = try Machines.turnstileGraph()
        #expect(
            graph.description == """
                initial: locked
                locked -(coin)-> unlocked
                locked -(pass)-> locked
                unlocked -(coin)-> unlocked
                unlocked -(pass)-> locked
                """
        )
        #expect(graph.truncation == nil)
    }

    @Test("the player: stopped, and the four combinations of its two regions")
    func player() throws {
        let graph = try makePlayer().stateGraph()
        #expect(
            graph.description == """
                initial: stopped
                stopped -(play)-> active, playing, normal
                active, playing, normal -(stop)-> stopped
                active, playing, normal -(pause)-> active, paused, normal
                active, playing, normal -(shuffle)-> active, playing, shuffled
                active, paused, normal -(play)-> active, playing, normal
                active, paused, normal -(stop)-> stopped
                active, paused, normal -(shuffle)-> active, paused, shuffled
                active, playing, shuffled -(stop)-> stopped
                active, playing, shuffled -(pause)-> active, paused, shuffled
                active, playing, shuffled -(shuffle)-> active, playing, normal
                active, paused, shuffled -(play)-> active, playing, shuffled
                active, paused, shuffled -(stop)-> stopped
                active, paused, shuffled -(shuffle)-> active, paused, normal
                """
        )
        #expect(
            graph.nodes.map(\.state) == [
                ["stopped"], ["active", "playing", "normal"], ["active", "paused", "normal"],
                ["active", "playing", "shuffled"], ["active", "paused", "shuffled"],
            ]
        )
    }

    @Test("exploring a chart leaves the chart itself alone")
    func chartUntouched() throws {
        let player = try makePlayer()
        _ = try player.stateGraph()
        #expect(!player.isRunning)
        player.start()
        try player.handle("play")
        _ = try player.stateGraph()
        #expect(player.activeStates == ["active", "playing", "normal"])
    }
}

/// Counts the loads a Clics machine started.
private actor LoadCounter {
    var count = 0
    func increment() { count += 1 }
}
