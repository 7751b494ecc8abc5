import Foundation
import StateMachineECMAScript
import StateMachineHierarchy
import StateMachineSCXML
import Testing

/// Documents written for other processors (SCION, uSCXML): no `datamodel` attribute, yet
/// `<datamodel>`, `<script>` and expressions; and the `_event.data` of `error.execution`,
/// which says where the error came from, as SCION's does.
@Suite("SCXML: the default data model and error.execution's data")
struct DefaultDataModelTests {
    static let withoutAttribute = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
          <datamodel><data id="count" expr="1 + 1"/></datamodel>
          <script>function twice(n) { return n * 2; }</script>
          <state id="a">
            <transition event="t" cond="twice(count) == 4" target="b">
              <assign location="count" expr="twice(count)"/>
            </transition>
          </state>
          <state id="b"/>
        </scxml>
        """

    @Test("Without a datamodel attribute, a document runs with the data model it was loaded with")
    func loadedWith() throws {
        let document = try SCXMLDocument(xml: Self.withoutAttribute, dataModel: .ecmascript)
        #expect(document.dataModel.name == "ecmascript")
        let machine = SCXMLInterpreter(document: document)
        try machine.start()
        try machine.send("t")
        #expect(machine.activeStates == ["b"])
        #expect(try machine.variables()["count"] == .number(4))
    }

    @Test("Without one given, the null data model, and datamodel=\"null\" stays null whatever is given")
    func nullOtherwise() throws {
        #expect(throws: SCXMLError.needsDataModel(element: "datamodel", attribute: nil, line: 2)) {
            try SCXMLDocument(xml: Self.withoutAttribute)
        }
        let declaredNull = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
              <state id="a"><transition event="t" cond="In('a')" target="b"/></state>
              <state id="b"/>
            </scxml>
            """
        #expect(try SCXMLDocument(xml: declaredNull, dataModel: .ecmascript).dataModel.name == "null")
        let plain = #"<scxml xmlns="http://www.w3.org/2005/07/scxml"><state id="a"/></scxml>"#
        #expect(try SCXMLDocument(xml: plain).dataModel.name == "null")
        #expect(
            SCXMLError.needsDataModel(element: "script", attribute: nil, line: 3).description.hasSuffix(
                #"(declare datamodel="ecmascript" on <scxml>, or load it with dataModel: .ecmascript)"#
            )
        )
    }

    @Test("error.execution carries tagname, line, column and reason in _event.data")
    func errorExecutionData() throws {
        let document = try SCXMLDocument(
            xml: """
                <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
                  <datamodel><data id="seen" expr="null"/></datamodel>
                  <state id="a">
                    <onentry>
                      <assign location="x" expr="undefinedThing.field"/>
                    </onentry>
                    <transition event="error.execution" target="b">
                      <assign location="seen" expr="_event.data"/>
                    </transition>
                  </state>
                  <state id="b"/>
                </scxml>
                """,
            dataModel: .ecmascript
        )
        let machine = SCXMLInterpreter(document: document)
        try machine.start()
        #expect(machine.activeStates == ["b"])
        guard case .object(let data)? = try machine.variables()["seen"] else {
            Issue.record("_event.data is not an object: \(String(describing: try machine.variables()["seen"]))")
            return
        }
        #expect(data["tagname"] == .string("assign"))
        #expect(data["line"] == .number(5))
        // The column of the '>' that ends the start tag, as the XML parser reports it.
        #expect(data["column"] == .number(55))
        guard case .string(let reason)? = data["reason"] else {
            Issue.record("no reason in \(data)")
            return
        }
        #expect(reason.hasPrefix("ReferenceError"), "\(reason)")
    }

    @Test("error.communication names the <send> too")
    func errorCommunicationData() throws {
        let machine = SCXMLInterpreter(
            document: try SCXMLDocument(
                xml: """
                    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
                      <datamodel><data id="seen" expr="null"/></datamodel>
                      <state id="a">
                        <onentry><send event="up" target="#_parent"/></onentry>
                        <transition event="error.communication" target="b">
                          <assign location="seen" expr="_event.data"/>
                        </transition>
                      </state>
                      <state id="b"/>
                    </scxml>
                    """,
                dataModel: .ecmascript
            )
        )
        try machine.start()
        let seen = try machine.variables()["seen"]
        let expected: SCXMLValue = .object([
            "tagname": .string("send"), "line": .number(4), "column": .number(48),
            "reason": .string("<send target=\"#_parent\">: this session was not invoked"),
        ])
        #expect(seen == expected, "\(seen?.json ?? "nil")")
    }
}

/// `recordsContent`: the trace of a debugger, with the executable content each macrostep ran.
@Suite("SCXML: a trace with the executable content that ran")
struct ContentTraceTests {
    static let document = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
          <datamodel><data id="n" expr="0"/></datamodel>
          <state id="a">
            <transition event="go" target="b">
              <assign location="n" expr="n + 1"/>
              <script>n = n * 10;</script>
              <send event="later" id="timer" delay="1s"/>
              <cancel sendid="timer"/>
              <raise event="inside"/>
              <log label="n" expr="n"/>
            </transition>
          </state>
          <state id="b"/>
        </scxml>
        """

    @Test("with recordsContent the trace names assign, script, send, cancel, raise and log in order; without it, none")
    func content() throws {
        let document = try SCXMLDocument(xml: Self.document, dataModel: .ecmascript)
        let debugging = SCXMLInterpreter(document: document, recordsContent: true)
        try debugging.start()
        try debugging.send("go")
        #expect(
            debugging.trace == [
                "event:go", "exit:a", "assign:n", "script:line 6", "send:later", "cancel:timer", "raise:inside",
                "log:n: 10", "enter:b", "event:inside",
            ]
        )
        let plain = SCXMLInterpreter(document: document)
        try plain.start()
        try plain.send("go")
        #expect(plain.trace == ["event:go", "exit:a", "log:n: 10", "enter:b", "event:inside"])
    }
}
