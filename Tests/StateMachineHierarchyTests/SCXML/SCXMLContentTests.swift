import Foundation
import StateMachineHierarchy
import StateMachineSCXML
import Testing

// SCXML's executable content and conditions beyond <raise>/<send>/<cancel>: <if>, <log>,
// conditions with In(), true, false, !, && and ||, errors raised at run time, documents
// with namespace prefixes and malformed XML; and the one engine compared with a chart
// written in Swift.

private func machine(_ body: String, initial: String? = nil) throws -> SCXMLInterpreter {
    SCXMLInterpreter(document: try scxmlDocument(body, initial: initial), clock: ManualStatechartClock())
}

/// The `log:` entries of the machine's last macrostep.
private func logs(_ machine: SCXMLInterpreter) -> [String] {
    machine.trace.filter { $0.hasPrefix("log:") }.map { String($0.dropFirst(4)) }
}

@Suite("SCXML <if>, <log> and conditions")
struct SCXMLContentTests {
    @Test("<if>/<elseif>/<else> runs the first branch whose condition holds, else the <else>")
    func ifElseIfElse() throws {
        let chart = try machine(
            """
            <parallel id="p">
              <state id="mode" initial="one">
                <state id="one"><transition event="next" target="two"/></state>
                <state id="two"><transition event="next" target="three"/></state>
                <state id="three"/>
              </state>
              <state id="probe">
                <transition event="ask">
                  <if cond="In('one')"><log expr="'first'"/>
                  <elseif cond="In('two')"/><log expr="'second'"/><log expr="'still second'"/>
                  <else/><log expr="'other'"/>
                  </if>
                  <log expr="'after'"/>
                </transition>
              </state>
            </parallel>
            """
        )
        try chart.start()
        try chart.send("ask")
        #expect(logs(chart) == ["first", "after"])
        try chart.send("next")
        try chart.send("ask")
        #expect(logs(chart) == ["second", "still second", "after"])
        try chart.send("next")
        try chart.send("ask")
        #expect(logs(chart) == ["other", "after"])
    }

    @Test("An <if> without <else> whose conditions all fail runs nothing")
    func ifWithoutElse() throws {
        let chart = try machine(
            """
            <state id="a"><transition event="t"><if cond="false"><raise event="never"/></if><log expr="'done'"/></transition></state>
            """
        )
        try chart.start()
        try chart.send("t")
        #expect(chart.trace == ["event:t", "log:done"])
    }

    static let conditions: [(String, Bool)] = [
        ("true", true), ("false", false), ("In('a')", true), ("In(\"b\")", false), ("!In('b')", true),
        ("!!In('a')", true), ("In('a') && In('b')", false), ("In('a') || In('b')", true),
        ("In('b') || In('a') && false", false), ("(In('b') || In('a')) && true", true),
        ("!(In('a') && In('p'))", false), ("  true&&!false  ", true), ("In('p') && (false || !In('b'))", true),
    ]

    @Test("Each operator of a condition, with precedence (&& before ||) and parentheses", arguments: conditions)
    func condition(text: String, expected: Bool) throws {
        let escaped = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
        let chart = try machine(
            """
            <parallel id="p">
              <state id="r1" initial="a"><state id="a"/><state id="b"/></state>
              <state id="r2" initial="x">
                <state id="x"><transition event="t" cond="\(escaped)" target="y"/></state>
                <state id="y"/>
              </state>
            </parallel>
            """
        )
        try chart.start()
        try chart.send("t")
        #expect(chart.isActive("y") == expected, "\(text)")
    }

    static let badConditions: [(String, String)] = [
        ("x > 1", "expected In('id'), true, false, '!' or '(' at 'x > 1'"),
        ("In(a)", "expected a quoted state id at 'a)'"),
        ("In('a'", "expected ')' after the state id at the end"),
        ("(true", "expected ')' at the end"),
        ("true false", "expected '&&', '||' or the end at 'false'"),
        ("", "expected In('id'), true, false, '!' or '(' at the end"),
        ("truest", "expected In('id'), true, false, '!' or '(' at 'truest'"),
        ("In('a b')", "In() needs one state id without spaces at ''a b')'"),
        (String(repeating: "!", count: 65) + "true", "nested more than 64 levels deep at '!true'"),
    ]

