import Foundation
import StateMachineHierarchy
import StateMachineSCXML
import Testing

// Inputs that once trapped or hung: bytes FoundationXML could not take, documents nested
// too deep, an `after` too long for nanoseconds, an empty `initial`, and charts that keep
// feeding themselves through their queue. Each gets a clear error or a bounded answer.

@Suite("Limits and hostile input")
struct LimitTests {
    typealias Chart = Statechart<String, String, Int>

    static let badBytes: [(String, [UInt8], SCXMLError)] = [
        (
            "invalid UTF-8 in an attribute name", Array("<scxml ".utf8) + [0xE9] + Array("=\"x\"/>".utf8),
            .malformedXML(line: 1, column: 8, reason: "the document is not valid UTF-8 here")
        ),
        (
            "invalid UTF-8 in a comment", Array("<!--".utf8) + [0xFF] + Array("--><scxml/>".utf8),
            .malformedXML(line: 1, column: 5, reason: "the document is not valid UTF-8 here")
        ),
        (
            "invalid UTF-8 in a processing instruction", Array("<?".utf8) + [0xE9] + Array("?><scxml/>".utf8),
            .malformedXML(line: 1, column: 3, reason: "the document is not valid UTF-8 here")
        ),
        (
            "an overlong encoding", Array("<scxml>\n".utf8) + [0xC0, 0xAF] + Array("</scxml>".utf8),
            .malformedXML(line: 2, column: 1, reason: "the document is not valid UTF-8 here")
        ),
    ]

    @Test("Bytes FoundationXML traps on are refused with the line and column", arguments: badBytes)
    func refusesBadBytes(what: String, bytes: [UInt8], expected: SCXMLError) {
        do {
            _ = try SCXMLDocument(data: Data(bytes))
            Issue.record("\(what): loaded")
        } catch {
            #expect(error == expected, "\(what)")
        }
    }

