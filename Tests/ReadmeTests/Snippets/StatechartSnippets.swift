// swift-format-ignore-file
// The README's StateMachineHierarchy examples (statecharts and SCXML), verbatim and compiled
// with this test target: ReadmeCodeTests checks that every swift block of the README
// appears in a compiled file. Each function gives a block what it assumes (a `player`, an
// `oven` and its `definition`, a `machine`, a `fetch`); they are all compiled, and the ones
// that need no file, no real time and no definition kept aside are also run by the test at
// the end. Edit the README and this file together.
import CaseStudiesFeatures
import Foundation
import StateMachineHierarchy
import StateMachineSCXML
import Testing

/// "StateMachineHierarchy": the player (its chart is `makePlayer()`, the CaseStudies feature).
@discardableResult
func readmePlayer() throws -> Statechart<String, String, Int> {
    let player = try makePlayer()
    player.start()                        // enters "stopped"
    try player.handle("play", payload: 7) // enters playing and normal
    try player.handle("shuffle")          // only the second region moves
    player.activeStates                   // ["active", "playing", "shuffled"]
    return player
}

/// Subscriptions of the player.
func readmePlayerSubscription(_ player: Statechart<String, String, Int>) async throws {
    try player.state(at: "active@1/shuffled")               // "shuffled"
    let entries = try player.subscribe(to: .entered, at: "active@0/paused")
    for await note in entries { print(note.path, note.payload as Any) }
}

/// The player's debugger.
func readmePlayerDebugger(_ player: Statechart<String, String, Int>) throws {
    player.attachDebugger()                 // or StatechartDebugSink { line in myLogger.log(line) }
    try player.handle("stop", payload: 3)
    print(player.activeStateConfiguration)
}

/// What `Oven.State("loading").task` awaits.
func fetch(_ id: Int?) async -> Int { (id ?? 0) + 1 }

/// "Complete statecharts": the oven.
func readmeOven() throws {
    typealias Oven = Statechart<String, String, Int>

    let clock = ManualStatechartClock()              // for tests; the default is .continuous
    let oven = try Oven(name: "oven", clock: clock) {
        Oven.State("idle")
            .on("start", to: "cooking")
            .on("resume", to: .history("cooking.history"))
        Oven.State("cooking") {
            Oven.State("heating").after(.seconds(2), to: "baking")   // delayed transition
            Oven.State("baking").on("ding", to: "cooked")
            Oven.State(final: "cooked")                              // completes "cooking"
        }
        .history("cooking.history", .deep)                           // or .shallow, default: "baking"
        .onDone(to: "ready")                                         // done.state.cooking
        .on("open", to: "idle")
        Oven.State("ready")
    }

    oven.start()                    // idle
    try oven.handle("start")        // cooking, heating
    clock.advance(by: .seconds(2))  // the timer fires inside advance(by:)
    oven.activeStates               // ["cooking", "baking"]
    try oven.handle("open")         // idle; the history remembers baking
    try oven.handle("resume")       // ["cooking", "baking"]
    try oven.handle("ding")         // cooked is final: done.state.cooking -> ["ready"]
    readmeOvenStates()
}

/// The one-liners beside the oven.
func readmeOvenStates() {
    typealias Oven = Statechart<String, String, Int>
    Oven.State("checking").always(to: "ok", guard: { $0.payload ?? 0 < 100 })  // eventless
    Oven.State("loading").task { id in Oven.Event("loaded", payload: await fetch(id)) }
    Oven.State("busy").deferring("start")                                      // UML deferral
}

/// Snapshots of the oven.
func readmeOvenSnapshot(_ oven: Statechart<String, String, Int>, definition: Statechart<String, String, Int>.Definition) throws {
    typealias Oven = Statechart<String, String, Int>
    let data = try JSONEncoder().encode(oven.snapshot())
    let snapshot = try JSONDecoder().decode(StatechartSnapshot.self, from: data)
    let resumed = try Oven(definition, clock: .continuous, restoring: snapshot)
    _ = resumed
}

/// The JSON door.
func readmeJSONDoor() throws {
    typealias Door = Statechart<String, String, String>

    var definition = try Door.definition(fromJSON: """
        {
          "name": "door",
          "states": [ {"name": "closed", "type": "state"}, {"name": "open", "type": "state"} ],
          "transitions": [
            {"type": "simple", "kind": "external", "name": "open", "source": "closed", "target": "open"},
            {"type": "simple", "kind": "external", "name": "close", "source": "open", "target": "closed"}
          ]
        }
        """)
    try definition.setGuard(forTransition: "open") { $0.payload == "key" }
    try definition.onEnter(at: "open") { _ in print("creak") }
    let door = try Door(definition)
    door.start()
    try door.handle("open", payload: "crowbar") // .unhandled
    try door.handle("open", payload: "key")     // .handled, prints "creak"
}

