import Foundation
import StateMachineDurable
import StateMachineDurableSCXML
import StateMachineECMAScript
import StateMachineHierarchy
import StateMachineSCXML
import StateMachineSupport
import Testing

/// A basket with ECMAScript variables: "add" counts and keeps its data; "arm" arms a
/// delayed send "ring" (10 s), which adds 100; "disarm" cancels it.
func basketDocument(step: Int = 1, layout: String = "\n") throws -> SCXMLDocument {
    try SCXMLDocument(
        xml: """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="idle" name="basket">\(layout)\
            <datamodel><data id="count" expr="0"/><data id="items" expr="[]"/></datamodel>\(layout)\
            <state id="idle">\(layout)\
            <transition event="add"><assign location="count" expr="count + \(step)"/><script>items.push(_event.data)</script></transition>\(layout)\
            <transition event="arm" target="armed"/>\(layout)\
            </state>\(layout)\
            <state id="armed">\(layout)\
            <onentry><send id="ring" event="ring" delay="10s"/></onentry>\(layout)\
            <transition event="ring" target="rang"><assign location="count" expr="count + 100"/></transition>\(layout)\
            <transition event="disarm" target="idle"><cancel sendid="ring"/></transition>\(layout)\
            </state>\(layout)\
            <state id="rang"/>\(layout)\
            </scxml>
            """,
        dataModel: .ecmascript
    )
}

/// A shop session: "order" sends "placed" (with the order's number) to a URI outside the
/// process; "confirmed" ends it; an `error.execution` (the send refused) fails it.
func shopDocument() throws -> SCXMLDocument {
    try SCXMLDocument(
        xml: """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="idle" name="shop">
              <state id="idle">
                <transition event="order" target="placed">
                  <send target="https://shop.example/orders" event="placed"><param name="n" expr="_event.data"/></send>
                </transition>
              </state>
              <state id="placed">
                <transition event="confirmed" target="done"/>
                <transition event="error.execution" target="failed"/>
              </state>
              <state id="failed"/>
              <final id="done"/>
            </scxml>
            """,
        dataModel: .ecmascript
    )
}

/// A reminder: "order" sends "remind" to a URI outside the process 5 s later; "paid"
/// cancels it.
func reminderDocument() throws -> SCXMLDocument {
    try SCXMLDocument(
        xml: """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="idle" name="reminder">
              <state id="idle">
                <transition event="order" target="ordered"><send id="remind" target="mailto:clerk@shop.example" event="remind" delay="5s"/></transition>
              </state>
              <state id="ordered"><transition event="paid" target="idle"><cancel sendid="remind"/></transition></state>
            </scxml>
            """
    )
}

/// A parent that invokes a worker: "tick" is passed on to the worker, which counts ticks in
/// a variable and reports `worker.done` at the third; a worker left alone for 30 s reports
/// `worker.late` (a delayed send of the child's own).
func parentDocument() throws -> SCXMLDocument {
    try SCXMLDocument(
        xml: """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="running" name="parent">
              <datamodel><data id="result" expr="0"/></datamodel>
              <state id="running">
                <invoke id="worker" type="http://www.w3.org/TR/scxml/">
                  <content>
                    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="working" name="worker">
                      <datamodel><data id="ticks" expr="0"/></datamodel>
                      <state id="working">
                        <onentry><send event="timeout" delay="30s"/></onentry>
                        <transition event="tick">
                          <assign location="ticks" expr="ticks + 1"/>
                          <if cond="ticks == 3">
                            <send target="#_parent" event="worker.done"><param name="ticks" expr="ticks"/></send>
                          </if>
                        </transition>
                        <transition event="timeout" target="late"/>
                      </state>
                      <state id="late"><onentry><send target="#_parent" event="worker.late"/></onentry></state>
                    </scxml>
                  </content>
                </invoke>
                <transition event="tick"><send target="#_worker" event="tick"/></transition>
                <transition event="worker.done" target="finished"><assign location="result" expr="_event.data.ticks"/></transition>
                <transition event="worker.late" target="late"/>
              </state>
              <state id="late"/>
              <final id="finished"/>
            </scxml>
            """,
        dataModel: .ecmascript
    )
}