    @Test("Processing instructions (with or without data) are ignored; the XML declaration stays")
    func processingInstructions() throws {
        for text in [
            "<?foo?><scxml><state id=\"a\"/></scxml>",
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<?foo bar?>\n<scxml>\n<?x?><state id=\"a\"/></scxml>",
            "\u{FEFF}<?xml version=\"1.0\"?><scxml><state id=\"a\"/><!-- <?not a pi?> --></scxml>",
            "<scxml><state id=\"a\"/><?unclosed</scxml>",
        ] {
            let document = try SCXMLDocument(xml: text)
            #expect(document.stateIDs == ["a"], "\(text)")
        }
        // Lines still count from the original text.
        #expect(
            scxmlLoadError("<?foo?>\n<scxml>\n<script/></scxml>")
                == .needsDataModel(element: "script", attribute: nil, line: 3)
        )
    }

    @Test("10,000 nested states are refused with an error, not a stack overflow")
    func deepSCXML() {
        let depth = 10_000
        var text = "<scxml>"
        for level in 0..<depth { text += "<state id=\"s\(level)\">" }
        text += String(repeating: "</state>", count: depth) + "</scxml>"
        #expect(
            scxmlLoadError(text)
                == .invalidStructure(reason: "elements nest more than \(SCXMLDocument.maxElementDepth) deep", line: 1)
        )
    }

    @Test("States nested to the limit load and run; one more level is refused")
    func nestingLimit() throws {
        func nested(_ depth: Int) -> String {
            var text = "<scxml>"
            for level in 0..<depth { text += "<state id=\"s\(level)\">" }
            text += "<transition event=\"t\" target=\"s0\"/>"
            return text + String(repeating: "</state>", count: depth) + "</scxml>"
        }
        let limit = StatechartLimits.maxNestingDepth
        let machine = SCXMLInterpreter(document: try SCXMLDocument(xml: nested(limit)))
        try machine.start()
        #expect(machine.activeAtomicStates == ["s\(limit - 1)"])
        try machine.send("t")
        #expect(machine.activeStates.count == limit)
        guard case .invalidStructure(let reason, _)? = scxmlLoadError(nested(limit + 1)) else {
            Issue.record("expected a load error")
            return
        }
        #expect(reason.contains("States nest more than \(limit) deep"))
    }

    @Test("A typed chart nested past the limit is refused")
    func typedNesting() {
        var element = Chart.State("leaf")
        for level in 0..<StatechartLimits.maxNestingDepth { element = Chart.State("s\(level)") { element } }
        let innermost = element
        #expect(throws: StatechartError.self) { _ = try Chart(name: "deep") { innermost } }
    }

    @Test("JSON: 'after' seconds too long for nanoseconds is an error naming the path")
    func hugeAfter() throws {
        for seconds in ["9.3e9", "1e300"] {
            let json = """
                {"name": "main", "states": [{"name": "a"}, {"name": "b"}],
                 "transitions": [{"type": "after", "seconds": \(seconds), "source": "a", "target": "b"}]}
                """
            #expect(throws: StatechartError.self) { _ = try Chart.definition(fromJSON: Data(json.utf8)) }
            do {
                _ = try Chart.definition(fromJSON: Data(json.utf8))
            } catch {
                #expect("\(error)".contains("$.transitions[0].seconds"))
            }
        }
    }

    @Test("An empty initial attribute is a load error naming the element and line")
    func emptyInitial() {
        #expect(
            scxmlLoadError("<scxml initial=\"\"><state id=\"a\"/></scxml>")
                == .unsupportedValue(element: "scxml", attribute: "initial", value: "", line: 1)
        )
        #expect(
            scxmlLoadError("<scxml>\n<state id=\"a\" initial=\" \"><state id=\"b\"/></state></scxml>")
                == .unsupportedValue(element: "state", attribute: "initial", value: " ", line: 2)
        )
    }

    @Test("A <send> loop through the external queue stops at the limit and names the cycle; start returns")
    func sendLoop() throws {
        var options = StatechartOptions.scxml
        options.maxSelfFedSteps = 50
        let machine = SCXMLInterpreter(
            document: try scxmlDocument(
                """
                <state id="ping"><onentry><send event="go"/></onentry><transition event="go" target="pong"/></state>
                <state id="pong"><onentry><send event="go" delay="0s"/></onentry><transition event="go" target="ping"/></state>
                """
            ),
            options: options,
            clock: ManualStatechartClock()
        )
        #expect(throws: StatechartError.selfFeedingLoop(limit: 50, cycle: ["go"])) { try machine.start() }
        #expect(!machine.isRunning)
        #expect(try machine.snapshot().scxml?.sends.isEmpty == true)
    }

    @Test("A typed chart raising behind its queue forever is halted; handle throws the loop")
    func raiseLoop() throws {
        var options = StatechartOptions()
        options.maxSelfFedSteps = 100
        let chart = try Chart(name: "main", options: options) {
            Chart.State("idle").on("kick", to: "a")
            Chart.State("a").on("go", to: "b").onEnter { $0.raise("go") }
            Chart.State("b").on("go", to: "a").onEnter { $0.raise("go") }
        }
        chart.start()
        #expect(throws: StatechartError.selfFeedingLoop(limit: 100, cycle: ["go"])) { try chart.handle("kick") }
        #expect(!chart.isRunning)
        #expect(chart.activeStates.isEmpty)
        chart.start()  // a halted chart starts afresh
        #expect(chart.activeStates == ["idle"])
    }

    @Test("Steps fed from outside never count toward the limit")
    func outsideEventsReset() throws {
        var options = StatechartOptions()
        options.maxSelfFedSteps = 3
        let chart = try Chart(name: "main", options: options) {
            Chart.State("a").on("t", to: "b")
            Chart.State("b").on("t", to: "a")
        }
        chart.start()
        for _ in 0..<100 { #expect(try chart.handle("t") == .handled) }
    }
}

@Suite("State names and paths")
struct StateNameTests {
    typealias Chart = Statechart<String, String, Int>

    @Test(
        "A state name with '/' or '@' is refused: its path would name another state",
        arguments: ["s@", "a/b", "x@1"]
    )
    func separators(name: String) {
        #expect(throws: StatechartError.self) { _ = try Chart(name: "main") { Chart.State(name) } }
        guard case .invalidStructure(let reason, _)? = scxmlLoadError("<scxml><state id=\"\(name)\"/></scxml>") else {
            Issue.record("the SCXML document loaded")
            return
        }
        #expect(reason.contains("may not contain '/' or '@'"))
    }
}

@Suite("Pending sends are bounded")
struct PendingSendLimitTests {
    @Test("Past StatechartLimits.maxPendingSends a delayed send raises error.execution instead of waiting")
    func cap() throws {
        let machine = SCXMLInterpreter(
            document: try scxmlDocument(
                """
                <state id="a">
                  <onentry><send event="later" delay="3600s"/></onentry>
                  <transition event="again" target="a"/>
                  <transition event="error.execution" target="full"/>
                </state>
                <state id="full"/>
                """
            ),
            clock: ManualStatechartClock()
        )
        try machine.start()
        for _ in 1..<StatechartLimits.maxPendingSends { try machine.send("again") }
        #expect(try machine.snapshot().scxml?.sends.count == StatechartLimits.maxPendingSends)
        #expect(machine.activeAtomicStates == ["a"])
        try machine.send("again")
        #expect(machine.activeAtomicStates == ["full"])
        #expect(try machine.snapshot().scxml?.sends.count == StatechartLimits.maxPendingSends)
    }
}
