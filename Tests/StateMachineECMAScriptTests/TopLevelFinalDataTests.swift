import Foundation
import StateMachineECMAScript
import StateMachineHierarchy
import StateMachineSCXML
import StateMachineSupport
import Testing

/// W3C's `exitInterpreter` with data: the <onexit> of the final configuration assigns
/// whether or not the session records its trace.
@Suite("A top-level final's exit assigns, traced or not")
struct TopLevelFinalDataTests {
    @Test("variables() reads the <onexit>'s assignment with and without a trace", arguments: [false, true])
    func assignsAtTheEnd(recordsTrace: Bool) throws {
        let document = try SCXMLDocument(
            xml: """
                <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="f1">
                  <datamodel><data id="x" expr="0"/></datamodel>
                  <final id="f1">
                    <onexit><log label="L0" expr="'v0'"/><assign location="x" expr="1"/><raise event="q"/></onexit>
                  </final>
                </scxml>
                """,
            dataModel: .ecmascript
        )
        let logs = Lines()
        let machine = SCXMLInterpreter(document: document, recordsTrace: recordsTrace, onLog: { logs.append($0) })
        try machine.start()
        #expect(machine.isDone)
        #expect(try machine.variables() == ["x": .number(1)])
        #expect(logs.lines == ["L0: v0"])
    }
}

/// The lines a log sink received.
private final class Lines: Sendable {
    private let storage = Lock<[String]>([])

    func append(_ line: String) { storage.withLock { $0.append(line) } }

    var lines: [String] { storage.withLock { $0 } }
}
