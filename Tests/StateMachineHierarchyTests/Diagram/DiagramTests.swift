import StateMachineHierarchy
import StateMachineSCXML
import Testing

/// `mermaid()` and `dot()` on both runtimes, compared with the whole expected text.
@Suite("Diagrams")
struct DiagramTests {
    typealias Chart = Statechart<String, String, Int>

    /// A composite state with an explicit initial state, a named and an unnamed guard, and
    /// an internal transition.
    static func door() throws -> Chart {
        try Chart(name: "door") {
            Chart.State("closed").on("open", to: "opened", guard: { _ in true }, guardName: "unlocked")
            Chart.State("opened", initial: "wide") {
                Chart.State("ajar").on("push", to: "wide")
                Chart.State("wide").on("close", to: "closed", guard: { _ in true })
            }
            .onInternal("creak")
        }
    }

    @Test("Mermaid: nesting, initial markers, guard names, [guard] for an unnamed guard, loops")
    func mermaidNesting() throws {
        #expect(
            try Self.door().mermaid() == """
                stateDiagram-v2
                    closed
                    state opened {
                        ajar
                        wide
                        [*] --> wide
                        ajar --> wide : push
                    }
                    [*] --> closed
                    closed --> opened : open [unlocked]
                    opened --> opened : creak
                    wide --> closed : close [guard]

                """
        )
    }

    @Test("DOT: clusters with an anchor node, initial points, arrows clipped to clusters (a loop on a cluster too)")
    func dotNesting() throws {
        #expect(
            try Self.door().dot() == """
                digraph "door" {
                    compound=true;
                    fontname="Helvetica";
                    node [shape=box, style=rounded, fontname="Helvetica", fontsize=11];
                    edge [fontname="Helvetica", fontsize=9];
                    "closed";
                    subgraph "cluster_0" {
                        label="opened";
                        "opened" [shape=point, style=invis];
                        "ajar";
                        "wide";
                        "[*]0" [shape=point, width=0.15, label=""];
                        "[*]0" -> "wide";
                        "ajar" -> "wide" [label=" push "];
                    }
                    "[*]1" [shape=point, width=0.15, label=""];
                    "[*]1" -> "closed";
                    "closed" -> "opened" [label=" open [unlocked] ", lhead="cluster_0"];
                    "opened~0" [shape=point, style=invis, width=0.01, height=0.01];
                    "opened" -> "opened~0" [label=" creak ", ltail="cluster_0", arrowhead=none];
                    "opened~0" -> "opened" [lhead="cluster_0"];
                    "wide" -> "closed" [label=" close [guard] "];
                }

                """
        )
    }

    @Test("The README's example: a named guard and an unnamed one")
    func readmeExample() throws {
        typealias Door = Statechart<String, String, String>
        let door = try Door(name: "door") {
            Door.State("closed").on("open", to: "opened", guard: { $0.payload == "key" }, guardName: "hasKey")
            Door.State("opened").on("close", to: "closed", guard: { _ in true })
        }
        #expect(
            door.mermaid() == """
                stateDiagram-v2
                    closed
                    opened
                    [*] --> closed
                    closed --> opened : open [hasKey]
                    opened --> closed : close [guard]

                """
        )
        door.start()
        #expect(try door.handle("open", payload: "crowbar") == .unhandled)
        #expect(try door.handle("open", payload: "key") == .handled)
    }

    @Test(
        "naming(action:guard:) labels a transition with its action's and guard's names; an unnamed action is 'action'"
    )
    func namedActions() throws {
        let lamp = try Chart(name: "lamp") {
            Chart.State("off")
                .after(.seconds(1), to: "on", action: { _ in }, guard: { _ in true })
                .naming(action: "blink", guard: "ready")
            Chart.State("on").on("switch", to: "off", action: { _ in })
        }
        let text = lamp.mermaid()
        #expect(text.contains("off --> on : after 1s [ready] / blink"), "\(text)")
        #expect(text.contains("on --> off : switch / action"), "\(text)")
    }

    /// A parallel state whose ids need escaping: dots, spaces, a dash, a quote, a keyword.
    static func escaped() throws -> Chart {
        try Chart(name: #"a "quoted" chart"#) {
            Chart.State(parallel: "p.q") {
                Chart.Region {
                    Chart.State("two words").on("go-on", to: "x-1")
                    Chart.State("x-1")
                }
                Chart.Region {
                    Chart.State("state").on("say;", to: #"say "hi""#)
                    Chart.State(#"say "hi""#)
                }
            }
        }
    }

    @Test("Mermaid: parallel regions separated by --, ids aliased with their real names")
    func mermaidParallelAndEscaping() throws {
        #expect(
            try Self.escaped().mermaid() == """
                stateDiagram-v2
                    state "p.q" as p_q
                    state p_q {
                        state "two words" as two_words
                        state "x-1" as x_1
                        [*] --> two_words
                        two_words --> x_1 : go-on
                        --
                        state "state" as state_2
                        state "say #quot;hi#quot;" as say__hi_
                        [*] --> state_2
                        state_2 --> say__hi_ : say#59;
                    }
                    [*] --> p_q

                """
        )
    }

    @Test("DOT: a parallel state's regions as dashed clusters, every id a quoted string")
    func dotParallelAndEscaping() throws {
        #expect(
            try Self.escaped().dot() == #"""
                digraph "a \"quoted\" chart" {
                    compound=true;
                    fontname="Helvetica";
                    node [shape=box, style=rounded, fontname="Helvetica", fontsize=11];
                    edge [fontname="Helvetica", fontsize=9];
                    subgraph "cluster_0" {
                        label="p.q";
                        "p.q" [shape=point, style=invis];
                        subgraph "cluster_1" {
                            label="";
                            style=dashed;
                            "two words";
                            "x-1";
                            "[*]0" [shape=point, width=0.15, label=""];
                            "[*]0" -> "two words";
                            "two words" -> "x-1" [label=" go-on "];
                        }
                        subgraph "cluster_2" {
                            label="";
                            style=dashed;
                            "state";
                            "say \"hi\"";
                            "[*]1" [shape=point, width=0.15, label=""];
                            "[*]1" -> "state";
                            "state" -> "say \"hi\"" [label=" say; "];
                        }
                    }
                    "[*]2" [shape=point, width=0.15, label=""];
                    "[*]2" -> "p.q" [lhead="cluster_0"];
                }

                """#
        )
    }

    @Test("Mermaid: forks, joins and junctions as <<fork>>, <<join>> and <<choice>> states")
    func mermaidPseudoStates() throws {
        let chart = try Chart(name: "pseudo") {
            Chart.State("a").on("split", to: .fork("f")).on("pick", to: .junction("j"))
            Chart.State(parallel: "p") {
                Chart.Region { Chart.State("p1").on("done", to: .join("jn")) }
                Chart.Region { Chart.State("p2").on("done", to: .join("jn")) }
            }
            Chart.State("z")
            Chart.Fork("f", region: "p", targets: ["p1", "p2"])
            Chart.Join("jn", region: "p", sources: ["p1", "p2"], target: "z")
            Chart.Junction("j", paths: [.init(to: "z", guard: { _ in true }), .init(to: "a", guard: { _ in false })])
        }
        #expect(
            chart.mermaid() == """
                stateDiagram-v2
                    a
                    state p {
                        p1
                        [*] --> p1
                        --
                        p2
                        [*] --> p2
                    }
                    z
                    state f <<fork>>
                    state jn <<join>>
                    state j <<choice>>
                    [*] --> a
                    a --> f : split
                    a --> j : pick
                    p1 --> jn : done
                    p2 --> jn : done
                    f --> p1
                    f --> p2
                    jn --> z
                    j --> z : [guard]
                    j --> a : [guard]

                """
        )
        #expect(
            chart.dot().contains(#""f" [shape=box, style=filled, fillcolor=black, label="", height=0.1, width=0.8];"#)
        )
        #expect(chart.dot().contains(#""j" [shape=diamond, label="", width=0.3, height=0.3];"#))
        #expect(chart.dot().contains(#""f" -> "p1";"#))
    }

    @Test("A guard named on a JSON definition labels its transition")
    func jsonGuardName() throws {
        typealias JSONChart = Statechart<String, String, Int>
        var definition = try JSONChart.definition(
            fromJSON: """
                {"name": "m", "states": [{"name": "a", "type": "state"}, {"name": "b", "type": "state"}],
                 "transitions": [{"type": "simple", "name": "go", "kind": "external", "source": "a", "target": "b"}]}
                """
        )
        try definition.setGuard(forTransition: "go", named: "isReady") { _ in true }
        let chart = try JSONChart(definition)
        #expect(chart.mermaid().contains("a --> b : go [isReady]\n"))
        chart.start()
        #expect(try chart.handle("go") == .handled)
    }

    /// History, a final state, a parallel state, an `In()` condition, an eventless and a
    /// targetless transition, several events, a deep initial state.
    static let scxml = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" name="t" initial="s">
          <state id="s" initial="s2">
            <history id="h" type="deep"><transition target="s1"/></history>
            <state id="s1"><transition event="a b" cond="In('p')" target="s2"/></state>
            <state id="s2"><transition target="f"/></state>
            <final id="f"/>
            <transition event="done.state.s" target="p"/>
          </state>
          <parallel id="p">
            <state id="r1"><transition event="x"/></state>
            <state id="r2"/>
            <transition event="back" target="h"/>
          </parallel>
        </scxml>
        """

    @Test("SCXML to Mermaid: history as H*, final states, cond as [In('id')], eventless and targetless")
    func scxmlMermaid() throws {
        let document = try SCXMLDocument(xml: Self.scxml)
        #expect(
            document.mermaid() == """
                stateDiagram-v2
                    state s {
                        state "H*" as h
                        s1
                        s2
                        f
                        [*] --> s2
                        h --> s1
                        s1 --> s2 : a b [In('p')]
                        s2 --> f
                        f --> [*]
                    }
                    state p {
                        r1
                        r1 --> r1 : x
                        --
                        r2
                    }
                    [*] --> s
                    s --> p : done.state.s
                    p --> h : back

                """
        )
    }

    @Test("SCXML to DOT: history and final shapes, one dashed cluster per parallel child")
    func scxmlDOT() throws {
        let document = try SCXMLDocument(xml: Self.scxml)
        #expect(
            document.dot() == """
                digraph "t" {
                    compound=true;
                    fontname="Helvetica";
                    node [shape=box, style=rounded, fontname="Helvetica", fontsize=11];
                    edge [fontname="Helvetica", fontsize=9];
                    subgraph "cluster_0" {
                        label="s";
                        "s" [shape=point, style=invis];
                        "h" [shape=circle, label="H*", width=0.3, fixedsize=true];
                        "s1";
                        "s2";
                        "f" [shape=doublecircle, style=filled, fillcolor=black, label="", width=0.12, height=0.12, xlabel="f"];
                        "[*]0" [shape=point, width=0.15, label=""];
                        "[*]0" -> "s2";
                        "h" -> "s1";
                        "s1" -> "s2" [label=" a b [In('p')] "];
                        "s2" -> "f";
                    }
                    subgraph "cluster_1" {
                        label="p";
                        "p" [shape=point, style=invis];
                        subgraph "cluster_2" {
                            label="";
                            style=dashed;
                            "r1";
                            "r1" -> "r1" [label=" x "];
                        }
                        subgraph "cluster_3" {
                            label="";
                            style=dashed;
                            "r2";
                        }
                    }
                    "[*]1" [shape=point, width=0.15, label=""];
                    "[*]1" -> "s" [lhead="cluster_0"];
                    "s" -> "p" [label=" done.state.s ", ltail="cluster_0", lhead="cluster_1"];
                    "p" -> "h" [label=" back ", ltail="cluster_1"];
                }

                """
        )
    }

    @Test("SCXML: shallow history is H; dotted and dashed ids are aliased in Mermaid")
    func scxmlShallowHistoryAndDots() throws {
        let document = try SCXMLDocument(
            xml: """
                <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
                  <state id="a.b">
                    <history id="a-h"><transition target="a.b.c"/></history>
                    <state id="a.b.c"><transition event="go.on" target="a-h"/></state>
                  </state>
                </scxml>
                """
        )
        #expect(
            document.mermaid() == """
                stateDiagram-v2
                    state "a.b" as a_b
                    state a_b {
                        state "H" as a_h
                        state "a.b.c" as a_b_c
                        [*] --> a_b_c
                        a_h --> a_b_c
                        a_b_c --> a_h : go.on
                    }
                    [*] --> a_b

                """
        )
    }
}

