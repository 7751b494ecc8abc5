import StateMachineHierarchy
import StateMachineSCXML
import Terminal
import TestSupport
import Testing

@testable import StatechartToolKit

/// Steps that no command starts (a delayed send or a delayed transition firing) reach the
/// `run` screen as steps named `timer`.
@Suite("statechart run: timer steps")
@MainActor
struct TimerStepTests {
    private static func waitForTimerStep(_ screen: ChartScreen) async -> [String]? {
        await within("the timer step on screen") { @MainActor in
            while true {
                let body = screen.body(style: TerminalStyle(isEnabled: false))
                if body.contains("  Step 1 (timer):") { return body }
                await Task.yield()
            }
        }
    }

    @Test("SCXML: a delayed <send> firing between commands")
    func scxmlDelayedSend() async throws {
        let document = try SCXMLDocument(
            xml: """
                <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="idle">
                  <state id="idle">
                    <onentry><send event="tick" delay="2s"/></onentry>
                    <transition event="tick" target="ticked"/>
                  </state>
                  <state id="ticked"/>
                </scxml>
                """
        )
        let clock = ManualStatechartClock()
        let screen = ChartScreen(title: "tick.scxml", session: SCXMLSession(document, clock: clock))
        clock.advance(by: .seconds(2))
        let body = await Self.waitForTimerStep(screen)
        #expect(
            body == ["  Active: ticked", "  Step 1 (timer):", "    event tick", "    exit idle", "    enter ticked"]
        )
    }

    @Test("JSON: a delayed transition firing between commands")
    func jsonDelayedTransition() async throws {
        let definition = try ChartFile.JSONChart.definition(
            fromJSON: """
                {"name": "light", "states": [{"type": "state", "name": "red"}, {"type": "state", "name": "green"}],
                 "transitions": [{"type": "after", "seconds": 2, "source": "red", "target": "green"}]}
                """
        )
        let clock = ManualStatechartClock()
        let chart = try ChartFile.JSONChart(definition, clock: clock)
        let screen = ChartScreen(title: "light.json", session: StatechartSession(chart))
        clock.advance(by: .seconds(2))
        let body = await Self.waitForTimerStep(screen)
        #expect(body == ["  Active: green", "  Step 1 (timer):", "    exit red", "    enter green"])
    }
}
