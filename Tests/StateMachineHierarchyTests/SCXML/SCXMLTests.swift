import Foundation
import StateMachineHierarchy
import StateMachineSCXML
import Testing

// Unit tests of the SCXML loader and of each SCXML semantic of SCXMLInterpreter.

private func chart(_ body: String, initial: String? = nil, extra: String = "") throws -> SCXMLInterpreter {
    SCXMLInterpreter(document: try scxmlDocument(body, initial: initial, extra: extra))
}

@Suite("SCXML loader")
struct SCXMLLoaderTests {
    @Test("Accepts datamodel=\"ecmascript\" when nothing uses it; ids in document order")
    func acceptsEcmascriptDeclaration() throws {
        let machine = try chart(
            """
            <state id="a"><state id="a1"/><state/></state>
            <parallel id="p"><state id="r1"/><state id="r2"/></parallel>
            <final id="f"/>
            """,
            extra: " datamodel=\"ecmascript\" name=\"demo\""
        )
        #expect(machine.document.name == "demo")
        #expect(machine.document.stateIDs == ["a", "a1", "$3", "p", "r1", "r2", "f"])
        try machine.start()
        #expect(machine.activeAtomicStates == ["a1"])
        #expect(machine.activeStates == ["a", "a1"])
    }

    @Test("Unsupported elements are named with their line")
    func unsupportedElement() {
        let error = scxmlLoadError(
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
              <state id="a">
                <onentry><script>x = 1</script></onentry>
              </state>
            </scxml>
            """
        )
        #expect(error == .needsDataModel(element: "script", attribute: nil, line: 3))
        #expect(error?.description.contains("<script>") == true)
        #expect(error?.description.contains("line 3") == true)
        let invoke = scxmlLoadError(
            "<scxml>\n<state id=\"a\"><invoke type=\"scxml\"/></state></scxml>"
        )
        #expect(
            invoke == .invalidStructure(reason: "<invoke> needs exactly one of 'src', 'srcexpr' and <content>", line: 2)
        )
        let datamodel = scxmlLoadError("<scxml><datamodel><data id=\"x\"/></datamodel><state id=\"a\"/></scxml>")
        #expect(datamodel == .needsDataModel(element: "datamodel", attribute: nil, line: 1))
    }

    @Test("Conditions outside In('id'), true, false, !, && and || are rejected; In() must name a state")
    func conditions() {
        #expect(
            scxmlLoadError(
                "<scxml>\n<state id=\"a\"><transition event=\"t\" cond=\"x &gt; 1\" target=\"a\"/></state></scxml>"
            )
                == .invalidExpression(
                    element: "transition",
                    attribute: "cond",
                    value: "x > 1",
                    reason: "expected In('id'), true, false, '!' or '(' at 'x > 1'",
                    line: 2
                )
        )
        #expect(
            scxmlLoadError("<scxml><state id=\"a\"><transition cond=\"In('zz')\" target=\"a\"/></state></scxml>")
                == .unknownState(id: "zz", element: "transition", line: 1)
        )
    }

    @Test("Structural errors are reported, never a crash")
    func structuralErrors() {
        #expect(
            scxmlLoadError("<scxml><state id=\"a\"><transition target=\"nowhere\"/></state></scxml>")
                == .unknownState(id: "nowhere", element: "transition", line: 1)
        )
        #expect(scxmlLoadError("<scxml><state id=\"a\"/><state id=\"a\"/></scxml>") == .duplicateID(id: "a", line: 1))
        #expect(scxmlLoadError("<statechart/>") == .notSCXML(element: "statechart", line: 1))
        #expect(scxmlLoadError("<scxml></scxml>") != nil)
        #expect(
            scxmlLoadError("<scxml initial=\"b\"><state id=\"a\"/></scxml>")
                == .unknownState(id: "b", element: "scxml", line: 1)
        )
        #expect(
            scxmlLoadError("<scxml><state id=\"a\" foo=\"1\"/></scxml>")
                == .unsupportedAttribute(element: "state", attribute: "foo", line: 1)
        )
        #expect(
            scxmlLoadError("<scxml><state id=\"a\"><transition type=\"local\" target=\"a\"/></state></scxml>")
                == .unsupportedValue(element: "transition", attribute: "type", value: "local", line: 1)
        )
        #expect(
            scxmlLoadError("<scxml><state id=\"a\"><history id=\"h\"/><state id=\"b\"/></state></scxml>")
                == .invalidStructure(reason: "<history> 'h' needs exactly one default <transition>", line: 1)
        )
        #expect(scxmlLoadError("<scxml><state id=\"a\" initial=\"x\"/></scxml>") != nil)
        #expect(
            scxmlLoadError("<scxml><state id=\"a\" initial=\"c\"><state id=\"b\"/></state><state id=\"c\"/></scxml>")
                != nil
        )
        guard case .malformedXML? = scxmlLoadError("<scxml><state id=\"a\"></scxml>") else {
            Issue.record("unclosed element must be malformed XML")
            return
        }
        guard case .malformedXML? = scxmlLoadError("") else {
            Issue.record("empty text must be malformed XML")
            return
        }
    }

    @Test("A history default that targets a history state is rejected (it would never settle)")
    func historyTargetingHistory() {
        let text = """
            <scxml>
              <state id="s">
                <history id="h1"><transition target="h2"/></history>
                <history id="h2"><transition target="a"/></history>
                <state id="a"/>
              </state>
            </scxml>
            """
        guard case let .invalidStructure(reason, line)? = scxmlLoadError(text) else {
            Issue.record("expected invalidStructure")
            return
        }
        #expect(line == 3)
        #expect(reason.contains("'h1'") && reason.contains("'h2'"))
    }

    @Test("Every truncation of a document loads or throws SCXMLError, never traps")
    func truncations() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="p" datamodel="ecmascript">
              <parallel id="p">
                <history id="h" type="deep"><transition target="r1"/></history>
                <state id="r1" initial="a"><state id="a"><transition event="t" target="b"/></state><state id="b"/></state>
                <state id="r2"><initial><transition target="c"><raise event="x"/></transition></initial>
                  <state id="c"><transition event="x" cond="In('a')" target="f"/></state><final id="f"/></state>
              </parallel>
            </scxml>
            """
        var loaded = 0
        var failed = 0
        for length in 0...text.count {
            do {
                let machine = SCXMLInterpreter(document: try SCXMLDocument(xml: String(text.prefix(length))))
                try machine.start()
                try machine.send("t")
                loaded += 1
            } catch {
                failed += 1
            }
        }
        #expect(loaded >= 1)  // at least the whole document
        #expect(failed >= text.count - 10)
        let whole = SCXMLInterpreter(document: try SCXMLDocument(xml: text))
        try whole.start()
        #expect(whole.activeAtomicStates == ["a", "f"])
    }

    @Test("A missing file is a clear error")
    func missingFile() {
        #expect(throws: SCXMLError.self) {
            _ = try SCXMLDocument.load(contentsOf: URL(fileURLWithPath: "/nonexistent/chart.scxml"))
        }
    }
}

