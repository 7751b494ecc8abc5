import TestSupport
import Testing

@testable import StateMachineTable

@Suite("Table images")
struct ImageTests: TurnstileTable {
    let recorder = Recorder()

    @Test("svg() and png(): Graphviz's pictures of the table, naming every state and showing the actions")
    func images() async throws {
        let fsm = FSM<State, Event>(initialState: .locked)
        try fsm.buildTable {
            define(.locked) {
                when(.coin) | then(.unlocked) | AnyAction(unlock).named("unlock")*
                when(.pass) | then(.alarming)
            }
            define(.unlocked) { when(.pass) | then(.locked) }
            define(.alarming) { when(.reset) | then(.locked) }
        }
        let svg = try fsm.svg()
        #expect(ImageChecks.statesMissing(from: svg, ["locked", "unlocked", "alarming"]) == [])
        #expect(ImageChecks.svgTexts(svg)?.contains("coin / unlock") == true)
        #expect(ImageChecks.pngSize(try fsm.png()) != nil)
    }
}
