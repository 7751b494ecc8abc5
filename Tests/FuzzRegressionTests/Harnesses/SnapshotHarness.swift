import Foundation
import StateMachineHierarchy
import StateMachineSCXML

/// Fuzz harness: a snapshot from arbitrary bytes, restored into a chart with every kind of
/// state a snapshot records (parallel regions, deep and shallow history, a join, a delayed
/// transition, a final state) and into an SCXML document with a pending send. A restore
/// either fails with an error or yields a chart that runs and snapshots again.
/// Shared by `FuzzSnapshot` and the regression tests.
enum SnapshotHarness {
    typealias Chart = Statechart<String, String, Int>

    static let definition: Chart.Definition = Chart.Definition(name: "main") {
        Chart.State("idle").on("go", to: "work").on("fork", to: .fork("split"))
        Chart.State("work") {
            Chart.State("w1").on("next", to: "w2")
            Chart.State("w2").after(.seconds(2), to: "w1")
        }
        .history("hw", .deep)
        .on("leave", to: "idle")
        .on("back", to: .history("hw"))
        Chart.State(parallel: "p") {
            Chart.Region {
                Chart.State("a1").on("a", to: "a2")
                Chart.State("a2").on("j", to: .join("merge"))
            }
            Chart.Region {
                Chart.State("b1").on("b", to: "b2")
                Chart.State("b2").on("j", to: .join("merge"))
            }
        }
        .history("hp", .shallow)
        Chart.State(final: "end")
        Chart.Fork("split", region: "p", targets: ["a2", "b1"])
        Chart.Join("merge", region: "p", sources: ["a2", "b2"], target: "end")
    }

    static let document = try! SCXMLDocument(
        xml: """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" name="doc" initial="s">
              <state id="s">
                <history id="h" type="deep"><transition target="s1"/></history>
                <state id="s1"><onentry><send event="tick" delay="1s" idlocation="slot"/></onentry>
                  <transition event="tick" target="s2"/></state>
                <state id="s2"/>
              </state>
              <final id="f"/>
            </scxml>
            """
    )

    static func run(_ data: Data) {
        guard let snapshot = try? JSONDecoder().decode(StatechartSnapshot.self, from: data) else { return }
        let clock = ManualStatechartClock()
        if let chart = try? Chart(definition, clock: clock, restoring: snapshot) {
            for event in ["go", "next", "back", "a", "b", "j", "leave", "fork"] {
                _ = try? chart.handle(event)
                clock.advance(by: .seconds(1))
            }
            _ = chart.snapshot()
        }
        if let machine = try? SCXMLInterpreter(document: document, restoring: snapshot, clock: clock) {
            try? machine.send("tick")
            clock.advance(by: .seconds(2))
            _ = try? machine.snapshot()
        }
    }
}
