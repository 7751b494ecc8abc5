import Foundation
import StateMachineCore
import StateMachineDurable
import StateMachineDurableSCXML
import StateMachineECMAScript
import StateMachineHierarchy
import StateMachineSCXML
import StateMachineTable

/// The machines the worker runs: one of each form, each with timers and effects.
enum WorkerForms {
    // MARK: Table: a turnstile that relocks itself 30 s after it unlocks.

    enum Gate: String, Codable, Hashable, Sendable { case locked, unlocked }
    enum Input: String, Codable, Hashable, Sendable { case coin, push, timeout }

    struct Turnstile: SyntaxBuilder {
        typealias State = Gate
        typealias Event = Input

        func build(_ state: Gate, _ effects: DurableEffects) throws -> FSM<Gate, Input> {
            let fsm = FSM<Gate, Input>(initialState: state)
            try fsm.buildTable {
                define(.locked) {
                    when(.coin) | then(.unlocked) | {
                        effects.emit("unlock")
                        effects.schedule(Input.timeout, after: .seconds(30), id: "relock")
                    }
                    when(.push) | then(.locked)
                }
                define(.unlocked) {
                    when(.coin) | then(.unlocked) | { effects.emit("refund") }
                    when(.push) | then(.locked) | { effects.cancelScheduled("relock") }
                    when(.timeout) | then(.locked) | { effects.emit("relocked") }
                }
            }
            return fsm
        }
    }

    static func table() throws -> DurableTable<Gate, Input> {
        let handler: DurableEffectHandler<Input> = { effect in
            deliver(effect)
            return nil
        }
        return try DurableTable(
            version: "1",
            initialState: .locked,
            effects: ["unlock": handler, "refund": handler, "relocked": handler]
        ) { state, effects in try Turnstile().build(state, effects) }
    }

    // MARK: Core: a tally that announces each sum and clears itself 20 s after `arm`.

    enum TallyEvent {}

    struct Tally: State, Codable, Hashable, CustomStringConvertible {
        var value: Int
        var superState: Int { value }
        var description: String { "tally \(value)" }
    }

    struct Add: Event, Codable {
        typealias SuperEvent = TallyEvent
        var amount: Int
    }

    struct Arm: Event, Codable { typealias SuperEvent = TallyEvent }
    struct Clear: Event, Codable { typealias SuperEvent = TallyEvent }

    struct Announce: OutputEffect, Codable {
        typealias SuperEvent = TallyEvent
        var value: Int

        func perform() async throws -> (any Event<TallyEvent>)? {
            if let effect = DeliveredEffect.current { deliver(effect) }
            return nil
        }
    }

    static func core() -> DurableCore<Int, TallyEvent> {
        let machine = StateMachine<Int, TallyEvent>(initial: Tally(value: 0)) {
            When(state: Tally.self) {
                On(event: Add.self) { state, event in
                    Transition(state: Tally(value: state.value + event.amount))
                    Output(effect: Announce(value: state.value + event.amount))
                }
                On(event: Arm.self) { _, _ in
                    Output(effect: Delayed<TallyEvent>(.seconds(20), send: Clear(), id: "clear"))
                }
                On(event: Clear.self) { _, _ in
                    Transition(state: Tally(value: 0))
                }
            }
        }
        var types = DurableTypes<Int, TallyEvent>()
        types.state(Tally.self, named: "tally")
        types.event(Add.self, named: "add")
        types.event(Arm.self, named: "arm")
        types.event(Clear.self, named: "clear")
        types.effect(Announce.self, named: "announce")
        return DurableCore(machine, version: "1", types: types)
    }

    /// `add:N`, `arm` or `clear`.
    static func coreEvent(_ token: String) -> any Event<TallyEvent> {
        if token.hasPrefix("add:"), let amount = Int(token.dropFirst(4)) { return Add(amount: amount) }
        return token == "arm" ? Arm() : Clear()
    }

    // MARK: Statecharts: a door that closes itself 10 s after it opens.

    typealias Door = Statechart<String, String, Int>

    static func handler(_ effect: DeliveredEffect) async throws -> DurableStatechart<String, String, Int>.Event? {
        deliver(effect)
        return nil
    }

    static func chart() throws -> DurableStatechart<String, String, Int> {
        try DurableStatechart(version: "1", effects: ["opened": handler, "closed": handler]) { effects in
            Door.Definition(name: "door") {
                Door.State("closed").on("open", to: "opened", action: { _ in effects.emit("opened") })
                Door.State("opened") {
                    Door.State("ajar").on("push", to: "wide")
                    Door.State("wide")
                }
                .on("close", to: "closed")
                .after(.seconds(10), to: "closed", action: { _ in effects.emit("closed") })
            }
        }
    }

    static let doorJSON = """
        {
          "name": "door",
          "states": [ {"name": "closed", "type": "state"}, {"name": "opened", "type": "state"} ],
          "transitions": [
            {"type": "simple", "kind": "external", "name": "open", "source": "closed", "target": "opened"},
            {"type": "simple", "kind": "external", "name": "close", "source": "opened", "target": "closed"},
            {"type": "after", "seconds": 10, "source": "opened", "target": "closed"}
          ]
        }
        """

    static func json() throws -> DurableStatechart<String, String, Int> {
        try DurableStatechart(version: "1", effects: ["opened": handler]) { effects in
            var definition = try Door.definition(fromJSON: doorJSON)
            try definition.onEnter(at: "opened") { _ in effects.emit("opened") }
            return definition
        }
    }

    // MARK: SCXML: a till with ECMAScript variables, a 5 s delayed send and a send to a
    // receipt printer outside the process.

    static let tillSCXML = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="open" name="till">
          <datamodel><data id="total" expr="0"/><data id="sales" expr="0"/></datamodel>
          <state id="open">
            <transition event="sell"><assign location="total" expr="total + 3"/><assign location="sales" expr="sales + 1"/></transition>
            <transition event="close" target="closing"/>
          </state>
          <state id="closing">
            <onentry><send id="audit" event="audited" delay="5s"/></onentry>
            <transition event="audited" target="open">
              <send target="printer:receipts" event="receipt"><param name="total" expr="total"/></send>
              <assign location="total" expr="0"/>
            </transition>
            <transition event="sell" target="open"><cancel sendid="audit"/></transition>
          </state>
        </scxml>
        """

    static func scxml() throws -> DurableSCXML {
        DurableSCXML(
            version: "1",
            document: try SCXMLDocument(xml: tillSCXML, dataModel: .ecmascript),
            sends: { _, effect in
                deliver(effect)
                return nil
            }
        )
    }
}