/// What a send handler saw, in order: each attempt's key, and the sends.
final class SentLog: Sendable {
    private let entries = Lock<[(key: String, send: DurableSCXML.Send)]>([])

    func record(_ send: DurableSCXML.Send, _ effect: DeliveredEffect) {
        entries.withLock { $0.append((effect.key, send)) }
    }

    var keys: [String] { entries.withLock { $0.map(\.key) } }
    var sends: [DurableSCXML.Send] { entries.withLock { $0.map(\.send) } }
}

struct HandlerFailure: Error {}

@Suite("Durable SCXML sessions on each store")
struct DurableSCXMLTests {
    @Test("a session's ECMAScript variables survive closing and reopening the store", arguments: StoreKind.allCases)
    func variablesSurvive(kind: StoreKind) async throws {
        try await withStores(kind) { stores in
            do {
                let store = try await stores.open(clock: .manual)
                let basket = try await store.open("basket", DurableSCXML(version: "1", document: try basketDocument()))
                try await basket.send(.init("add", data: .string("apple")))
                try await basket.send(.init("add", data: .string("pear")))
                #expect(await basket.state.variables["count"] == .number(2))
                await basket.close()
            }
            let store = try await stores.open(clock: .manual)
            let basket = try await store.open("basket", DurableSCXML(version: "1", document: try basketDocument()))
            let state = await basket.state
            #expect(state.configuration == ["idle"])
            #expect(state.variables["count"] == .number(2))
            #expect(state.variables["items"] == .array([.string("apple"), .string("pear")]))
            try await basket.send(.init("add", data: .string("fig")))
            #expect(await basket.state.variables["count"] == .number(3))
            await basket.close()
            let journal = try await store.journal(of: "basket")
            #expect(journal.map(\.sequence) == [1, 2, 3])
        }
    }

    @Test(
        "a delayed send is stored by its due time and fires after a restart, at that time",
        arguments: StoreKind.allCases
    )
    func delayedSend(kind: StoreKind) async throws {
        try await withStores(kind) { stores in
            let form = DurableSCXML(version: "1", document: try basketDocument())
            do {
                let store = try await stores.open(clock: .manual)
                try await store.advanceClock(by: .seconds(5))
                let basket = try await store.open("basket", form)
                try await basket.send(.init("arm"))
                #expect(await basket.timers.map(\.id) == ["send:ring"])
                #expect(await basket.timers.map(\.due) == [15_000_000_000])
                try await store.advanceClock(by: .seconds(4))
                await basket.close()
            }
            let store = try await stores.open(clock: .manual)
            let basket = try await store.open("basket", form)
            #expect(await basket.timers.map(\.id) == ["send:ring"])
            #expect(await basket.timers.map(\.due) == [15_000_000_000])
            try await store.advanceClock(by: .seconds(5))
            #expect(await basket.state.configuration == ["armed"])
            try await store.advanceClock(by: .seconds(1))
            #expect(await basket.state.configuration == ["rang"])
            #expect(await basket.state.variables["count"] == .number(100))
            #expect(await basket.timers.isEmpty)
            await basket.close()
            #expect(try await store.journal(of: "basket").map(\.kind) == [.sent, .timer])
        }
    }

    @Test("a cancelled delayed send is no longer a timer", arguments: StoreKind.allCases)
    func cancelledSend(kind: StoreKind) async throws {
        try await withStores(kind) { stores in
            let store = try await stores.open(clock: .manual)
            let basket = try await store.open("basket", DurableSCXML(version: "1", document: try basketDocument()))
            try await basket.send(.init("arm"))
            try await basket.send(.init("disarm"))
            #expect(await basket.timers.isEmpty)
            try await store.advanceClock(by: .seconds(20))
            #expect(await basket.state.configuration == ["idle"])
            await basket.close()
            #expect(try await store.inspect("basket")?.timers.isEmpty == true)
        }
    }