@Suite("SCXML semantics")
struct SCXMLSemanticsTests {
    @Test("Event descriptors match by dot-separated prefix; * matches everything")
    func prefixMatching() throws {
        let machine = try chart(
            """
            <state id="a">
              <transition event="error" target="b"/>
            </state>
            <state id="b">
              <transition event="foo.bar.*" target="c"/>
            </state>
            <state id="c">
              <transition event="x y" target="d"/>
            </state>
            <state id="d">
              <transition event="*" target="e"/>
            </state>
            <state id="e"/>
            """
        )
        try machine.start()
        try machine.send("errors")  // not a token prefix
        #expect(machine.activeAtomicStates == ["a"])
        try machine.send("error.send.failed")
        #expect(machine.activeAtomicStates == ["b"])
        try machine.send("foo.barista")
        #expect(machine.activeAtomicStates == ["b"])
        try machine.send("foo.bar")
        #expect(machine.activeAtomicStates == ["c"])
        try machine.send("y")
        #expect(machine.activeAtomicStates == ["d"])
        try machine.send("anything.at.all")
        #expect(machine.activeAtomicStates == ["e"])
    }

    @Test("Eventless transitions run until the configuration is stable, In() guards them")
    func eventless() throws {
        let machine = try chart(
            """
            <parallel id="p">
              <state id="r1" initial="a">
                <state id="a"><transition target="b"/></state>
                <state id="b"><transition event="go" target="c"/></state>
                <state id="c"/>
              </state>
              <state id="r2" initial="x">
                <state id="x"><transition cond="In('c')" target="y"/></state>
                <state id="y"/>
              </state>
            </parallel>
            """
        )
        try machine.start()
        #expect(machine.activeAtomicStates == ["b", "x"])
        try machine.send("go")
        #expect(machine.activeAtomicStates == ["c", "y"])
    }

