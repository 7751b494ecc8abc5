import Foundation
import StateMachineHierarchy
import StateMachineSCXML
import Testing

// StatechartOptions: each rule where SCXML and TBStateMachine differ, on SCXML documents and
// on typed charts.

@Suite("Statechart options (SCXML rules where they differ from TBStateMachine)")
struct StatechartOptionsTests {
    static func chart(_ options: StatechartOptions) throws -> (NestedChart, Recorder) {
        let log = Recorder()
        var definition = try NestedChart.definition(fromFile: try Fixtures.path("statemachine"))
        for path in nestedStatePaths {
            let name = String(path.split(separator: "/").last!.split(separator: "@").first!)
            try definition.onEnter(at: path, log.record("\(name)_enter"))
            try definition.onExit(at: path, log.record("\(name)_exit"))
        }
        let chart = try NestedChart(definition, options: options)
        chart.start()
        try chart.handle("a_guard")
        try chart.handle("b_b3")
        #expect(chart.activeStates == ["b", "b3", "b311", "b321"])
        log.clear()
        return (chart, log)
    }

    @Test("The default keeps TBStateMachine's forward region exit order")
    func defaultOrder() throws {
        #expect(StatechartOptions().regionExitOrder == .indexOrder)
        let (chart, log) = try Self.chart(StatechartOptions())
        #expect(chart.options == StatechartOptions())
        chart.stop()
        #expect(log.entries == ["b311_exit", "b321_exit", "b3_exit", "b_exit"])
    }

    @Test("reverseDocumentOrder exits the last region first, on stop and on transitions; entry stays forward")
    func reverseOrder() throws {
        let options = StatechartOptions(regionExitOrder: .reverseDocumentOrder)
        let (chart, log) = try Self.chart(options)
        #expect(chart.options.regionExitOrder == .reverseDocumentOrder)
        chart.stop()
        #expect(log.entries == ["b321_exit", "b311_exit", "b3_exit", "b_exit"])

        let (again, againLog) = try Self.chart(options)
        try again.handle("b_b3")  // external b → b/b3: leaves and re-enters b3
        #expect(
            againLog.entries == [
                "b321_exit", "b311_exit", "b3_exit", "b_exit", "b_enter", "b3_enter", "b311_enter", "b321_enter",
            ]
        )
    }
}

@Suite("Statechart options: conflict resolution between regions")
struct StatechartConflictTests {
    typealias Chart = Statechart<String, String, Int>

    static func chart(_ resolution: StatechartOptions.ConflictResolution, log: Recorder) throws -> Chart {
        let chart = try Chart(name: "main", options: StatechartOptions(conflictResolution: resolution)) {
            Chart.State(parallel: "p") {
                Chart.Region {
                    Chart.State("a1").on("t", to: "a2").on("u", to: "a2").onInternal("i") { _ in log.append("i_a1") }
                    Chart.State("a2")
                }
                Chart.Region {
                    Chart.State("b1").on("t", to: "out").on("u", to: "b2").on("i", to: "out")
                    Chart.State("b2")
                }
            }
            Chart.State("out").onEnter { _ in log.append("out_enter") }
        }
        chart.start()
        return chart
    }

    @Test("everyRegion (default): a later region leaving the parallel state also exits what an earlier one entered")
    func everyRegion() throws {
        #expect(StatechartOptions().conflictResolution == .everyRegion)
        let log = Recorder()
        let chart = try Self.chart(.everyRegion, log: log)
        #expect(try chart.handle("t") == .handled)
        #expect(chart.activeStates == ["out"])
    }

    @Test("documentOrder: the later, conflicting transition is dropped; the event is handled")
    func documentOrder() throws {
        let log = Recorder()
        let chart = try Self.chart(.documentOrder, log: log)
        #expect(try chart.handle("t") == .handled)
        #expect(chart.activeStates == ["p", "a2", "b1"])
        #expect(!log.entries.contains("out_enter"))
    }

