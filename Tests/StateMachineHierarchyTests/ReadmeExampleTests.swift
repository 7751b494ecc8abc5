import CaseStudiesFeatures
import Foundation
import StateMachineHierarchy
import StateMachineSCXML
import TestSupport
import Testing

// What the README's "Statecharts" section claims, checked in detail (debugger lines, error
// texts, the snapshot's JSON). The blocks themselves are compiled verbatim and run in
// Tests/ReadmeTests/Snippets/StatechartSnippets.swift; these tests hold the same charts.

@Suite("README example")
struct ReadmeExampleTests {
    typealias Player = CaseStudiesFeatures.Player

    /// The README's player (the CaseStudies chart), with an enter block on `active` that
    /// logs the payload as the volume.
    static func player(_ log: Recorder) throws -> Player {
        var definition = try makePlayer().definition
        try definition.onEnter(at: "active") { context in log.append("volume \(context.payload ?? 0)") }
        return try Player(definition)
    }

    @Test("the nested example with a parallel region")
    func nestedExample() throws {
        let log = Recorder()
        let player = try Self.player(log)
        let lines = Recorder()
        player.attachDebugger(StatechartDebugSink { lines.append($0) })
        player.start()
        try player.handle("play", payload: 7)
        try player.handle("shuffle")
        #expect(player.activeStates == ["active", "playing", "shuffled"])
        #expect(log.entries == ["volume 7"])
        #expect(
            player.activeStateConfiguration == """
                player
                \tactive
                \t\tactiveSubMachine-0
                \t\t\tplaying
                \t\tactiveSubMachine-1
                \t\t\tshuffled

                """
        )
        lines.clear()
        try player.handle("stop", payload: 3)
        #expect(
            Array(lines.entries.prefix(9)) == [
                "[player]: attempt to handle event 'stop' data: 3",
                "[active] will handle event 'stop' data: 3",
                "[player] performing transition: active --> stopped data: 3",
                "[activeSubMachine-0] teardown data: 3",
                "\tExit 'playing' data: 3",
                "[activeSubMachine-1] teardown data: 3",
                "\tExit 'shuffled' data: 3",
                "\tExit 'active' data: 3",
                "\tEnter 'stopped' data: 3",
            ]
        )
    }

    @Test("the JSON example")
    func jsonExample() throws {
        let json = """
            {
              "name": "door",
              "states": [
                {"name": "closed", "type": "state"},
                {"name": "open", "type": "state"}
              ],
              "transitions": [
                {"type": "simple", "kind": "external", "name": "open", "source": "closed", "target": "open"},
                {"type": "simple", "kind": "external", "name": "close", "source": "open", "target": "closed"}
              ]
            }
            """
        typealias Door = Statechart<String, String, String>
        var definition = try Door.definition(fromJSON: json)
        try definition.setGuard(forTransition: "open") { $0.payload == "key" }
        try definition.onEnter(at: "open") { _ in }
        let door = try Door(definition)
        door.start()
        #expect(try door.handle("open", payload: "crowbar") == .unhandled)
        #expect(try door.handle("open", payload: "key") == .handled)
        #expect(door.activeStates == ["open"])

        let broken =
            #"{"name": "door", "states": [{"name": "closed", "type": "state"}], "transitions": [{"type": "simple", "kind": "sideways", "name": "open", "source": "closed", "target": "opne"}]}"#
        #expect(throws: StatechartError.self) { try Door.definition(fromJSON: broken) }
        do {
            _ = try Door.definition(fromJSON: broken)
        } catch {
            #expect(
                "\(error)" == """
                    Invalid statechart JSON (2 problems):
                      $.transitions[0].kind: unknown transition kind 'sideways' (expected 'external', 'local' or 'internal')
                      $.transitions[0].target: Invalid path 'opne' at component 'opne': region 'door' has no state named 'opne'.
                    """
            )
        }
    }

    typealias Oven = Statechart<String, String, Int>

    @Test("the oven: history, a delayed transition and a done event")
    func ovenExample() throws {
        let clock = ManualStatechartClock()
        let oven = try Oven(name: "oven", clock: clock) {
            Oven.State("idle")
                .on("start", to: "cooking")
                .on("resume", to: .history("cooking.history"))
            Oven.State("cooking") {
                Oven.State("heating").after(.seconds(2), to: "baking")
                Oven.State("baking").on("ding", to: "cooked")
                Oven.State(final: "cooked")
            }
            .history("cooking.history", .deep)
            .onDone(to: "ready")
            .on("open", to: "idle")
            Oven.State("ready")
        }
        oven.start()
        #expect(oven.activeStates == ["idle"])
        try oven.handle("start")
        #expect(oven.activeStates == ["cooking", "heating"])
        clock.advance(by: .seconds(2))
        #expect(oven.activeStates == ["cooking", "baking"])
        try oven.handle("open")
        #expect(oven.activeStates == ["idle"])
        try oven.handle("resume")
        #expect(oven.activeStates == ["cooking", "baking"])
        try oven.handle("ding")
        #expect(oven.activeStates == ["ready"])
    }

    @Test("the one-line examples compile and work")
    func oneLiners() async throws {
        @Sendable func fetch(_ id: Int?) async -> Int { (id ?? 0) * 2 }
        let chart = try Oven(name: "lines") {
            Oven.State("checking").always(to: "ok", guard: { $0.payload ?? 0 < 100 })
                .on("check", to: "checking")
            Oven.State("ok").on("load", to: "loading")
            Oven.State("loading").task { id in Oven.Event("loaded", payload: await fetch(id)) }
                .on("loaded", to: "busy")
            Oven.State("busy").deferring("start").on("done", to: "idle")
            Oven.State("idle").on("start", to: "ok")
        }
        let busy = try chart.subscribe(to: .entered, at: "busy")
        chart.start(payload: 500)
        #expect(chart.activeStates == ["checking"])
        try chart.handle("check", payload: 5)
        #expect(chart.activeStates == ["ok"])
        try chart.handle("load", payload: 21)
        let entered = await within("the task's event") { await busy.first() }
        #expect(entered??.payload == 42)
        #expect(try chart.handle("start") == .deferred)
        try chart.handle("done")
        #expect(chart.activeStates == ["ok"])
    }

    @Test("the SCXML <send>/<cancel> example and its snapshot")
    func sendExample() throws {
        let clock = ManualStatechartClock()
        let document = try SCXMLDocument(
            xml: """
                <scxml initial="idle">
                  <state id="idle"><transition event="ring" target="ringing"/></state>
                  <state id="ringing">
                    <onentry><send id="timeout" event="hangup" delay="30s"/></onentry>
                    <onexit><cancel sendid="timeout"/></onexit>
                    <transition event="answer" target="talking"/>
                    <transition event="hangup" target="idle"/>
                  </state>
                  <state id="talking"><transition event="hangup" target="idle"/></state>
                </scxml>
                """
        )
        let machine = SCXMLInterpreter(document: document, clock: clock)
        try machine.start()
        try machine.send("ring")
        clock.advance(by: .seconds(18))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(machine.snapshot())
        #expect(
            String(decoding: data, as: UTF8.self)
                == #"{"chart":"scxml","configuration":["ringing"],"history":{},"isRunning":true,"joins":{},"#
                + #""scxml":{"generatedSendIDCount":0,"sendIDSlots":{},"#
                + #""sends":[{"event":"hangup","remainingNanoseconds":12000000000,"sendID":"timeout"}]},"timers":[]}"#
        )
        clock.advance(by: .seconds(11))
        #expect(machine.activeAtomicStates == ["ringing"])
        clock.advance(by: .seconds(1))
        #expect(machine.activeAtomicStates == ["idle"])

        let resumedClock = ManualStatechartClock()
        let snapshot = try JSONDecoder().decode(StatechartSnapshot.self, from: data)
        let resumed = try SCXMLInterpreter(document: document, restoring: snapshot, clock: resumedClock)
        try resumed.send("answer")  // <onexit> cancels the timeout
        resumedClock.advance(by: .seconds(60))
        #expect(resumed.activeAtomicStates == ["talking"])
    }
}
