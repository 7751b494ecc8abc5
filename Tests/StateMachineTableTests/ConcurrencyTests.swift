import Testing

@testable import StateMachineTable

/// An actor that owns a machine, to call it from a custom actor's isolation.
actor Owner {
    let fsm = FSM<Int, Int>(initialState: 1, enforceConcurrency: true)

    func build() throws {
        try fsm.buildTable { Numbers().table() }
    }

    func send(_ event: Int) async -> Int {
        await fsm.handleEvent(event)
        return fsm.state
    }
}

/// The README's `MyClass`: one method nonisolated, one on the main actor.
final class TwoIsolations {
    let fsm: FSM<Int, Int>
    init(fsm: FSM<Int, Int>) { self.fsm = fsm }
    func one() async { await fsm.handleEvent(1) }
    @MainActor @discardableResult func two() async -> Int {
        await fsm.handleEvent(2)
        return fsm.state
    }
}

/// A `SyntaxBuilder` for `FSM<Int, Int>`, as in the README's concurrency example.
struct Numbers: SyntaxBuilder {
    typealias State = Int
    typealias Event = Int

    func table() -> Syntax.Define<Int, Int> {
        define(1) { when(2) | then(3) }
    }
}

@Suite("Concurrency: caller isolation, the run-time checker, FSM.OnMainActor")
struct ConcurrencyTests {
    @Test("The checker accepts every call from the isolation of the first call")
    func sameIsolationIsAccepted() async throws {
        let owner = Owner()
        try await owner.build()
        #expect(await owner.send(2) == 3)
        #expect(await owner.send(2) == 3)
    }

    @Test("The checker names the violating caller and the expected one")
    func violationMessage() {
        let checker = ConcurrencyChecker()
        #expect(checker.violation("handleEvent", nil) == nil)
        #expect(checker.violation("handleEvent", nil) == nil)
        #expect(
            checker.violation("handleEvent", MainActor.shared)
                == "Concurrency violation: handleEvent called by MainActor (expected NonIsolated)"
        )
        let owner = Owner()
        #expect(
            checker.violation("buildTable", owner)
                == "Concurrency violation: buildTable called by Owner (expected NonIsolated)"
        )
    }

    @Test("README: a call from the main actor after a nonisolated one stops the program (debug builds)")
    func violationStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let fsm = FSM<Int, Int>(initialState: 1, enforceConcurrency: true)
            let c = TwoIsolations(fsm: fsm)
            try? fsm.buildTable { Numbers().table() }
            await c.one()  // ✅ First call sets the actor for future calls
            await c.two()  // 💥 Concurrency violation: handleEvent called by MainActor (expected NonIsolated)
        }
    }

    @Test("Without the checker the README's calls from two isolations are allowed")
    func noCheckerNoStop() async throws {
        let fsm = FSM<Int, Int>(initialState: 1)
        let c = TwoIsolations(fsm: fsm)
        try fsm.buildTable { Numbers().table() }
        await c.one()
        let state = await c.two()
        #expect(state == 3)
    }

    @Test("FSM.OnMainActor runs on the main actor without suspending: a queued main-actor task cannot run in between")
    @MainActor
    func onMainActorDoesNotHop() async throws {
        let fsm = FSM<TurnstileState, TurnstileEvent>.OnMainActor(initialState: .locked)
        var actionsOnMain = 0
        try fsm.buildTable {
            OnMainTable().locked {
                MainActor.assertIsolated()
                actionsOnMain += 1
            }
            OnMainTable().unlocked {
                MainActor.assertIsolated()
                actionsOnMain += 1
            }
        }
        var interleaved = false
        let queued = Task { @MainActor in interleaved = true }
        for _ in 0..<1_000 {
            await fsm.handleEvent(.coin)
            await fsm.handleEvent(.pass, predicates: Enforcement.weak)
        }
        #expect(!interleaved)
        #expect(actionsOnMain == 2_000)
        #expect(fsm.state == .locked)
        await queued.value
        #expect(interleaved)
    }

    @Test("A plain FSM called from an actor runs in that actor without suspending")
    func plainFSMDoesNotHop() async throws {
        let counter = NoHopProbe()
        #expect(try await counter.run() == false)
    }
}

/// The table used from the main actor, with one action for both rows.
struct OnMainTable: ExpandedSyntaxBuilder {
    typealias State = TurnstileState
    typealias Event = TurnstileEvent

    func locked(_ action: @escaping () -> Void) -> Syntax.Define<State, Event> {
        define(.locked) {
            when(.coin) | then(.unlocked) | action
        }
    }

    func unlocked(_ action: @escaping () -> Void) -> Syntax.Define<State, Event> {
        define(.unlocked) {
            matching(Enforcement.weak) | when(.pass) | then(.locked) | action
            matching(Enforcement.strong) | when(.pass) | then(.alarming)
        }
    }
}

/// Sends many events from inside an actor and reports whether another job queued on
/// the actor ran in between (which only a suspension would allow).
actor NoHopProbe {
    var interleaved = false

    func mark() { interleaved = true }

    func run() async throws -> Bool {
        let fsm = FSM<TurnstileState, TurnstileEvent>(initialState: .locked)
        try fsm.buildTable {
            OnMainTable().locked { self.assertIsolated() }
            OnMainTable().unlocked { self.assertIsolated() }
        }
        let queued = Task { self.mark() }
        for _ in 0..<1_000 {
            await fsm.handleEvent(.coin)
            await fsm.handleEvent(.pass, predicates: Enforcement.weak)
        }
        let result = interleaved
        await queued.value
        return result
    }
}
