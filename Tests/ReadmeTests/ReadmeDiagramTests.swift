import CaseStudiesFeatures
import Foundation
import StateMachineCore
import StateMachineGraph
import Testing

/// The README's diagrams are pictures generated from the machines, not drawn by hand: each
/// beside a link to the DOT text it was rendered from (`DocPictureTests` keeps the pictures
/// and their DOT in step with the machines).
@Suite("README diagram")
struct ReadmeDiagramTests {
    @Test("the README shows the elevator, turnstile and player pictures, each with a link to its DOT text")
    func pictures() throws {
        let readme = try Readme()
        #expect(readme.blocks.filter { $0.language == "mermaid" }.isEmpty, "a picture, not a Mermaid block")
        for (module, name) in [
            ("StateMachineGraph", "elevator"), ("StateMachineTable", "turnstile"), ("StateMachineHierarchy", "player"),
        ] {
            let resources = "Modules/\(module)/\(module).docc/Resources/\(name)"
            #expect(readme.text.contains("](\(resources).svg)\n"), "README.md shows \(name).svg")
            #expect(readme.text.contains("(\(resources).dot)"), "README.md links \(name).dot")
        }
    }

    @Test("the elevator's picture is its state graph, seven events deep, with the note of where exploring stopped")
    func elevator() async throws {
        let graph = try await makeElevatorStateMachine().stateGraph(
            events: [DidEnter(), DidLeave(), DidRequestToClose(), DidRequestToOpen()],
            maxDepth: 7
        )
        let dot = try String(
            contentsOf: Readme.root.appendingPathComponent(
                "Modules/StateMachineGraph/StateMachineGraph.docc/Resources/elevator.dot"
            ),
            encoding: .utf8
        )
        let truncation = try #require(graph.truncation)
        #expect(dot == graph.dot() + "// explored \(truncation)\n")
    }
}
