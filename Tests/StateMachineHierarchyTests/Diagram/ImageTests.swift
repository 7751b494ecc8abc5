import CaseStudiesFeatures
import Foundation
import StateMachineHierarchy
import StateMachineSCXML
import TestSupport
import Testing

/// `svg()` and `png()`: the charts' diagrams rendered by Graphviz.
@Suite("Diagram images")
struct ImageTests {
    @Test("a typed chart: an SVG naming every state, parallel regions drawn, an action on its arrow")
    func typedChart() throws {
        let player = try makePlayer()
        let svg = try player.svg()
        #expect(ImageChecks.statesMissing(from: svg, player.states) == [])
        let size = try #require(ImageChecks.pngSize(try player.png()))
        #expect(size.width > 100 && size.height > 100)

        typealias Chart = Statechart<String, String, Int>
        let door = try Chart(name: "door") {
            Chart.State("closed").on("open", to: "opened", action: { _ in })
            Chart.State(final: "opened")
        }
        let texts = try #require(ImageChecks.svgTexts(try door.svg()))
        #expect(texts.contains("open / action"))
        // A final state is a bull's eye, its name beside it.
        #expect(texts.contains("opened"))
    }

    @Test("an SCXML document: history, final and parallel states, and executable content on the arrows")
    func scxml() throws {
        let document = try SCXMLDocument(
            xml: """
                <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" name="s" initial="a">
                  <state id="a">
                    <history id="h" type="deep"><transition target="a1"/></history>
                    <state id="a1"><transition event="go" target="p"><raise event="went"/></transition></state>
                  </state>
                  <parallel id="p">
                    <state id="r1"/>
                    <state id="r2"><transition event="end" target="done"/></state>
                  </parallel>
                  <final id="done"/>
                </scxml>
                """
        )
        let svg = try document.svg()
        #expect(ImageChecks.statesMissing(from: svg, ["a", "a1", "p", "r1", "r2", "done"]) == [])
        let texts = try #require(ImageChecks.svgTexts(svg))
        #expect(texts.contains("H*"))
        #expect(texts.contains("go / raise went"))
        #expect(ImageChecks.pngSize(try document.png()) != nil)
    }
}
