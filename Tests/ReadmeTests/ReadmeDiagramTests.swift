import CaseStudiesFeatures
import StateMachineCore
import StateMachineGraph
import Testing

/// The README's Mermaid diagram is generated, not drawn by hand: it must be what the
/// explored elevator renders to now.
@Suite("README diagram")
struct ReadmeDiagramTests {
    @Test("the README's elevator diagram is the elevator's state graph, seven events deep, as Mermaid")
    func elevator() async throws {
        let readme = try Readme()
        let blocks = readme.blocks.filter { $0.language == "mermaid" }
        #expect(blocks.count == 1)
        let block = try #require(blocks.first)
        let graph = try await makeElevatorStateMachine().stateGraph(
            events: [DidEnter(), DidLeave(), DidRequestToClose(), DidRequestToOpen()],
            maxDepth: 7
        )
        #expect(block.lines.joined(separator: "\n") + "\n" == graph.mermaid(), "README.md:\(block.line)")
    }
}
