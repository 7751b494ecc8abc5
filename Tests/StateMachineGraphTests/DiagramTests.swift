import CaseStudiesFeatures
import StateMachineCore
import StateMachineGraph
import Testing

/// Explored graphs are drawn by the package's one diagram renderer.
@Suite("Graph diagrams")
struct DiagramTests {
    @MainActor
    @Test("Mermaid: the initial marker, one state per node, one labelled arrow per edge")
    func mermaid() throws {
        #expect(
            try Machines.turnstileGraph().mermaid() == """
                stateDiagram-v2
                    locked
                    unlocked
                    [*] --> locked
                    locked --> unlocked : coin
                    locked --> locked : pass
                    unlocked --> unlocked : coin
                    unlocked --> locked : pass

                """
        )
    }

    @MainActor
    @Test("DOT: quoted names, an initial point, labelled arrows")
    func dot() throws {
        #expect(
            try Machines.turnstileGraph().dot() == """
                digraph "FSM<State, Event>" {
                    compound=true;
                    fontname="Helvetica";
                    node [shape=box, style=rounded, fontname="Helvetica", fontsize=11];
                    edge [fontname="Helvetica", fontsize=9];
                    "locked";
                    "unlocked";
                    "[*]0" [shape=point, width=0.15, label=""];
                    "[*]0" -> "locked";
                    "locked" -> "unlocked" [label=" coin "];
                    "locked" -> "locked" [label=" pass "];
                    "unlocked" -> "unlocked" [label=" coin "];
                    "unlocked" -> "locked" [label=" pass "];
                }

                """
        )
    }

    @Test("a Core machine, which has no diagram of its own, is drawn from its explored graph")
    func coreMachine() async throws {
        let graph = try await makeClicsStateMachine(cancelling: true, load: {}).stateGraph(
            events: [DidRequestClicsLoading(), DidCompleteClicsLoading(), DidRequestClicsReset()],
            maxDepth: 2
        )
        #expect(
            graph.mermaid() == """
                stateDiagram-v2
                    state "ClicsIsIdle()" as ClicsIsIdle__
                    state "ClicsIsLoading()" as ClicsIsLoading__
                    state "ClicsIsLoaded (numberOfLoads#58; 1)" as ClicsIsLoaded__numberOfLoads__1_
                    [*] --> ClicsIsIdle__
                    ClicsIsIdle__ --> ClicsIsLoading__ : DidRequestClicsLoading()
                    ClicsIsLoading__ --> ClicsIsLoading__ : DidRequestClicsLoading()
                    ClicsIsLoading__ --> ClicsIsLoaded__numberOfLoads__1_ : DidCompleteClicsLoading()
                    ClicsIsLoaded__numberOfLoads__1_ --> ClicsIsIdle__ : DidRequestClicsReset()

                """
        )
        #expect(
            graph.dot().contains(
                "\"ClicsIsLoading()\" -> \"ClicsIsLoaded (numberOfLoads: 1)\" [label=\" DidCompleteClicsLoading() \"];"
            )
        )
    }
}