    @Test("Anything else is an error naming the line, the attribute and what was expected", arguments: badConditions)
    func badCondition(text: String, reason: String) {
        let escaped = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "'", with: "&apos;")
        let error = scxmlLoadError(
            "<scxml>\n\n<state id=\"a\"><transition event=\"t\" cond='\(escaped)' target=\"a\"/></state></scxml>"
        )
        #expect(
            error
                == .invalidExpression(element: "transition", attribute: "cond", value: text, reason: reason, line: 3)
        )
        #expect(error?.description.hasPrefix("line 3: cond=") == true)
    }

    @Test("<if> and <elseif> need a cond naming known states; nothing follows <else>")
    func badIf() {
        #expect(
            scxmlLoadError("<scxml><state id=\"a\"><onentry><if><log/></if></onentry></state></scxml>")
                == .missingAttribute(element: "if", attribute: "cond", line: 1)
        )
        #expect(
            scxmlLoadError("<scxml><state id=\"a\"><onentry>\n<if cond=\"In('zz')\"/></onentry></state></scxml>")
                == .unknownState(id: "zz", element: "if", line: 2)
        )
        #expect(
            scxmlLoadError(
                "<scxml><state id=\"a\"><onentry><if cond=\"true\"><else/>\n<elseif cond=\"true\"/></if></onentry></state></scxml>"
            ) == .invalidStructure(reason: "<elseif> after <else> in <if>", line: 2)
        )
        #expect(
            scxmlLoadError("<scxml><state id=\"a\"><onentry><if cond=\"true\"><elseif/></if></onentry></state></scxml>")
                == .missingAttribute(element: "elseif", attribute: "cond", line: 1)
        )
    }

    @Test("<log label expr> writes the label and the literal to the trace; expr must be a quoted literal")
    func log() throws {
        let chart = try machine(
            #"<state id="a"><onentry><log label="hello" expr="'world'"/><log label="only"/><log expr="&quot;quoted&quot;"/></onentry></state>"#
        )
        try chart.start()
        #expect(logs(chart) == ["hello: world", "only", "quoted"])
        #expect(
            scxmlLoadError(#"<scxml><state id="a"><onentry><log expr="1 + 1"/></onentry></state></scxml>"#)
                == .invalidExpression(
                    element: "log",
                    attribute: "expr",
                    value: "1 + 1",
                    reason: "the null data model's expr is a quoted literal, such as 'text'",
                    line: 1
                )
        )
    }
}

