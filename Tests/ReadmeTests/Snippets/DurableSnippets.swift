// swift-format-ignore-file
// The durable products' DocC examples (StateMachineDurable.md, DurableMachines.md,
// StateMachineDurableSCXML.md, StateMachinePostgreSQL.md), verbatim and compiled with this test target:
// ReadmeCodeTests checks that every swift block of the articles appears in a compiled file.
// Each function gives a block what it assumes; edit the articles and this file together.
import Foundation
import StateMachineDurable
import StateMachineDurableSCXML
import StateMachineECMAScript
import StateMachinePostgreSQL
import StateMachineSCXML
import StateMachineTable

/// The landing page's door.
func durableLandingExample() async throws {

    enum Door: String, Codable, Hashable, Sendable { case closed, opened }
    enum Push: String, Codable, Hashable, Sendable { case open, close }

    struct DoorTable: SyntaxBuilder {
        typealias State = Door
        typealias Event = Push

        func machine(in state: Door, _ effects: DurableEffects) throws -> FSM<Door, Push> {
            let fsm = FSM<Door, Push>(initialState: state)
            try fsm.buildTable {
                define(.closed) { when(.open) | then(.opened) | { effects.emit("opened") } }
                define(.opened) { when(.close) | then(.closed) }
            }
            return fsm
        }
    }

    let form = try DurableTable<Door, Push>(
        version: "1",
        initialState: .closed,
        effects: ["opened": { effect in print("opened (\(effect.key))"); return nil }]
    ) { state, effects in try DoorTable().machine(in: state, effects) }
    let store = try SQLiteStore(path: "machines.sqlite")
    let door = try await store.open("front-door", form)
    try await door.send(.open, idempotencyKey: "request-17")
    await door.close()
}

enum OrderState: String, Codable, Hashable, Sendable { case open, paid, settled }
enum OrderEvent: String, Codable, Hashable, Sendable { case pay }

/// "Durable machines": opening, sending, closing.
func durableOverviewExample(form: DurableTable<OrderState, OrderEvent>) async throws {
    let store = try SQLiteStore(path: "machines.sqlite")      // FULL durability, wall clock
    let order = try await store.open("order-17", form)         // claimed by this process
    try await order.send(.pay, idempotencyKey: "payment-9f2")  // returns once committed
    await order.close()                                        // another process may open it
}

/// "Durable machines": a migration.
func durableMigrationExample(store: SQLiteStore, formV2: DurableTable<OrderState, OrderEvent>) async throws {
    let rename = DurableMigration { stored, state in
        guard stored.version == "1" else { return state }
        // Version 2 renamed the state "paid" to "settled".
        return Data(String(decoding: state, as: UTF8.self).replacingOccurrences(of: "\"paid\"", with: "\"settled\"").utf8)
    }
    let order = try await store.open("order-17", formV2, options: DurableOptions(migration: rename))
    _ = order
}

/// StateMachineDurableSCXML's landing page.
func durableSCXMLExample() async throws {

    let document = try SCXMLDocument(
        xml: """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="open">
              <datamodel><data id="total" expr="0"/></datamodel>
              <state id="open"><transition event="sell"><assign location="total" expr="total + 3"/></transition></state>
            </scxml>
            """,
        dataModel: .ecmascript
    )
    let store = try SQLiteStore(path: "tills.sqlite")
    let till = try await store.open("till-1", DurableSCXML(version: "1", document: document))
    try await till.send(.init("sell"))
    print(await till.state.variables["total"] ?? .null)  // 3, also after a restart
    await till.close()
}

/// StateMachinePostgreSQL's landing page and the article's PostgreSQL section.
func postgreSQLExamples(form: DurableTable<OrderState, OrderEvent>) async throws {
    let store = try await PostgreSQLStore(connection: "host=/var/run/postgresql dbname=app", schema: "orders")
    let order = try await store.open("order-17", form)
    try await order.send(.pay, idempotencyKey: "payment-9f2")
    await order.close()

    let worker = MachineWorker(store: store) { key in try orderForm(for: key) }
    let serving = Task { await worker.run() }
    // … until the process should stop:
    serving.cancel()
    await serving.value

    let posted = try await store.post(.pay, to: "order-18", as: form, idempotencyKey: "payment-a71")
    try await store.awaitApplied(posted)  // its step is committed, by whichever worker holds it
}

/// The form the worker example opens each machine with.
func orderForm(for key: String) throws -> DurableTable<OrderState, OrderEvent> {
    struct OrderTable: SyntaxBuilder {
        typealias State = OrderState
        typealias Event = OrderEvent

        func machine(in state: OrderState) throws -> FSM<OrderState, OrderEvent> {
            let fsm = FSM<OrderState, OrderEvent>(initialState: state)
            try fsm.buildTable { define(.open) { when(.pay) | then(.paid) } }
            return fsm
        }
    }
    return try DurableTable<OrderState, OrderEvent>(version: "1", initialState: .open) { state, _ in
        try OrderTable().machine(in: state)
    }
}
