// swift-format-ignore-file
// The StateMachineECMAScript article "SCXML with data", verbatim and compiled with this test
// target (ReadmeCodeTests checks that its swift block appears here), and run by the test
// below. Edit the article and this file together.
import Foundation
import StateMachineECMAScript
import StateMachineHierarchy
import StateMachineSCXML
import Testing

/// "SCXML with data": a till whose total is an ECMAScript variable.
func readmeTill() throws -> SCXMLInterpreter {
    let document = try SCXMLDocument(
        xml: """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
              <datamodel><data id="total" expr="0"/></datamodel>
              <state id="open">
                <transition event="add" cond="_event.data.price > 0">
                  <assign location="total" expr="total + _event.data.price"/>
                </transition>
                <transition event="close" target="closed"/>
              </state>
              <final id="closed"/>
            </scxml>
            """,
        dataModel: .ecmascript
    )
    let till = SCXMLInterpreter(document: document)
    try till.start()
    try till.send("add", data: .object(["price": .number(2.5)]))
    try till.send("add", data: .object(["price": .number(4)]))
    print(try till.variables()["total"] ?? .null)  // 6.5
    return till
}

@Suite("The StateMachineECMAScript article's example")
struct ECMAScriptArticleExamples {
    @Test("the till adds what the events carry")
    func till() throws {
        let till = try readmeTill()
        #expect(try till.variables() == ["total": .number(6.5)])
        try till.send("close")
        #expect(till.isDone)
    }
}