    @Test("documentOrder: transitions confined to their own regions, and internal ones, never conflict")
    func noConflict() throws {
        let log = Recorder()
        let chart = try Self.chart(.documentOrder, log: log)
        try chart.handle("u")
        #expect(chart.activeStates == ["p", "a2", "b2"])

        let other = try Self.chart(.documentOrder, log: log)
        try other.handle("i")  // a1's internal transition exits nothing, so b1 → out is taken
        #expect(log.entries == ["i_a1", "out_enter"])
        #expect(other.activeStates == ["out"])
        // Each step starts with no recorded scopes: after "t" (b1 → out dropped), "i" in
        // a later step takes b1 → out (a2 has no handler for "i").
        let third = try Self.chart(.documentOrder, log: log)
        try third.handle("t")
        #expect(third.activeStates == ["p", "a2", "b1"])
        try third.handle("i")
        #expect(third.activeStates == ["out"])
    }
}

@Suite("Statechart options: SCXML selection and prefix matching on typed charts")
struct StatechartSCXMLSelectionTests {
    typealias Chart = Statechart<String, String, Int>

    @Test("documentOrder: a pick whose source is a descendant of the earlier pick's source replaces it")
    func descendantPreemption() throws {
        // a1 has no handler for "t", so it picks p's; b1 picks its own. p's exit scope
        // contains b1's, and b1 lies inside p: b1's transition replaces p's.
        let chart = try Chart(name: "main", options: StatechartOptions(conflictResolution: .documentOrder)) {
            Chart.State(parallel: "p") {
                Chart.Region { Chart.State("a1") }
                Chart.Region {
                    Chart.State("b1").on("t", to: "b2")
                    Chart.State("b2")
                }
            }.on("t", to: "out")
            Chart.State("out")
        }
        chart.start()
        try chart.handle("t")
        #expect(chart.activeStates == ["p", "a1", "b2"])
    }

    @Test("SCXML selection evaluates every condition before the microstep runs any transition")
    func conditionsBeforeTheMicrostep() throws {
        let xml = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
              <parallel id="p">
                <state id="left" initial="a1"><state id="a1"><transition event="t" target="a2"/></state><state id="a2"/></state>
                <state id="right" initial="b1">
                  <state id="b1"><transition event="t" cond="In('a1')" target="b2"/></state><state id="b2"/>
                </state>
              </parallel>
            </scxml>
            """
        let scxml = SCXMLInterpreter(document: try SCXMLDocument(xml: xml))
        try scxml.start()
        try scxml.send("t")
        #expect(scxml.activeAtomicStates == ["a2", "b2"])  // In('a1') held before a1 → a2 ran
        // TBStateMachine's region-by-region dispatch runs a1 → a2 first, so In('a1') fails.
        let sequential = SCXMLInterpreter(document: try SCXMLDocument(xml: xml), options: StatechartOptions())
        try sequential.start()
        try sequential.send("t")
        #expect(sequential.activeAtomicStates == ["a2", "b1"])
    }

    @Test("eventMatching: .prefix lets a handler for a.b take a.b.c, and * take anything; .exact does not")
    func prefixMatching() throws {
        func chart(_ matching: StatechartOptions.EventMatching) throws -> Chart {
            let chart = try Chart(name: "main", options: StatechartOptions(eventMatching: matching)) {
                Chart.State("idle").on("net.error", to: "failed").on("*", to: "busy")
                Chart.State("failed").on("retry", to: "idle")
                Chart.State("busy")
            }
            chart.start()
            return chart
        }
        let prefix = try chart(.prefix)
        #expect(try prefix.handle("net.error.timeout") == .handled)
        #expect(prefix.activeStates == ["failed"])
        try prefix.handle("retry")
        #expect(try prefix.handle("anything") == .handled)
        #expect(prefix.activeStates == ["busy"])

        let exact = try chart(.exact)
        #expect(try exact.handle("net.error.timeout") == .unhandled)
        #expect(try exact.handle("anything") == .unhandled)
        #expect(exact.activeStates == ["idle"])
        #expect(StatechartOptions.scxml.eventMatching == .prefix)
        #expect(StatechartOptions().eventMatching == .exact)
    }
}
