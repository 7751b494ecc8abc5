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
}
