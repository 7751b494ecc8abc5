// A file that imports only the umbrella, as an existing integration does: every product's
// names resolve, with no ambiguity between the products.
import Foundation
import SwiftStateMachine
import Testing

@Suite("The SwiftStateMachine umbrella")
struct UmbrellaImportTests {
    @Test("StateContext is the dump's and BroadcastStateContext the broadcast's, with one import")
    func contextsAreUnambiguous() {
        struct Idle: State {
            var superState: String { "idle" }
            var description: String { "Idle" }
        }
        let dumped: StateContext = StateContext(stateMachineId: UUID(), state: Idle())
        let broadcast = BroadcastStateContext(stateMachineId: dumped.stateMachineId, currentState: Idle())
        #expect(dumped.description.contains("Idle"))
        #expect(broadcast.stateMachineId == dumped.stateMachineId)
        #expect(broadcast.event == nil)
    }

    @Test("an SCXML document loads and runs with the umbrella alone, as before SCXML had a product of its own")
    func scxmlThroughTheUmbrella() throws {
        let document = try SCXMLDocument(
            xml:
                #"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0"><state id="a"><transition event="go" target="b"/></state><state id="b"/></scxml>"#
        )
        let machine = SCXMLInterpreter(document: document, options: .scxml, clock: ManualStatechartClock())
        try machine.start()
        try machine.send("go")
        #expect(machine.activeAtomicStates == ["b"])
    }
}
