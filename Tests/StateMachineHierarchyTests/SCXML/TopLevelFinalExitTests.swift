import StateMachineHierarchy
import StateMachineSCXML
import Testing

// W3C's `exitInterpreter`: reaching a top-level <final> runs the <onexit> content of the
// final configuration, whether or not anyone watches the session, and in a typed chart
// under `.scxml` (StatechartOptions.TopLevelFinal.runsExitBlocks).

@Suite("A top-level final's exit, watched or not")
struct TopLevelFinalExitTests {
    /// The smallest case: a session that starts in a top-level final whose <onexit>
    /// logs and raises.
    static let minimal = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="f1">
          <final id="f1"><onexit><log label="L0" expr="'v0'"/><raise event="q"/></onexit></final>
        </scxml>
        """

    /// How a session of `minimal` is watched.
    enum Watching: CaseIterable {
        case traced, untraced, observed, debugSink
    }

    @Test("The final configuration's <onexit> runs once, traced or not, observed or not", arguments: Watching.allCases)
    func minimalSession(_ watching: Watching) throws {
        let logs = Recorder()
        let macrosteps = Recorder()
        let observer: SCXMLInterpreter.MacrostepObserver = { trace in macrosteps.append("\(trace.count)") }
        let machine = SCXMLInterpreter(
            document: try SCXMLDocument(xml: Self.minimal),
            recordsTrace: watching == .traced,
            onMacrostep: watching == .observed ? observer : nil,
            onLog: { text in logs.append(text) }
        )
        if watching == .debugSink { machine.attachDebugger(StatechartDebugSink { _ in }) }
        try machine.start()
        #expect(machine.isDone)
        #expect(machine.activeStates == ["f1"])
        #expect(logs.entries == ["L0: v0"])
        // What the <onexit> raised went nowhere: the session is over.
        if watching == .traced {
            #expect(machine.trace == ["enter:f1", "exit:f1", "log:L0: v0"])
        } else {
            #expect(machine.trace.isEmpty)
        }
        if watching == .observed { #expect(macrosteps.entries == ["0"]) }
        // Later events and a stop run no exit again.
        try machine.send("q")
        #expect(logs.entries == ["L0: v0"])
    }

    @Test("A session's final <onexit> runs while its state is still in the configuration, which stays")
    func onExitSeesItsState() throws {
        let logs = Recorder()
        let machine = SCXMLInterpreter(
            document: try SCXMLDocument(
                xml: """
                    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="a">
                      <state id="a"><transition event="go" target="end"/></state>
                      <final id="end">
                        <onexit>
                          <if cond="In('end')"><log label="still" expr="'end'"/><else/><log label="gone" expr="'end'"/></if>
                        </onexit>
                      </final>
                    </scxml>
                    """
            ),
            recordsTrace: false,
            onLog: { text in logs.append(text) }
        )
        try machine.start()
        try machine.send("go")
        #expect(machine.isDone)
        // The state's own <onexit> runs before it leaves the configuration, as in W3C.
        #expect(logs.entries == ["still: end"])
        #expect(machine.activeStates == ["end"])
    }

    /// The minimal case's typed twin: a root final state whose exit block records.
    static func twin(_ recorder: Recorder, options: StatechartOptions) throws -> Statechart<String, String, Never> {
        typealias Chart = Statechart<String, String, Never>
        return try Chart(name: "twin", initial: "a", options: options) {
            Chart.State("a").on("go", to: "f1").onExit(recorder.record("exit a"))
            Chart.State(final: "f1").onExit(recorder.record("exit f1"))
        }
    }

    @Test(
        "A typed chart under .scxml runs the final configuration's exit blocks, observed or not",
        arguments: [false, true]
    )
    func typedUnderSCXML(observed: Bool) throws {
        let recorder = Recorder()
        let chart = try Self.twin(recorder, options: .scxml)
        let notifications = Recorder()
        let subscription = try chart.observe(.exited, at: "f1") { _ in notifications.append("exited f1") }
        defer { subscription.cancel() }
        if observed { chart.attachDebugger(StatechartDebugSink { _ in }) }
        chart.start()
        try chart.handle("go")
        #expect(chart.isFinished)
        #expect(chart.activeStates == ["f1"])
        #expect(recorder.entries == ["exit a", "exit f1"])
        // Observers are not told: the configuration stays. A stop tells them, and runs no
        // exit block a second time.
        #expect(notifications.entries.isEmpty)
        chart.stop()
        #expect(recorder.entries == ["exit a", "exit f1"])
        #expect(notifications.entries == ["exited f1"])
    }

    @Test(
        "A typed chart under the default options runs no exit block at its final, observed or not; stop runs it",
        arguments: [false, true]
    )
    func typedByDefault(observed: Bool) throws {
        let recorder = Recorder()
        let chart = try Self.twin(recorder, options: StatechartOptions())
        if observed { chart.attachDebugger(StatechartDebugSink { _ in }) }
        chart.start()
        try chart.handle("go")
        #expect(chart.isFinished)
        #expect(recorder.entries == ["exit a"])
        chart.stop()
        #expect(recorder.entries == ["exit a", "exit f1"])
    }

    @Test("TopLevelFinal is .runsExitBlocks in .scxml and .keepsConfiguration by default")
    func options() {
        #expect(StatechartOptions.scxml.topLevelFinal == .runsExitBlocks)
        #expect(StatechartOptions().topLevelFinal == .keepsConfiguration)
    }
}
