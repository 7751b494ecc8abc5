import Foundation
import StateMachineECMAScript
import StateMachineHierarchy
import StateMachineSCXML
import StateMachineSupport
import Testing

// The SCXML export (`SCXMLDocument.export`): what each construct becomes, that the exported
// document runs as the typed chart does under `.scxml`, and that what SCXML cannot express
// is listed (thrown, or in a comment), never dropped.

private typealias Chart = Statechart<String, String, Never>

/// What the typed chart's named blocks ran, as `log:NAME` (the exported `<log>`'s trace line).
private final class Recorder: Sendable {
    private let storage = Lock<[String]>([])

    var entries: [String] { storage.withLock { $0 } }

    func clear() { storage.withLock { $0.removeAll() } }

    func append(_ entry: String) { storage.withLock { $0.append(entry) } }

    /// A block that appends `entry`.
    func record(_ entry: String) -> Chart.Action {
        { _ in self.storage.withLock { $0.append(entry) } }
    }
}

/// A chart with one of each construct the export writes, its blocks named and recording
/// their names in `log` (as the exported `<log label>`s record theirs in the trace).
private func everything(_ log: Recorder, guardHolds: Bool) -> Chart.Definition {
    Chart.Definition(name: "everything") {
        Chart.State("idle")
            .onEnter(named: "greet", log.record("log:greet"))
            .on("go", to: "work")
            .on("finish", to: "done")
        Chart.State("work", initial: "b") {
            Chart.State("a")
                .after(.milliseconds(1500), to: "b", action: log.record("log:tick")).naming(action: "tick")
            Chart.State("b")
                .on("next", to: "a", guard: { _ in guardHolds }, guardName: "ready")
                .onInternal("poke", action: log.record("log:poked")).naming(action: "poked")
            Chart.State(final: "end")
        }
        .history("back", .deep, default: "a")
        .onExit(named: "leave", log.record("log:leave"))
        .on("reset", to: "a", kind: .local)
        .on("stop", to: "end")
        .onDone(to: "panel")
        Chart.State(parallel: "panel") {
            Chart.Region { Chart.State("left") }
            Chart.Region {
                Chart.State("up").always(to: "down", guard: { _ in guardHolds }).naming(guard: "ready")
                Chart.State("down")
            }
        }
        .on("back", to: .history("back"))
        Chart.State(final: "done")
    }
}

/// The exits, entries and logs of the session's last macrostep.
private func steps(_ machine: SCXMLInterpreter) -> [String] {
    machine.trace.filter { !$0.hasPrefix("event:") }
}

@Suite("SCXML export")
struct SCXMLExportTests {
    @Test("Every construct is written as SCXML has it")
    func elements() throws {
        let text = try SCXMLDocument.export(everything(Recorder(), guardHolds: true))
        for line in [
            #"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" name="everything" datamodel="ecmascript">"#,
            #"<data id="guards">{"ready": true}</data>"#,
            #"<script>function guard(name) { return guards[name] === true; }</script>"#,
            #"<onentry><log label="greet"/></onentry>"#,
            #"<state id="work" initial="b">"#,
            #"<onexit><log label="leave"/></onexit>"#,
            #"<transition event="reset" target="a" type="internal"/>"#,
            #"<transition event="done.state.work" target="panel"/>"#,
            #"<history id="back" type="deep"><transition target="a"/></history>"#,
            #"<onentry><send event="after.a.0" delay="1.5s" id="after.a.0"/></onentry>"#,
            #"<onexit><cancel sendid="after.a.0"/></onexit>"#,
            #"<transition event="after.a.0" target="b"><log label="tick"/></transition>"#,
            #"<transition event="next" cond="guard('ready')" target="a"/>"#,
            #"<transition event="poke"><log label="poked"/></transition>"#,
            #"<final id="end"/>"#,
            #"<parallel id="panel">"#,
            #"<transition cond="guard('ready')" target="down"/>"#,
            #"<transition event="back" target="back"/>"#,
        ] {
            #expect(text.contains(line), "missing \(line) in\n\(text)")
        }
    }