    @Test("Raised events go to the internal queue and run before the next external event, FIFO")
    func internalQueue() throws {
        let machine = try chart(
            """
            <state id="a">
              <transition event="t" target="b"><raise event="r1"/><raise event="r2"/></transition>
            </state>
            <state id="b">
              <onentry><raise event="r3"/><log label="entered b"/></onentry>
              <transition event="r1" target="c"/>
            </state>
            <state id="c">
              <transition event="r2" target="d"/>
              <transition event="r3" target="a"/>
            </state>
            <state id="d">
              <transition event="r3" target="e"/>
            </state>
            <state id="e"/>
            """
        )
        try machine.start()
        try machine.send("t")
        #expect(machine.activeAtomicStates == ["e"])
        #expect(
            machine.trace == [
                "event:t", "exit:a", "enter:b", "log:entered b", "event:r1", "exit:b", "enter:c", "event:r2",
                "exit:c", "enter:d", "event:r3", "exit:d", "enter:e",
            ]
        )
    }

    @Test("Parallel regions: the first transition in document order wins a conflict")
    func conflictDocumentOrder() throws {
        let leaving = try chart(
            """
            <parallel id="p">
              <state id="r1"><transition event="t" target="out"/></state>
              <state id="r2" initial="a2"><state id="a2"><transition event="t" target="b2"/></state><state id="b2"/></state>
            </parallel>
            <state id="out"/>
            """
        )
        try leaving.start()
        try leaving.send("t")
        // Both are selected (r1 is atomic; a2 is inner in r2); a2 → b2 is not a
        // descendant of r1, and its exit set meets that of r1 → out, which came first.
        #expect(leaving.activeAtomicStates == ["out"])

        let staying = try chart(
            """
            <parallel id="p">
              <state id="r1" initial="a1"><state id="a1"><transition event="t" target="b1"/></state><state id="b1"/></state>
              <state id="r2" initial="a2"><state id="a2"><transition event="t" target="out"/></state></state>
            </parallel>
            <state id="out"/>
            """
        )
        try staying.start()
        try staying.send("t")
        #expect(staying.activeAtomicStates == ["b1", "a2"])

        let both = try chart(
            """
            <parallel id="p">
              <state id="r1" initial="a1"><state id="a1"><transition event="t" target="b1"/></state><state id="b1"/></state>
              <state id="r2" initial="a2"><state id="a2"><transition event="t" target="b2"/></state><state id="b2"/></state>
            </parallel>
            """
        )
        try both.start()
        try both.send("t")
        #expect(both.activeAtomicStates == ["b1", "b2"])
    }

    @Test("A transition whose source is a descendant preempts its ancestor's")
    func descendantPreempts() throws {
        let machine = try chart(
            """
            <parallel id="p">
              <transition event="t" target="out"/>
              <state id="r1"/>
              <state id="r2" initial="a2"><state id="a2"><transition event="t" target="b2"/></state><state id="b2"/></state>
            </parallel>
            <state id="out"/>
            """
        )
        try machine.start()
        try machine.send("t")
        #expect(machine.activeAtomicStates == ["r1", "b2"])
    }

    @Test("Regions are exited in reverse document order and entered in document order")
    func regionOrder() throws {
        let machine = try chart(
            """
            <parallel id="p">
              <state id="r1"/>
              <state id="r2"/>
              <transition event="t" target="q"/>
            </parallel>
            <state id="q"/>
            """
        )
        try machine.start()
        #expect(machine.trace == ["enter:p", "enter:r1", "enter:r2"])
        try machine.send("t")
        #expect(machine.trace == ["event:t", "exit:r2", "exit:r1", "exit:p", "enter:q"])
    }

    @Test("type=internal keeps the source; targetless transitions exit nothing")
    func internalAndTargetless() throws {
        let machine = try chart(
            """
            <state id="s" initial="a">
              <transition event="in" type="internal" target="b"/>
              <transition event="ex" target="b"/>
              <transition event="none"><raise event="back"/></transition>
              <transition event="back" target="a"/>
              <state id="a"/>
              <state id="b"/>
            </state>
            """
        )
        try machine.start()
        try machine.send("in")
        #expect(machine.trace == ["event:in", "exit:a", "enter:b"])
        try machine.send("ex")
        #expect(machine.trace == ["event:ex", "exit:b", "exit:s", "enter:s", "enter:b"])
        try machine.send("none")
        #expect(machine.trace == ["event:none", "event:back", "exit:b", "exit:s", "enter:s", "enter:a"])
    }

    @Test("Shallow and deep history restore the last configuration, defaults the first time")
    func history() throws {
        let machine = try chart(
            """
            <state id="s" initial="sh">
              <history id="sh" type="shallow"><transition target="s2"/></history>
              <history id="dh" type="deep"><transition target="s1"/></history>
              <transition event="leave" target="out"/>
              <state id="s1" initial="s11">
                <state id="s11"><transition event="next" target="s12"/></state>
                <state id="s12"/>
              </state>
              <state id="s2"><transition event="to1" target="s1"/></state>
            </state>
            <state id="out">
              <transition event="shallow" target="sh"/>
              <transition event="deep" target="dh"/>
            </state>
            """,
            initial: "s"
        )
        try machine.start()
        #expect(machine.activeAtomicStates == ["s2"])  // the shallow history's default
        try machine.send("to1")
        try machine.send("next")
        #expect(machine.activeAtomicStates == ["s12"])
        try machine.send("leave")
        try machine.send("shallow")
        #expect(machine.activeAtomicStates == ["s11"])  // s1 restored, entered by default
        try machine.send("next")
        try machine.send("leave")
        try machine.send("deep")
        #expect(machine.activeAtomicStates == ["s12"])  // s1/s12 restored
    }

    @Test("Deep history with no stored value takes its default transition")
    func historyDefault() throws {
        let machine = try chart(
            """
            <state id="out"><transition event="t" target="h"/></state>
            <state id="s">
              <history id="h" type="deep"><transition target="b"><raise event="defaulted"/></transition></history>
              <state id="a"/>
              <state id="b"><transition event="defaulted" target="c"/></state>
              <state id="c"/>
            </state>
            """
        )
        try machine.start()
        try machine.send("t")
        #expect(machine.activeAtomicStates == ["c"])
    }

    @Test("Final states raise done.state events; a parallel state is done when all its regions are")
    func finalStates() throws {
        let machine = try chart(
            """
            <parallel id="p">
              <transition event="done.state.p" target="after"/>
              <state id="r1" initial="a1">
                <state id="a1"><transition event="f1" target="f1"/></state>
                <final id="f1"/>
              </state>
              <state id="r2" initial="a2">
                <state id="a2"><transition event="f2" target="f2"/></state>
                <final id="f2"/>
                <transition event="done.state.r2"><raise event="r2done"/></transition>
              </state>
            </parallel>
            <state id="after"><transition event="end" target="fin"/></state>
            <final id="fin"/>
            """
        )
        try machine.start()
        try machine.send("f2")
        #expect(machine.activeAtomicStates == ["a1", "f2"])
        #expect(machine.trace.contains("event:done.state.r2"))
        try machine.send("f1")
        #expect(machine.activeAtomicStates == ["after"])
        #expect(machine.trace.contains("event:done.state.p"))
        #expect(machine.isRunning)
        try machine.send("end")
        #expect(machine.activeAtomicStates == ["fin"])
        #expect(!machine.isRunning)
        #expect(machine.isDone)
        try machine.send("anything")
        #expect(machine.activeAtomicStates == ["fin"])
    }

    @Test("The loop guard stops a machine whose eventless transitions never settle and names the cycle")
    func loopGuard() throws {
        let machine = SCXMLInterpreter(
            document: try SCXMLDocument(
                xml: """
                    <scxml initial="idle">
                      <state id="idle"><transition event="go" target="a"/></state>
                      <state id="a"><transition target="b"/></state>
                      <state id="b"><transition target="a"/></state>
                    </scxml>
                    """
            ),
            options: scxmlOptions(maxMicrosteps: 50)
        )
        try machine.start()
        #expect(machine.activeAtomicStates == ["idle"])
        #expect(throws: StatechartError.eventlessLoop(limit: 50, cycle: ["a --> b", "b --> a"])) {
            try machine.send("go")
        }
        #expect(!machine.isRunning)

        let raising = try chart(
            """
            <state id="a"><transition event="ping" type="internal"><raise event="ping"/></transition></state>
            """
        )
        try raising.start()
        #expect(throws: StatechartError.eventlessLoop(limit: 1000, cycle: ["a --> a"])) { try raising.send("ping") }
    }
}