    @Test(
        "a delayed send that fell due while the session was closed fires, is dropped or restarts, as chosen",
        arguments: StoreKind.allCases
    )
    func timerPolicies(kind: StoreKind) async throws {
        for policy in [DurableTimerPolicy.fire, .drop, .restart] {
            try await withStores(kind) { stores in
                let store = try await stores.open(clock: .manual)
                let form = DurableSCXML(version: "1", document: try basketDocument())
                let basket = try await store.open("basket", form)
                try await basket.send(.init("arm"))
                await basket.close()
                try await store.advanceClock(by: .seconds(60))
                let reopened = try await store.open("basket", form, options: .init(timerPolicy: policy))
                switch policy {
                case .fire:
                    #expect(await reopened.state.configuration == ["rang"])
                    #expect(await reopened.timers.isEmpty)
                case .drop:
                    #expect(await reopened.state.configuration == ["armed"])
                    #expect(await reopened.timers.isEmpty)
                case .restart:
                    #expect(await reopened.state.configuration == ["armed"])
                    #expect(await reopened.timers.map(\.due) == [70_000_000_000])
                    try await store.advanceClock(by: .seconds(10))
                    #expect(await reopened.state.configuration == ["rang"])
                }
                await reopened.close()
            }
        }
    }

    @Test(
        "a send to a target outside the process goes through the outbox, with a key that stays the same until it is delivered",
        arguments: StoreKind.allCases
    )
    func outboxSend(kind: StoreKind) async throws {
        try await withStores(kind) { stores in
            let store = try await stores.open(clock: .manual)
            let log = SentLog()
            let failing = DurableSCXML(version: "1", document: try shopDocument()) { send, effect in
                log.record(send, effect)
                throw HandlerFailure()
            }
            let shop = try await store.open("shop", failing)
            try await shop.send(.init("order", data: .number(7)))
            await shop.settle()
            #expect(await shop.deliveryFailures.keys.sorted() == ["shop/1/0"])
            #expect(await shop.state.configuration == ["placed"])
            await shop.close()
            let outbox = try await store.outbox(of: "shop")
            #expect(outbox.map(\.name) == [DurableSCXML.sendEffect])
            #expect(outbox.map(\.delivered) == [false])

            let working = DurableSCXML(version: "1", document: try shopDocument()) { send, effect in
                log.record(send, effect)
                return .init("confirmed")
            }
            let reopened = try await store.open("shop", working)
            await reopened.settle()
            #expect(log.keys == ["shop/1/0", "shop/1/0"])
            #expect(
                log.sends.last
                    == DurableSCXML.Send(
                        target: "https://shop.example/orders",
                        event: "placed",
                        data: .object(["n": .number(7)])
                    )
            )
            #expect(await reopened.state.isDone)
            #expect(try await store.outbox(of: "shop").map(\.delivered) == [true])
            await reopened.close()
            #expect(try await store.journal(of: "shop").map(\.kind) == [.sent, .feedback])
        }
    }

    @Test(
        "a delayed send outside the process waits as a timer, across a restart, then goes through the outbox; a cancelled one never does",
        arguments: StoreKind.allCases
    )
    func delayedOutboxSend(kind: StoreKind) async throws {
        try await withStores(kind) { stores in
            let log = SentLog()
            let form = DurableSCXML(version: "1", document: try reminderDocument()) { send, effect in
                log.record(send, effect)
                return nil
            }
            do {
                let store = try await stores.open(clock: .manual)
                let reminder = try await store.open("reminder", form)
                try await reminder.send(.init("order"))
                #expect(await reminder.timers.map(\.id) == ["send:remind"])
                #expect(await reminder.timers.map(\.due) == [5_000_000_000])
                await reminder.close()
                #expect(try await store.outbox(of: "reminder").isEmpty)
            }
            let store = try await stores.open(clock: .manual)
            let reminder = try await store.open("reminder", form)
            #expect(await reminder.timers.map(\.id) == ["send:remind"])
            try await store.advanceClock(by: .seconds(5))
            await reminder.settle()
            #expect(log.keys == ["reminder/2/0"])
            #expect(
                log.sends == [DurableSCXML.Send(target: "mailto:clerk@shop.example", event: "remind", sendID: "remind")]
            )
            #expect(await reminder.timers.isEmpty)
            try await reminder.send(.init("paid"))
            try await reminder.send(.init("order"))
            try await reminder.send(.init("paid"))
            #expect(await reminder.timers.isEmpty)
            try await store.advanceClock(by: .seconds(10))
            await reminder.settle()
            #expect(log.keys == ["reminder/2/0"])
            await reminder.close()
        }
    }

    @Test(
        "without a send handler, a send outside the process raises error.execution as in a plain interpreter",
        arguments: StoreKind.allCases
    )
    func noSendHandler(kind: StoreKind) async throws {
        try await withStores(kind) { stores in
            let store = try await stores.open(clock: .manual)
            let shop = try await store.open("shop", DurableSCXML(version: "1", document: try shopDocument()))
            try await shop.send(.init("order", data: .number(7)))
            #expect(await shop.state.configuration == ["failed"])
            await shop.close()
            #expect(try await store.outbox(of: "shop").isEmpty)
        }
    }

    @Test(
        "an invoked child's variables and delayed send are stored with its parent and reopened with it",
        arguments: StoreKind.allCases
    )
    func invokedChild(kind: StoreKind) async throws {
        try await withStores(kind) { stores in
            let form = DurableSCXML(version: "1", document: try parentDocument())
            do {
                let store = try await stores.open(clock: .manual)
                let parent = try await store.open("parent", form)
                #expect(await parent.timers.map(\.id) == ["invoke:worker/send:#1"])
                try await parent.send(.init("tick"))
                try await parent.send(.init("tick"))
                #expect(await parent.state.configuration == ["running"])
                try await store.advanceClock(by: .seconds(10))
                await parent.close()
            }
            let store = try await stores.open(clock: .manual)
            let parent = try await store.open("parent", form)
            #expect(await parent.timers.map(\.id) == ["invoke:worker/send:#1"])
            #expect(await parent.timers.map(\.due) == [30_000_000_000])
            try await parent.send(.init("tick"))
            #expect(await parent.state.configuration == ["finished"])
            #expect(await parent.state.variables["result"] == .number(3))
            #expect(await parent.timers.isEmpty)
            await parent.close()
        }
    }

    @Test(
        "an invoked child's delayed send that fell due while its parent was closed fires on reopening",
        arguments: StoreKind.allCases
    )
    func invokedChildTimer(kind: StoreKind) async throws {
        try await withStores(kind) { stores in
            let store = try await stores.open(clock: .manual)
            let form = DurableSCXML(version: "1", document: try parentDocument())
            let parent = try await store.open("parent", form)
            await parent.close()
            try await store.advanceClock(by: .seconds(31))
            let reopened = try await store.open("parent", form)
            #expect(await reopened.state.configuration == ["late"])
            await reopened.close()
            #expect(try await store.journal(of: "parent").map(\.kind) == [.timer])
        }
    }

    @Test(
        "a session stored by another document is refused; a change of layout alone is no change",
        arguments: StoreKind.allCases
    )
    func definitionChange(kind: StoreKind) async throws {
        try await withStores(kind) { stores in
            let store = try await stores.open(clock: .manual)
            let original = DurableSCXML(version: "1", document: try basketDocument())
            #expect(
                DurableSCXML(version: "1", document: try basketDocument(layout: "\n\n   ")).identity
                    == original.identity
            )
            let basket = try await store.open("basket", original)
            try await basket.send(.init("add"))
            await basket.close()
            let changed = DurableSCXML(version: "1", document: try basketDocument(step: 2))
            #expect(changed.identity.fingerprint != original.identity.fingerprint)
            await #expect {
                _ = try await store.open("basket", changed)
            } throws: { error in
                guard case DurableError.definitionChanged(let key, let stored, let opening) = error else {
                    return false
                }
                return key == "basket" && stored == original.identity && opening == changed.identity
            }
            let again = try await store.open("basket", original)
            #expect(await again.state.variables["count"] == .number(1))
            await again.close()
        }
    }
}
