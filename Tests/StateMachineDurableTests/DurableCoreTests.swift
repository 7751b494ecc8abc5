import Foundation
import StateMachineCore
import StateMachineDurable
import StateMachineSupport
import Testing

/// A tally: `Add` adds to it and announces the new value (an effect whose delivery feeds
/// back `Acknowledged`), `Arm` schedules a `Clear` after 20 s.
enum TallyEvent {}

struct Tally: State, Codable, Hashable {
    var value: Int
    var acknowledged: Int
    var superState: Int { value }
}

struct Add: Event, Codable {
    typealias SuperEvent = TallyEvent
    var amount: Int
}

struct Arm: Event, Codable {
    typealias SuperEvent = TallyEvent
}

struct Clear: Event, Codable {
    typealias SuperEvent = TallyEvent
}

struct Acknowledged: Event, Codable {
    typealias SuperEvent = TallyEvent
}

/// What every `Announce` performed saw, across machines.
let announced = Lock<[Int]>([])

struct Announce: OutputEffect, Codable {
    typealias SuperEvent = TallyEvent
    var value: Int

    func perform() async throws -> (any Event<TallyEvent>)? {
        announced.withLock { $0.append(value) }
        return Acknowledged()
    }
}

func announcement(of value: Int, asClosure: Bool) -> Output<Int, TallyEvent> {
    asClosure ? Output(sideEffect: { nil }) : Output(effect: Announce(value: value))
}

func tallyMachine(closureOutput: Bool = false) -> StateMachine<Int, TallyEvent> {
    StateMachine<Int, TallyEvent>(initial: Tally(value: 0, acknowledged: 0)) {
        When(state: Tally.self) {
            On(event: Add.self) { state, event in
                Transition(state: Tally(value: state.value + event.amount, acknowledged: state.acknowledged))
                announcement(of: state.value + event.amount, asClosure: closureOutput)
            }
            On(event: Acknowledged.self) { state, _ in
                Transition(state: Tally(value: state.value, acknowledged: state.acknowledged + 1))
            }
            On(event: Arm.self) { _, _ in
                Output(effect: Delayed<TallyEvent>(.seconds(20), send: Clear(), id: "clear"))
            }
            On(event: Clear.self) { state, _ in
                Transition(state: Tally(value: 0, acknowledged: state.acknowledged))
            }
        }
    }
}

func tallyForm(closureOutput: Bool = false) -> DurableCore<Int, TallyEvent> {
    var types = DurableTypes<Int, TallyEvent>()
    types.state(Tally.self, named: "tally")
    types.event(Add.self, named: "add")
    types.event(Arm.self, named: "arm")
    types.event(Clear.self, named: "clear")
    types.event(Acknowledged.self, named: "acknowledged")
    types.effect(Announce.self, named: "announce")
    return DurableCore(tallyMachine(closureOutput: closureOutput), version: "1", types: types)
}

@Suite("Durable Core machines", .serialized)
struct DurableCoreTests {
    @Test(
        "outputs are recorded by name, performed after the commit, and their feedback applied once",
        arguments: StoreKind.allCases
    )
    func effects(kind: StoreKind) async throws {
        try await withStores(kind) { stores in
            announced.withLock { $0.removeAll() }
            let store = try await stores.open(clock: .manual)
            let tally = try await store.open("tally", tallyForm())
            try await tally.send(Add(amount: 2))
            try await tally.send(Add(amount: 3))
            await tally.settle()
            let state = try #require(await tally.state as? Tally)
            #expect(state == Tally(value: 5, acknowledged: 2))
            #expect(announced.withLock { $0 } == [2, 5])
            await tally.close()
            let outbox = try await store.outbox(of: "tally")
            #expect(outbox.map(\.name) == ["announce", "announce"])
            #expect(outbox.map(\.key) == ["tally/1/0", "tally/2/0"])
            #expect(outbox.allSatisfy { $0.delivered })
            let journal = try await store.journal(of: "tally")
            #expect(journal.map(\.kind) == [.sent, .sent, .feedback, .feedback])
            #expect(journal.compactMap(\.idempotencyKey) == ["tally/1/0", "tally/2/0"])
            #expect(String(decoding: journal[0].payload, as: UTF8.self) == #"{"type":"add","value":{"amount":2}}"#)
            let reopened = try await store.open("tally", tallyForm())
            #expect(try #require(await reopened.state as? Tally) == Tally(value: 5, acknowledged: 2))
            await reopened.close()
        }
    }

    @Test("a Delayed output is stored as a timer and fires on the store's clock", arguments: StoreKind.allCases)
    func delayed(kind: StoreKind) async throws {
        try await withStores(kind) { stores in
            let store = try await stores.open(clock: .manual)
            let tally = try await store.open("tally", tallyForm())
            try await tally.send(Add(amount: 4))
            try await tally.send(Arm())
            #expect(await tally.timers.map(\.id) == ["clear"])
            await tally.close()
            try await store.advanceClock(by: .seconds(30))
            let reopened = try await store.open("tally", tallyForm())
            await reopened.settle()
            #expect(try #require(await reopened.state as? Tally).value == 0)
            await reopened.close()
        }
    }

    @Test(
        "an output made from a closure, or an unregistered event, fails its step and commits nothing",
        arguments: StoreKind.allCases
    )
    func unstorable(kind: StoreKind) async throws {
        try await withStores(kind) { stores in
            let store = try await stores.open(clock: .manual)
            let tally = try await store.open("tally", tallyForm(closureOutput: true))
            await #expect {
                try await tally.send(Add(amount: 1))
            } throws: { error in
                "\(error)".contains("Output(effect:)")
            }
            struct Stray: Event { typealias SuperEvent = TallyEvent }
            await #expect {
                try await tally.send(Stray())
            } throws: { error in
                "\(error)".contains("not registered")
            }
            #expect(try #require(await tally.state as? Tally).value == 0)
            try await tally.send(Arm())
            await tally.close()
            #expect(try await store.journal(of: "tally").count == 1)
        }
    }
}