/// A bare `&` or `<` in a script or an attribute: XML's own message, and how to write it.
@Suite("SCXML: malformed XML from a bare & or <")
struct EscapingHintTests {
    static func error(_ xml: String) -> String {
        do {
            _ = try SCXMLDocument(xml: xml)
            return "loaded"
        } catch {
            return error.description
        }
    }

    @Test(
        "the message says to write &amp; or &lt;, and CDATA for the text of a script",
        arguments: [
            (
                "<scxml>\n  <state id=\"a\"><onentry>\n    <script>if (a && b) x = 1;</script>\n  </onentry></state>\n</scxml>",
                "line 3, column 20: malformed XML: a name is required here; a bare '&' must be written '&amp;' (or put the text of <script> in <![CDATA[ ... ]]>)"
            ),
            (
                "<scxml>\n  <state id=\"a\"><onentry>\n    <script>if (a < b) x = 1;</script>\n  </onentry></state>\n</scxml>",
                "line 3, column 20: malformed XML: a name is required here; a '<' that is not a tag must be written '&lt;' (or put the text of <script> in <![CDATA[ ... ]]>)"
            ),
            (
                "<scxml>\n  <state id=\"a\">\n    <transition cond=\"a && b\"/>\n  </state>\n</scxml>",
                "line 3, column 26: malformed XML: a name is required here; a bare '&' must be written '&amp;'"
            ),
            (
                "<scxml>\n  <state id=\"a\">\n    <transition cond=\"a < b\"/>\n  </state>\n</scxml>",
                "line 3, column 25: malformed XML: '<' is not allowed in an attribute value; a '<' that is not a tag must be written '&lt;'"
            ),
        ]
    )
    func hints(xml: String, message: String) {
        #expect(Self.error(xml) == message)
    }

    @Test("other XML errors get no such hint")
    func noHint() {
        #expect(
            Self.error("<scxml>\n  <state id=\"a\">\n</scxml>\n")
                == "line 3, column 9: malformed XML: an end tag does not match its start tag"
        )
        #expect(
            !Self.error("<scxml>\n  <state id=\"a\"><onentry><log expr=\"&amp;x;\"/></onentry></state>\n</scxml>")
                .contains("&amp;'")
        )
    }
}
