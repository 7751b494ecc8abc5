import StateMachineHierarchy
import StateMachineSCXML
import Testing

// An SCXML session created without `recordsTrace`.

@Suite("SCXML interpreter without a trace")
struct SCXMLUntracedTests {
    static let document = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="a">
          <state id="a">
            <onentry><raise event="entered"/></onentry>
            <transition event="entered" target="b"/>
          </state>
          <state id="b"><transition event="go" target="f"/></state>
          <final id="f"/>
        </scxml>
        """

    @Test("runs the same configurations as a traced session, and records nothing")
    func sameBehaviourNoTrace() throws {
        let document = try SCXMLDocument(xml: Self.document)
        let traces = Recorder()
        let untraced = SCXMLInterpreter(document: document, recordsTrace: false) { trace in
            traces.append("\(trace.count)")
        }
        let traced = SCXMLInterpreter(document: document)
        #expect(!untraced.recordsTrace && traced.recordsTrace)
        for machine in [untraced, traced] {
            try machine.start()
            #expect(machine.activeStates == ["b"])
            try machine.send("go")
            #expect(machine.activeStates == ["f"])
            #expect(machine.isDone)
        }
        #expect(untraced.trace.isEmpty)
        // At the top-level final, the final configuration's exit blocks run (W3C's exitInterpreter).
        #expect(traced.trace == ["event:go", "exit:b", "enter:f", "exit:f"])
        // The observer still hears of every macrostep (start, go), with an empty trace.
        #expect(traces.entries == ["0", "0"])
    }
}