/// Diagrams: the door with a named guard.
func readmeDiagramDoor() throws {
    typealias Door = Statechart<String, String, String>

    let door = try Door(name: "door") {
        Door.State("closed").on("open", to: "opened", guard: { $0.payload == "key" }, guardName: "hasKey")
        Door.State("opened").on("close", to: "closed", guard: { _ in true })
    }
    print(door.mermaid())
}

/// Pictures and the page that steps through a run; returns the page's file.
func readmePictures() throws -> URL {
    let player = try makePlayer()
    let png = try player.png()          // the picture's bytes; GraphvizError without Graphviz
    try Data(png).write(to: FileManager.default.temporaryDirectory.appendingPathComponent("player.png"))

    let recorder = player.recordTrace() // observes every state until stopped or released
    recorder.start()
    try recorder.handle("play")
    try recorder.handle("shuffle")
    let page = try player.stepThroughPage(recorder.trace)
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("run.html")
    try page.write(to: file, atomically: true, encoding: .utf8)
    return file
}

/// "Loading SCXML".
func readmeLoadSCXML() throws {
    let document = try SCXMLDocument.load(contentsOf: URL(fileURLWithPath: "door.scxml"))
    let machine = SCXMLInterpreter(document: document)   // options: .scxml (default), clock:
    try machine.start()
    try machine.send("open")                             // one macrostep (and those it queued)
    print(machine.activeAtomicStates)                    // e.g. ["opened"]
}

/// The phone: `<send>`, `<cancel>` and the clock.
@discardableResult
func readmePhone() throws -> SCXMLInterpreter {
    let clock = ManualStatechartClock()                  // tests: time moves only when told
    let machine = SCXMLInterpreter(document: try SCXMLDocument(xml: """
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
        """), clock: clock)
    try machine.start()
    try machine.send("ring")
    clock.advance(by: .seconds(29))                      // still ringing
    clock.advance(by: .seconds(1))                       // the hangup macrostep runs inside advance
    machine.activeAtomicStates                           // ["idle"]
    return machine
}

/// Snapshots of an SCXML machine.
func readmeSCXMLSnapshot(_ machine: SCXMLInterpreter, document: SCXMLDocument) throws {
    let data = try JSONEncoder().encode(machine.snapshot())
    // ... later, in another process ...
    let snapshot = try JSONDecoder().decode(StatechartSnapshot.self, from: data)
    let resumed = try SCXMLInterpreter(document: document, restoring: snapshot, clock: .continuous)
    try machine.restore(snapshot)                        // or in place: pending sends replaced
    _ = resumed
}

/// "Statechart options".
func readmeOptions() throws {
    typealias Chart = Statechart<String, String, Int>
    let chart = try Chart(name: "main", options: StatechartOptions(regionExitOrder: .reverseDocumentOrder)) {
        Chart.State("idle").on("go", to: "busy")
        Chart.State("busy")
    }
    _ = chart
}

/// "Speed of statecharts" (the Hierarchy catalog): an event resolved once, handled often.
func readmeResolvedRing() throws -> Statechart<String, String, Int> {
    typealias Chart = Statechart<String, String, Int>
    let ring = try Chart(name: "ring") {
        Chart.State("s0").on("next", to: "s1")
        Chart.State("s1").on("next", to: "s0")
    }
    ring.start()
    let next = try ring.resolve("next")
    for _ in 0..<1_000 { try ring.handle(next) }
    return ring
}

@Suite("README: statechart examples run")
struct ReadmeStatechartExamples {
    @Test("the player, the oven, the JSON door, the pictures, the phone and the options run as the README says")
    func run() throws {
        let player = try readmePlayer()
        #expect(player.activeStates == ["active", "playing", "shuffled"])
        try readmePlayerDebugger(player)
        #expect(player.activeStates == ["stopped"])
        try readmeOven()
        try readmeJSONDoor()
        try readmeDiagramDoor()
        let page = try String(contentsOf: try readmePictures(), encoding: .utf8)
        #expect(page.contains(#"{"event":"shuffle","exited":["normal"],"entered":["shuffled"]"#))
        let phone = try readmePhone()
        #expect(phone.activeAtomicStates == ["idle"])
        try readmeSCXMLSnapshot(phone, document: phone.document)
        try readmeOptions()
        #expect(try readmeResolvedRing().activeStates == ["s0"])
    }
}

/// The Hierarchy "Speed" article: many charts from one definition, which they share compiled.
func readmeSharedDefinition() throws -> [Statechart<String, String, Never>] {
typealias Chart = Statechart<String, String, Never>
let definition = try Chart.definition(fromFile: "order.json")  // read and checked once
let charts = try (0..<10_000).map { _ in try Chart(definition) }  // compiled once, shared
    return charts
}
