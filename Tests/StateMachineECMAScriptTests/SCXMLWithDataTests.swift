import Foundation
import StateMachineECMAScript
import StateMachineHierarchy
import StateMachineSCXML
import Testing

/// SCXML documents with the ECMAScript data model, run by `SCXMLInterpreter`: values to and
/// from Swift, errors naming their place, snapshots keeping the data, bounds that end a
/// runaway script in `error.execution` while the chart goes on.
@Suite("SCXML with the ECMAScript data model")
struct SCXMLWithDataTests {
    /// A document of `body` (states) with the ECMAScript data model, the first state initial.
    static func document(_ body: String, datamodel: String = "") throws -> SCXMLDocument {
        try SCXMLDocument(
            xml: """
                <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
                \(datamodel)
                \(body)
                </scxml>
                """,
            dataModel: .ecmascript
        )
    }

    /// The calculator sample.
    static func calculator() throws -> SCXMLDocument {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Samples/Statecharts/calculator.scxml")
        return try SCXMLDocument.load(contentsOf: url, dataModel: .ecmascript)
    }

    @Test("Without the ECMAScript data model, a document that needs it names what to do")
    func unavailable() {
        let text = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
              <datamodel><data id="x" expr="1"/></datamodel>
              <state id="a"/>
            </scxml>
            """
        #expect(throws: SCXMLError.dataModelUnavailable(name: "ecmascript", line: 2)) {
            try SCXMLDocument(xml: text)
        }
        #expect(
            SCXMLError.dataModelUnavailable(name: "ecmascript", line: 2).description.contains("dataModel: .ecmascript")
        )
        #expect((try? SCXMLDocument(xml: text, dataModel: .ecmascript)) != nil)
    }

    @Test("send(_:data:) reaches _event.data; variables() reads the data back as JSON values")
    func valuesBothWays() throws {
        let machine = SCXMLInterpreter(
            document: try Self.document(
                """
                <state id="a">
                  <transition event="order" cond="_event.data.items.length == 2" target="b">
                    <assign location="total" expr="_event.data.items[0].price + _event.data.items[1].price"/>
                    <assign location="last" expr="_event.data"/>
                  </transition>
                </state>
                <state id="b"/>
                """,
                datamodel: #"<datamodel><data id="total" expr="0"/><data id="last"/></datamodel>"#
            )
        )
        try machine.start()
        #expect(try machine.variables() == ["total": .number(0), "last": .null])
        let order: SCXMLValue = .object([
            "items": .array([.object(["price": .number(2.5)]), .object(["price": .number(4)])]),
            "note": .string("é\n\"quoted\""), "paid": .bool(true), "coupon": .null,
        ])
        try machine.send("order", data: order)
        #expect(machine.activeStates == ["b"])
        #expect(try machine.variables() == ["total": .number(6.5), "last": order])
    }

    @Test("An expression that fails raises error.execution naming its line and attribute, and the chart goes on")
    func errorsNameTheirPlace() throws {
        let machine = SCXMLInterpreter(
            document: try Self.document(
                """
                <state id="a">
                  <transition event="go" cond="x.y.z &gt; 1" target="wrong"/>
                  <transition event="error.execution" target="b"/>
                </state>
                <state id="b"/>
                <state id="wrong"/>
                """,
                datamodel: #"<datamodel><data id="x" expr="({})"/></datamodel>"#
            )
        )
        try machine.start()
        try machine.send("go")
        #expect(machine.activeStates == ["b"])
        let error = try #require(machine.trace.first { $0.hasPrefix("error:") })
        #expect(
            error.hasPrefix(#"error:error.execution: line 4: cond="x.y.z > 1" on <transition>: TypeError"#),
            "\(error)"
        )
    }

    @Test("A <script> or a location that does not parse rejects the document, naming it")
    func syntaxErrorsAtLoad() {
        #expect {
            _ = try Self.document(#"<state id="a"><onentry><script>var = ;</script></onentry></state>"#)
        } throws: { error in
            guard case .invalidExpression(let element, let attribute, _, let reason, let line)? = error as? SCXMLError
            else { return false }
            return element == "script" && attribute == "<script>" && line == 3 && reason.hasPrefix("SyntaxError")
                && (error as? SCXMLError)?.description.hasPrefix("line 3: <script>: SyntaxError") == true
        }
    }

    @Test(
        "A runaway loop, a runaway recursion and a huge allocation each end in error.execution; the chart goes on",
        arguments: [
            "while (true) {}",
            "function f(n) { return f(n + 1) + 1; } f(0);",
            "var a = []; while (true) { a.push(new Array(100000).join('x') + a.length); }",
        ]
    )
    func runawayScripts(script: String) throws {
        let clock = ContinuousClock()
        let machine = SCXMLInterpreter(
            document: try Self.document(
                """
                <state id="a">
                  <transition event="go" target="b"><script>\(script)</script><raise event="skipped"/></transition>
                </state>
                <state id="b">
                  <transition event="error.execution" target="c"/>
                  <transition event="skipped" target="wrong"/>
                </state>
                <state id="c"><transition event="again" cond="1 + 1 == 2" target="d"/></state>
                <state id="d"/>
                <state id="wrong"/>
                """
            )
        )
        try machine.start()
        let started = clock.now
        try machine.send("go")
        let elapsed = clock.now - started
        #expect(machine.activeStates == ["c"])
        // The bound is 100 ms per call (and 16 MiB per session); allow for a slow machine.
        #expect(elapsed < .seconds(5), "\(elapsed)")
        try machine.send("again")
        #expect(machine.activeStates == ["d"])
    }

    @Test("A scripted pocket calculator: its display is a variable")
    func calculator() throws {
        let machine = SCXMLInterpreter(document: try Self.calculator(), recordsTrace: false)
        try machine.start()
        for event in ["digit.1", "digit.2", "point", "digit.5", "oper.times", "digit.2", "equals"] {
            try machine.send(event)
        }
        #expect(try machine.variables()["display"] == .string("25"))
        for event in ["oper.divide", "digit.0", "equals"] { try machine.send(event) }
        #expect(try machine.variables()["display"] == .string("Error"))
        try machine.send("clear")
        #expect(try machine.variables() == ["display": .string("0"), "accumulator": .number(0), "operator": .null])
    }

    @Test(
        "A snapshot keeps the variables; restored, the session goes on as the original (its script functions made again)"
    )
    func snapshotsKeepData() throws {
        let document = try Self.calculator()
        let original = SCXMLInterpreter(document: document)
        try original.start()
        for event in ["digit.1", "digit.2", "oper.plus", "digit.3"] { try original.send(event) }
        let snapshot = try original.snapshot()
        #expect(snapshot.scxml?.data?["display"] == .string("3"))
        #expect(snapshot.scxml?.data?["apply"] == nil)  // code, made again by the document's script
        let decoded = try JSONDecoder().decode(StatechartSnapshot.self, from: try JSONEncoder().encode(snapshot))
        let restored = try SCXMLInterpreter(document: document, restoring: decoded)
        #expect(restored.activeStates == original.activeStates)
        try restored.send("equals")
        try original.send("equals")
        #expect(try restored.variables()["display"] == .string("15"))
        #expect(try restored.variables() == original.variables())
    }

    @Test("A value JSON cannot hold fails the snapshot with the variable's name: no half snapshot")
    func snapshotOfAFunction() throws {
        let machine = SCXMLInterpreter(
            document: try Self.document(
                #"<state id="a"><transition event="keep"><assign location="handler" expr="function () { return 1; }"/></transition></state>"#,
                datamodel: #"<datamodel><data id="handler" expr="null"/><data id="loop" expr="null"/></datamodel>"#
            )
        )
        try machine.start()
        _ = try machine.snapshot()
        try machine.send("keep")
        #expect {
            _ = try machine.snapshot()
        } throws: { error in
            (error as? SCXMLDataError)?.message.contains("'handler'") == true
        }
        #expect(throws: SCXMLDataError.self) { try machine.variables() }
    }

    @Test("A snapshot whose data the document cannot take back is refused, and the machine is left as it was")
    func badSnapshotData() throws {
        let document = try Self.calculator()
        let machine = SCXMLInterpreter(document: document)
        try machine.start()
        var snapshot = try machine.snapshot()
        snapshot.scxml?.data = ["_sessionid": .string("forged")]
        #expect(throws: StatechartError.self) { try machine.restore(snapshot) }
    }

    @Test("SCXMLValue writes compact JSON with sorted keys, reads any JSON back, and is its text in a log")
    func valueAsJSON() throws {
        let value: SCXMLValue = .object([
            "b": .array([.number(1), .number(2.5), .bool(false), .null]), "a": .string("say \"hi\"\n"),
        ])
        #expect(value.json == #"{"a":"say \"hi\"\n","b":[1,2.5,false,null]}"#)
        #expect(SCXMLValue.number(.nan).json == "null")
        #expect(SCXMLValue.string("text").description == "text")
        #expect(value.description == value.json)
        let decoded = try JSONDecoder().decode(SCXMLValue.self, from: Data(value.json.utf8))
        #expect(decoded == value)
        #expect(try JSONDecoder().decode(SCXMLValue.self, from: try JSONEncoder().encode(value)) == value)
    }

    @Test("After a failed macrostep, start() begins afresh: the data too")
    func restartAfterFailure() throws {
        let machine = SCXMLInterpreter(
            document: try Self.document(
                """
                <state id="a">
                  <onentry><assign location="entries" expr="entries + 1"/></onentry>
                  <transition event="spin" target="b"/>
                </state>
                <state id="b"><transition target="b"/></state>
                """,
                datamodel: #"<datamodel><data id="entries" expr="0"/></datamodel>"#
            )
        )
        try machine.start()
        #expect(try machine.variables()["entries"] == .number(1))
        #expect(throws: StatechartError.self) { try machine.send("spin") }
        try machine.start()
        #expect(machine.activeStates == ["a"])
        #expect(try machine.variables()["entries"] == .number(1))
    }
}
