import Foundation
import StateMachineDurable
import StateMachineHierarchy
import StateMachineTable
import TestSupport
import Testing

@Suite("Durable machines on each store")
struct DurableMachineTests {
    @Test("a table's state, journal and outbox survive closing and reopening the store", arguments: StoreKind.allCases)
    func reopen(kind: StoreKind) async throws {
        try await withStores(kind) { stores in
            let deliveries = Deliveries()
            do {
                let store = try await stores.open(clock: .manual)
                let gate = try await store.open("gate", try turnstile(deliveries))
                let receipt = try await gate.send(.coin)
                #expect(receipt.sequence == 1 && !receipt.isDuplicate)
                #expect(await gate.state == .unlocked)
                await gate.settle()
                await gate.close()
            }
            #expect(deliveries.all == ["unlock gate/1/0"])
            let store = try await stores.open(clock: .manual)
            let gate = try await store.open("gate", try turnstile(deliveries))
            #expect(await gate.state == .unlocked)
            try await gate.send(.push)
            #expect(await gate.state == .locked)
            await gate.close()
            let journal = try await store.journal(of: "gate")
            #expect(journal.map(\.sequence) == [1, 2])
            #expect(journal.map { String(decoding: $0.payload, as: UTF8.self) } == ["\"coin\"", "\"push\""])
            #expect(try await store.outbox(of: "gate").map(\.delivered) == [true])
            #expect(deliveries.all == ["unlock gate/1/0"])
        }
    }

    @Test(
        "an event sent with an idempotency key is applied once however often it is sent",
        arguments: StoreKind.allCases
    )
    func idempotency(kind: StoreKind) async throws {
        try await withStores(kind) { stores in
            let store = try await stores.open(clock: .manual)
            let gate = try await store.open("gate", try turnstile(Deliveries()))
            let first = try await gate.send(.coin, idempotencyKey: "coin-1")
            let again = try await gate.send(.coin, idempotencyKey: "coin-1")
            #expect(first.isDuplicate == false)
            #expect(again.sequence == nil && again.isDuplicate)
            async let a = gate.send(.push, idempotencyKey: "push-1")
            async let b = gate.send(.push, idempotencyKey: "push-1")
            let receipts = try await [a, b]
            #expect(receipts.filter(\.isDuplicate).count == 1)
            await gate.close()
            let reopened = try await store.open("gate", try turnstile(Deliveries()))
            #expect(try await reopened.send(.coin, idempotencyKey: "coin-1").isDuplicate)
            #expect(try await reopened.post(.coin, idempotencyKey: "push-1").isDuplicate)
            await reopened.close()
            #expect(try await store.journal(of: "gate").count == 2)
        }
    }

    @Test(
        "concurrent sends are each applied once, numbered in the order they were applied",
        arguments: StoreKind.allCases
    )
    func groupCommit(kind: StoreKind) async throws {
        try await withStores(kind) { stores in
            let store = try await stores.open(clock: .manual)
            let gate = try await store.open("gate", try turnstile(Deliveries()))
            let sequences = try await withThrowingTaskGroup(of: Int64?.self) { group in
                for index in 0..<200 {
                    group.addTask { try await gate.send(index.isMultiple(of: 2) ? .coin : .push).sequence }
                }
                return try await group.reduce(into: [Int64]()) { $0.append($1!) }
            }
            #expect(sequences.sorted() == Array(1...200))
            await gate.close()
            let stored = try #require(try await store.inspect("gate"))
            #expect(stored.lastSequence == 200)
            #expect(try await store.journal(of: "gate").map(\.sequence) == Array(1...200))
        }
    }

    @Test(
        "an effect whose delivery failed is delivered after reopening, with the same key",
        arguments: StoreKind.allCases
    )
    func atLeastOnce(kind: StoreKind) async throws {
        try await withStores(kind) { stores in
            let store = try await stores.open(clock: .manual)
            let deliveries = Deliveries()
            let failing = try await store.open("gate", try turnstile(deliveries, failing: true))
            try await failing.send(.coin)
            await failing.settle()
            #expect(await failing.deliveryFailures.keys.sorted() == ["gate/1/0"])
            await failing.close()
            #expect(try await store.outbox(of: "gate").map(\.delivered) == [false])
            let working = try await store.open("gate", try turnstile(deliveries))
            await working.settle()
            #expect(deliveries.all == ["unlock gate/1/0"])
            #expect(try await store.outbox(of: "gate").map(\.delivered) == [true])
            await working.close()
        }
    }