@Suite("SCXML errors at run time")
struct SCXMLRuntimeErrorTests {
    static let undeliverable: [(String, String)] = [
        // Basic HTTP: without a target, nowhere to post (W3C test577); with one, this processor has
        // no HTTP client to post with.
        (##"type="http://www.w3.org/TR/scxml/#BasicHTTPEventProcessor""##, "error.communication"),
        (#"type="basichttp""#, "error.communication"),
        (
            ##"type="http://www.w3.org/TR/scxml/#BasicHTTPEventProcessor" target="http://example.invalid/""##,
            "error.execution"
        ),
        (#"type="27""#, "error.execution"),
        (#"target="http://example.invalid/""#, "error.execution"),
        (##"target="#_scxml_other-session""##, "error.communication"),
        (##"target="#_parent""##, "error.communication"),
        (##"target="#_child""##, "error.communication"),
    ]

    @Test(
        "A <send> the processor cannot deliver raises its error on the internal queue and ends its block",
        arguments: undeliverable
    )
    func undeliverableSend(attribute: String, error: String) throws {
        let chart = try machine(
            """
            <state id="a">
              <onentry>
                <send event="never" \(attribute)/>
                <raise event="skipped"/>
              </onentry>
              <transition event="\(error)" target="caught"/>
              <transition event="skipped" target="wrong"/>
              <transition event="never" target="wrong"/>
            </state>
            <state id="caught"/>
            <state id="wrong"/>
            """
        )
        try chart.start()
        #expect(chart.activeAtomicStates == ["caught"])
        #expect(chart.trace.contains("event:\(error)"))
        #expect(!chart.trace.contains("event:skipped"))
    }

    @Test("An error inside an <if> ends the enclosing block too; error.* matches the prefix")
    func errorInsideIf() throws {
        let chart = try machine(
            """
            <state id="a">
              <onentry>
                <if cond="true"><send event="x" type="unknown"/><log expr="'inner'"/></if>
                <log expr="'outer'"/>
              </onentry>
              <transition event="error" target="b"/>
            </state>
            <state id="b"/>
            """
        )
        try chart.start()
        #expect(
            chart.trace == [
                "enter:a", "error:error.execution: <send> to target (none) of type 'unknown' cannot be delivered",
                "event:error.execution", "exit:a", "enter:b",
            ]
        )
    }
}

@Suite("SCXML documents as XML")
struct SCXMLXMLTests {
    @Test("Elements with a namespace prefix load and run like unprefixed ones")
    func namespacePrefix() throws {
        let document = try SCXMLDocument(
            xml: """
                <ns0:scxml xmlns:ns0="http://www.w3.org/2005/07/scxml" version="1.0" initial="a">
                  <ns0:state id="a"><ns0:transition event="t" target="b"/></ns0:state>
                  <ns0:final id="b"/>
                </ns0:scxml>
                """
        )
        let chart = SCXMLInterpreter(document: document)
        try chart.start()
        try chart.send("t")
        #expect(chart.isDone)
    }

    @Test("An element of another namespace is named with its prefix")
    func foreignNamespace() {
        #expect(
            scxmlLoadError(
                """
                <scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:x="urn:other">
                <x:state id="a"/></scxml>
                """
            ) == .unsupportedElement(element: "x:state", line: 2)
        )
    }

    static let malformed: [(String, SCXMLError)] = [
        (
            "<scxml>\n  <state id=\"a\">\n</scxml>",
            .malformedXML(line: 3, column: 9, reason: "an end tag does not match its start tag")
        ),
        (
            "<scxml><state id='a' id='b'/></scxml>",
            .malformedXML(line: 1, column: 28, reason: "an attribute is given twice")
        ),
        (
            "<scxml>\n<state id=a/></scxml>",
            .malformedXML(line: 2, column: 11, reason: "an attribute value must be quoted")
        ),
        ("<scxml>&foo;</scxml>", .malformedXML(line: 1, column: 13, reason: "an entity is used but not declared")),
        (
            "<scxml></scxml><x/>",
            .malformedXML(
                line: 1,
                column: 16,
                reason: "there is content after the root element <scxml>, which must be the only one"
            )
        ),
        ("<scxml", .malformedXML(line: 1, column: 7, reason: "'>' was expected to close a tag")),
        ("", .malformedXML(line: 1, column: 1, reason: "the document is empty")),
    ]

    static let notClosed = "is closed (an element, a comment or a CDATA section is not closed)"

    /// Malformed shapes, each with the words it must be reported in (libxml2's codes through
    /// Foundation, which gives one code to a document that ends too early and to one with
    /// content after its root).
    static let malformedShapes: [(text: String, reason: String)] = [
        ("not xml at all", "the document does not start with an element (such as <scxml>): it is not XML"),
        ("hello <scxml/>", "the document does not start with an element (such as <scxml>): it is not XML"),
        ("   \n  ", "the document is empty"),
        ("<", "the document has no element"),
        ("<scxml>", "the document ends before <scxml> \(notClosed)"),
        ("<scxml><state id=\"a\"/>", "the document ends before <scxml> \(notClosed)"),
        ("<scxml><state id=\"a\">", "the document ends before <state> \(notClosed)"),
        ("<scxml><![CDATA[ x </scxml>", "the document ends before <scxml> \(notClosed)"),
        ("<scxml/><scxml/>", "there is content after the root element <scxml>, which must be the only one"),
        ("<scxml/>trailing", "there is content after the root element <scxml>, which must be the only one"),
        ("<scxml><state></final></scxml>", "an end tag does not match its start tag"),
        ("<scxml a=\"b/>", "an attribute value is not closed (missing quote)"),
        ("<scxml a/>", "an attribute has no value"),
        (
            "<scxml a=\"<\"/>",
            "'<' is not allowed in an attribute value; a '<' that is not a tag must be written '&lt;'"
        ),
        ("<scxml>&amp</scxml>", "an entity reference is not complete (expected a name and ';')"),
        ("<scxml>&#xZZ;</scxml>", "a character reference is not valid"),
        ("<scxml>\u{1}</scxml>", "a character is not allowed in XML"),
        ("<scxml><!-- x </scxml>", "a comment is not closed ('-->')"),
        ("<scxml><!-- a -- b --></scxml>", "'--' is not allowed inside a comment"),
        ("<scxml><state", "'>' was expected to close a tag"),
        ("<scxml></scxml", "'>' was expected to close a tag"),
        ("<scxml <state/></scxml>", "a name is required here"),
        ("<x:scxml/>", "a namespace prefix is not declared or not valid"),
    ]

    @Test("Each malformed shape is reported in the right words", arguments: malformedShapes)
    func malformedShape(text: String, reason: String) throws {
        let error = try #require(scxmlLoadError(text))
        guard case .malformedXML(let line, let column, let found) = error else {
            Issue.record("\(error) is not malformedXML")
            return
        }
        #expect(found == reason)
        #expect(line >= 1 && column >= 1)
    }

    @Test("Malformed XML names the line, the column and what is wrong, in words", arguments: malformed)
    func malformedXML(text: String, expected: SCXMLError) {
        let error = scxmlLoadError(text)
        #expect(error == expected)
        if case .malformedXML(let line, let column, _) = expected {
            #expect(error?.description.hasPrefix("line \(line), column \(column): malformed XML: ") == true)
        }
    }
}

@Suite("One engine: SCXML and Swift charts")
struct OneEngineTests {
    typealias Chart = Statechart<String, String, Never>

    @Test("The same chart as SCXML and in Swift with StatechartOptions.scxml goes through the same configurations")
    func sameConfigurations() throws {
        let scxml = try machine(
            """
            <state id="idle"><transition event="go" target="p"/></state>
            <parallel id="p">
              <state id="left" initial="l1">
                <state id="l1"><transition event="step" target="l2"/></state>
                <state id="l2"><transition event="step.more" target="l1"/></state>
              </state>
              <state id="right" initial="r1">
                <state id="r1"><transition event="*" cond="In('l2')" target="r2"/></state>
                <state id="r2"/>
              </state>
              <transition event="stop" target="idle"/>
            </parallel>
            """,
            initial: "idle"
        )
        let swift = try Chart(name: "scxml", options: .scxml) {
            Chart.State("idle").on("go", to: "p")
            Chart.State(parallel: "p") {
                Chart.Region {
                    Chart.State("left") {
                        Chart.State("l1").on("step", to: "l2")
                        Chart.State("l2").on("step.more", to: "l1")
                    }
                }
                Chart.Region {
                    Chart.State("right") {
                        Chart.State("r1").on("*", to: "r2", guard: { _ in swiftIsActive("l2") })
                        Chart.State("r2")
                    }
                }
            }.on("stop", to: "idle")
        }
        OneEngineTests.swiftChart.value = swift
        defer { OneEngineTests.swiftChart.value = nil }
        try scxml.start()
        swift.start()
        for event in ["go", "step", "step.more.deeply", "step", "other", "stop", "go"] {
            try scxml.send(event)
            try swift.handle(event)
            let atomic = Set(swift.activeStates.filter { ["idle", "l1", "l2", "r1", "r2"].contains($0) })
            #expect(scxml.activeAtomicStates == atomic, "after \(event)")
        }
    }

    /// The Swift chart, for its guard's `In('l2')`.
    static let swiftChart = Box<Chart?>(nil)
}

/// `In(id)` for the Swift twin: the chart's configuration as of its last step. The guard
/// runs inside a step of that same chart, on the thread that drains it, which published
/// the configuration before the step began.
private func swiftIsActive(_ id: String) -> Bool {
    OneEngineTests.swiftChart.value?.activeStates.contains(id) ?? false
}