/// The queries the `statechart` tool completes events with.
@Suite("Accepted events")
struct AcceptedEventsTests {
    typealias Chart = Statechart<String, String, Int>

    @Test("Statechart: every state, every event, and the events the active states handle")
    func statechart() throws {
        let chart = try Chart(name: "m") {
            Chart.State("a") {
                Chart.State("a1").on("next", to: "a2")
                Chart.State("a2").on("back", to: "a1", guard: { _ in false })
            }
            .on("leave", to: "b")
            Chart.State("b").on("enter", to: "a")
        }
        #expect(chart.states == ["a", "a1", "a2", "b"])
        #expect(chart.events == ["leave", "next", "back", "enter"])
        #expect(chart.acceptedEvents == [])
        chart.start()
        #expect(chart.acceptedEvents == ["leave", "next"])
        try chart.handle("next")
        // Guards are not evaluated: 'back' is listed although its guard fails.
        #expect(chart.acceptedEvents == ["leave", "back"])
        try chart.handle("leave")
        #expect(chart.acceptedEvents == ["enter"])
        chart.stop()
        #expect(chart.acceptedEvents == [])
    }

    @Test("SCXML: descriptors of the active states and their ancestors, without '*'")
    func scxml() throws {
        let document = try SCXMLDocument(
            xml: """
                <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
                  <state id="s">
                    <state id="s1"><transition event="t u" target="s2"/></state>
                    <state id="s2"><transition event="*" target="f"/></state>
                    <transition event="t" target="s1"/>
                  </state>
                  <final id="f"/>
                </scxml>
                """
        )
        #expect(document.events == ["t", "u"])
        let machine = SCXMLInterpreter(document: document)
        #expect(machine.acceptedEvents == [])
        try machine.start()
        #expect(machine.acceptedEvents == ["t", "u"])
        try machine.send("u")
        #expect(machine.acceptedEvents == ["t"])
        try machine.send("anything")
        #expect(machine.isDone)
        #expect(machine.acceptedEvents == [])
    }
}