    @Test("The exported document steps as the typed chart does under .scxml", arguments: [true, false])
    func sameSteps(guardHolds: Bool) throws {
        let log = Recorder()
        let definition = everything(log, guardHolds: guardHolds)
        let text = try SCXMLDocument.export(definition, options: SCXMLExportOptions(guardValues: ["ready": guardHolds]))
        let typedClock = ManualStatechartClock()
        let typed = try Chart(definition, options: .scxml, clock: typedClock)
        let clock = ManualStatechartClock()
        let exported = Recorder()
        let machine = SCXMLInterpreter(
            document: try SCXMLDocument(xml: text, dataModel: .ecmascript),
            clock: clock,
            recordsTrace: true,
            onMacrostep: { trace in
                for line in trace where line.hasPrefix("log:") { exported.append(line) }
            }
        )
        // The configuration without the state the export adds for the panel's second region.
        func configuration() -> Set<String> { Set(machine.activeStates).subtracting(["panel.region1"]) }
        typed.start()
        try machine.start()
        #expect(Set(typed.activeStates) == configuration())
        #expect(log.entries == exported.entries)
        for step in ["go", "wait", "next", "poke", "wait", "reset", "stop", "back", "wait", "stop"] {
            log.clear()
            exported.clear()
            if step == "wait" {
                typedClock.advance(by: .seconds(2))
                clock.advance(by: .seconds(2))
            } else {
                _ = try typed.handle(step)
                try machine.send(step)
            }
            #expect(Set(typed.activeStates) == configuration(), "after \(step)")
            #expect(log.entries == exported.entries, "after \(step)")
        }
        #expect(configuration().contains(guardHolds ? "down" : "up"))
    }

    @Test("What SCXML cannot express is thrown, each part with where it is")
    func unexpressible() throws {
        let definition = Chart.Definition(name: "limits") {
            Chart.State("a")
                .onEnter { _ in }
                .on("x", to: "b", guard: { _ in true })
                .on("y", to: "b", action: { _ in })
                .on("z", to: .join("j"))
                .on("w", to: .junction("k"))
                .deferring("later")
                .task { _ in nil }
            Chart.State("b") {
                Chart.State("b1")
            }
            .on("again", to: "b", kind: .local)
            .after(.seconds(1), to: "a")
            .on("*", to: "a")
            Chart.State(parallel: "p") {
                Chart.Region { Chart.State("p1").on("q", to: .join("j")) }
                Chart.Region { Chart.State("p2").on("q", to: .join("j")) }
            }
            Chart.Join("j", region: "p", sources: ["p1", "p2"], target: "a")
            Chart.Junction("k", paths: [Chart.Junction.Path(to: "b", guard: { _ in true })])
            Chart.State("has space")
        }
        #expect(throws: SCXMLExportError.self) { try SCXMLDocument.export(definition) }
        do {
            _ = try SCXMLDocument.export(definition)
        } catch {
            let issues = error.issues.map(\.description)
            for expected in [
                "a: the enter block is left out: it has no name",
                "a: the transition on 'x' is left out: its guard has no name",
                "a: the action of the transition on 'y' is left out: it has no name",
                "a: the transition on 'z' is left out: it targets the join 'j', and SCXML has no join",
                "a: the transition on 'w' is left out: it targets the junction 'k', and SCXML has no junction",
                "a: the deferred events 'later' are left out: SCXML has no deferral",
                "a: the state's task is left out",
                "b: the transition on 'again' is left out: it is local",
                "b: the descriptor '*' would also match the event 'after.b.0'",
                "has space: the state name 'has space' is not an XML identifier",
                "limits: the join 'j' is left out",
                "limits: the junction 'k' is left out",
            ] {
                #expect(issues.contains { $0.hasPrefix(expected) }, "no issue '\(expected)' in \(issues)")
            }
        }
    }