    @Test(
        "a scheduled event fires at its due time on the store's clock, and a cancelled one does not",
        arguments: StoreKind.allCases
    )
    func scheduledEvents(kind: StoreKind) async throws {
        try await withStores(kind) { stores in
            let store = try await stores.open(clock: .manual)
            let gate = try await store.open("gate", try turnstile(Deliveries()))
            try await gate.send(.coin)
            #expect(await gate.timers.map(\.id) == ["relock"])
            #expect(await gate.timers.map(\.due) == [30_000_000_000])
            try await store.advanceClock(by: .seconds(29))
            #expect(await gate.state == .unlocked)
            try await store.advanceClock(by: .seconds(1))
            #expect(await gate.state == .locked)
            try await gate.send(.coin)
            try await gate.send(.push)
            #expect(await gate.timers.isEmpty)
            try await store.advanceClock(by: .seconds(60))
            await gate.close()
            let kinds = try await store.journal(of: "gate").map(\.kind)
            #expect(kinds == [.sent, .timer, .sent, .sent])
        }
    }

    @Test(
        "a timer that fell due while the machine was closed fires, is dropped or restarts, as chosen",
        arguments: StoreKind.allCases
    )
    func timerPolicies(kind: StoreKind) async throws {
        for policy in [DurableTimerPolicy.fire, .drop, .restart] {
            try await withStores(kind) { stores in
                let store = try await stores.open(clock: .manual)
                let deliveries = Deliveries()
                let door = try await store.open("door", try doorChart(deliveries))
                try await door.send(.init("open"))
                #expect(await door.state == ["opened"])
                await door.close()
                try await store.advanceClock(by: .seconds(60))
                let reopened = try await store.open(
                    "door",
                    try doorChart(deliveries),
                    options: .init(timerPolicy: policy)
                )
                switch policy {
                case .fire:
                    #expect(await reopened.state == ["closed"])
                    #expect(await reopened.timers.isEmpty)
                    // At its due time, not at the time the machine was reopened.
                    #expect(try await store.journal(of: "door").last?.time == 10_000_000_000)
                case .drop:
                    #expect(await reopened.state == ["opened"])
                    #expect(await reopened.timers.isEmpty)
                case .restart:
                    #expect(await reopened.state == ["opened"])
                    #expect(await reopened.timers.map(\.due) == [70_000_000_000])
                    try await store.advanceClock(by: .seconds(10))
                    #expect(await reopened.state == ["closed"])
                }
                await reopened.close()
            }
        }
    }

    @Test(
        "a machine stored by another definition is refused, naming both, unless migrated",
        arguments: StoreKind.allCases
    )
    func definitionChange(kind: StoreKind) async throws {
        try await withStores(kind) { stores in
            let store = try await stores.open(clock: .manual)
            let gate = try await store.open("gate", try turnstile(Deliveries(), version: "1"))
            try await gate.send(.coin)
            await gate.close()
            let next = try turnstile(Deliveries(), version: "2")
            await #expect {
                _ = try await store.open("gate", next)
            } throws: { error in
                guard case DurableError.definitionChanged(let key, let stored, let opening) = error else {
                    return false
                }
                return key == "gate" && stored.version == "1" && opening.version == "2"
                    && "\(error)".contains("version 1") && "\(error)".contains("version 2")
            }
            let migrated = try await store.open("gate", next, options: .init(migration: .keepState))
            #expect(await migrated.state == .unlocked)
            await migrated.close()
            #expect(try await store.inspect("gate")?.identity.version == "2")
        }
    }

    @Test("a machine open in this process cannot be opened again until it is closed", arguments: StoreKind.allCases)
    func claim(kind: StoreKind) async throws {
        try await withStores(kind) { stores in
            let store = try await stores.open(clock: .manual)
            let gate = try await store.open("gate", try turnstile(Deliveries()))
            let other = try await stores.open(clock: .manual)
            await #expect(throws: DurableError.self) { _ = try await other.open("gate", try turnstile(Deliveries())) }
            await gate.close()
            let again = try await other.open("gate", try turnstile(Deliveries()))
            await again.close()
        }
    }

    @Test(
        "a statechart's delayed transition is stored by due time and fires after a restart",
        arguments: StoreKind.allCases
    )
    func chartTimer(kind: StoreKind) async throws {
        try await withStores(kind) { stores in
            let deliveries = Deliveries()
            do {
                let store = try await stores.open(clock: .manual)
                try await store.advanceClock(by: .seconds(5))
                let door = try await store.open("door", try doorChart(deliveries))
                try await door.send(.init("open"))
                #expect(await door.timers.map(\.due) == [15_000_000_000])
                try await store.advanceClock(by: .seconds(4))
                await door.settle()
                await door.close()
            }
            let store = try await stores.open(clock: .manual)
            let door = try await store.open("door", try doorChart(deliveries))
            #expect(await door.timers.map(\.due) == [15_000_000_000])
            try await store.advanceClock(by: .seconds(5))
            #expect(await door.state == ["opened"])
            try await store.advanceClock(by: .seconds(1))
            #expect(await door.state == ["closed"])
            await door.close()
            #expect(deliveries.all == ["opened door/1/0"])
            #expect(try await store.journal(of: "door").map(\.kind) == [.sent, .timer])
        }
    }
}

