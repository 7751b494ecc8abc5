import CaseStudiesFeatures
import StateMachineCore
import StateMachineGraph
import TestSupport
import Testing

@Suite("Graph images")
struct ImageTests {
    @Test("svg() and png(): Graphviz's pictures of an explored Core machine, naming every node")
    func elevator() async throws {
        let graph = try await makeElevatorStateMachine().stateGraph(
            events: [DidEnter(), DidLeave(), DidRequestToClose(), DidRequestToOpen()],
            maxDepth: 7
        )
        let svg = try graph.svg()
        #expect(ImageChecks.statesMissing(from: svg, graph.nodes.map(\.name)) == [])
        #expect(graph.nodes.count == 14)
        let size = try #require(ImageChecks.pngSize(try graph.png()))
        #expect(size.width > 200 && size.height > 200)
    }
}