    @Test("With .comment the document is written without them, listed at its top, and loads")
    func commented() throws {
        let definition = Chart.Definition(name: "limits") {
            Chart.State("a").on("x", to: "b", guard: { _ in true }).deferring("later")
            Chart.State("b")
        }
        let text = try SCXMLDocument.export(definition, options: SCXMLExportOptions(unexpressible: .comment))
        #expect(text.contains("<!-- Not exported (SCXML cannot express them):"))
        #expect(text.contains("     a: the transition on 'x' is left out: its guard has no name"))
        #expect(text.contains("     a: the deferred events 'later' are left out"))
        #expect(!text.contains("event=\"x\""))
        _ = try SCXMLDocument(xml: text)
    }

    @Test("A region of several states becomes a state of its own; forks become several targets")
    func regionsAndForks() throws {
        let definition = Chart.Definition(name: "regions") {
            Chart.State("idle").on("split", to: .fork("f"))
            Chart.State(parallel: "p") {
                Chart.Region {
                    Chart.State("a1")
                    Chart.State("a2")
                }
                Chart.Region { Chart.State("b1") }
            }
            Chart.Fork("f", region: "p", targets: ["a2", "b1"])
        }
        let text = try SCXMLDocument.export(definition)
        #expect(text.contains(#"<transition event="split" target="a2 b1"/>"#))
        #expect(text.contains(#"<state id="p.region0">"#))
        let machine = SCXMLInterpreter(document: try SCXMLDocument(xml: text), clock: ManualStatechartClock())
        try machine.start()
        try machine.send("split")
        #expect(Set(machine.activeStates) == ["p", "p.region0", "a2", "b1"])
    }

    @Test("Delays are written exactly, to the nanosecond")
    func delays() throws {
        for (delay, text) in [
            (Duration.seconds(2), "2s"), (.milliseconds(250), "0.25s"), (.nanoseconds(1), "0.000000001s"),
            (.seconds(0), "0s"),
        ] {
            let definition = Chart.Definition(name: "d") {
                Chart.State("a").after(delay, to: "b")
                Chart.State("b")
            }
            #expect(try SCXMLDocument.export(definition).contains("delay=\"\(text)\""))
        }
    }

    @Test("A JSON chart's blocks named by path are exported; a block set again without a name loses it")
    func namedByPath() throws {
        var definition = try Chart.definition(
            fromJSON:
                #"{"name": "j", "states": [{"name": "a", "type": "state"}, {"name": "b", "type": "state"}], "transitions": [{"type": "simple", "name": "go", "kind": "external", "source": "a", "target": "b"}]}"#
        )
        try definition.setAction(forTransition: "go", named: "ring") { _ in }
        try definition.onEnter(at: "b", named: "arrive") { _ in }
        try definition.onExit(at: "a", named: "depart") { _ in }
        let text = try SCXMLDocument.export(definition)
        #expect(text.contains(#"<transition event="go" target="b"><log label="ring"/></transition>"#))
        #expect(text.contains(#"<onentry><log label="arrive"/></onentry>"#))
        #expect(text.contains(#"<onexit><log label="depart"/></onexit>"#))

        try definition.onEnter(at: "b") { _ in }
        #expect(
            throws: SCXMLExportError(issues: [
                .init(
                    path: "b",
                    message:
                        "the enter block is left out: it has no name (give it one with onEnter(named:), onExit(named:) or naming(action:))"
                )
            ])
        ) {
            try SCXMLDocument.export(definition)
        }
    }

    @Test("naming(action:guard:) before any transition fails the chart's compilation, naming the state")
    func misplacedNaming() {
        let definition = Chart.Definition(name: "n") {
            Chart.State("a").naming(action: "x").on("go", to: "b")
            Chart.State("b")
        }
        #expect(throws: StatechartError.self) { try Chart(definition) }
        do {
            _ = try Chart(definition)
        } catch {
            #expect("\(error)".hasPrefix("Invalid transition of 'a': naming(action:guard:)"), "\(error)")
        }
    }
}