@Suite("Durable machines: the inbox and errors", .timeLimit(.minutes(1)))
struct DurableInboxTests {
    @Test(
        "events accepted by the inbox while the machine is closed are applied, in order and once, when it opens",
        arguments: StoreKind.allCases
    )
    func inboxAppliedOnOpen(kind: StoreKind) async throws {
        try await withStores(kind) { stores in
            let store = try await stores.open(clock: .manual)
            let gate = try await store.open("gate", try turnstile(Deliveries()))
            try await gate.send(.push)
            await gate.close()
            // As another process would: straight into the inbox of the closed machine.
            for (index, event) in [Input.coin, .push, .coin].enumerated() {
                let id = try await store.post(
                    "gate",
                    InboxEntry(
                        kind: .posted,
                        payload: Data("\"\(event.rawValue)\"".utf8),
                        idempotencyKey: "p\(index)",
                        time: 0
                    )
                )
                #expect(id != nil)
            }
            #expect(
                try await store.post(
                    "gate",
                    InboxEntry(kind: .posted, payload: Data("\"push\"".utf8), idempotencyKey: "p1", time: 0)
                ) == nil
            )
            #expect(try await store.inspect("gate")?.unapplied.count == 3)
            let reopened = try await store.open("gate", try turnstile(Deliveries()))
            #expect(await reopened.state == .unlocked)
            await reopened.close()
            let journal = try await store.journal(of: "gate")
            #expect(journal.map(\.kind) == [.sent, .posted, .posted, .posted])
            #expect(journal.compactMap(\.idempotencyKey) == ["p0", "p1", "p2"])
            #expect(try await store.inspect("gate")?.unapplied.isEmpty == true)
        }
    }

    @Test("post journals an event and the machine applies it after the events before it", arguments: StoreKind.allCases)
    func post(kind: StoreKind) async throws {
        try await withStores(kind) { stores in
            let store = try await stores.open(clock: .manual)
            let gate = try await store.open("gate", try turnstile(Deliveries()))
            let receipt = try await gate.post(.coin, idempotencyKey: "first")
            #expect(!receipt.isDuplicate)
            try await gate.send(.push)
            await gate.settle()
            #expect(await gate.state == .locked)
            #expect(try await store.journal(of: "gate").map(\.kind) == [.posted, .sent])
            await gate.close()
            await #expect(throws: DurableError.closed(key: "gate")) { try await gate.send(.coin) }
        }
    }

    @Test("each error says what is wrong and where")
    func messages() {
        let identity = DefinitionIdentity(version: "1", fingerprint: "00ff")
        let cases: [(DurableError, String)] = [
            (
                .corrupt(path: "/x", message: "file is not a database"),
                "/x is not a valid store (file is not a database); nothing was written"
            ),
            (
                .readOnly(path: "/x", message: "attempt to write"),
                "/x is read-only (attempt to write); nothing was written"
            ),
            (
                .full(path: "/x", message: "database or disk is full"),
                "/x is full (database or disk is full); the transaction was rolled back"
            ),
            (
                .busy(path: "/x", message: "database is locked"),
                "/x stayed locked by another connection (database is locked)"
            ),
            (.storage(path: "/x", code: 1, message: "oops"), "/x: SQLite error 1: oops"),
            (.machineInUse(key: "k", owner: "b:1:2"), "machine 'k' is open in another live process (b:1:2)"),
            (
                .definitionChanged(
                    key: "k",
                    stored: identity,
                    opening: DefinitionIdentity(version: "2", fingerprint: "ff00")
                ),
                "machine 'k' was stored with version 1 (fingerprint 00ff) and is opened with version 2 (fingerprint ff00); pass a migration to open it"
            ),
            (.closed(key: "k"), "machine 'k' is closed"),
            (.notManualClock, "the store runs on the wall clock, which cannot be set or advanced"),
        ]
        for (error, message) in cases { #expect("\(error)" == message) }
    }

    @Test("the wall clock cannot be set; timers on it fire when they fall due", arguments: StoreKind.allCases)
    func wallClock(kind: StoreKind) async throws {
        try await withStores(kind) { stores in
            let store = try await stores.open()
            await #expect(throws: DurableError.notManualClock) { try await store.advanceClock(by: .seconds(1)) }
            let form = try DurableStatechart<String, String, Int>(version: "1") { _ in
                Chart.Definition(name: "blink") {
                    Chart.State("on").after(.milliseconds(20), to: "off")
                    Chart.State("off")
                }
            }
            let blink = try await store.open("blink", form)
            let due = try #require(await blink.timers.first?.due)
            #expect(due > (try await store.now()) - 1_000_000_000)
            // The fact: the journal gets the timer's entry, within a bound.
            let fired = await within(seconds: 20, "the timer's step") {
                while (try? await store.journal(of: "blink"))?.isEmpty ?? true { await Task.yield() }
                return true
            }
            #expect(fired == true)
            #expect(await blink.state == ["off"])
            await blink.close()
        }
    }
}
