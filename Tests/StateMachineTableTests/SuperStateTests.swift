import StateMachineTable
import Testing

/// The README's super state, overriding and entry/exit inheritance examples.
@Suite("Super states, overriding and inherited entry/exit actions")
struct SuperStateTests: TurnstileTable {
    let recorder = Recorder()

    func machine(_ type: FSM<State, Event>.PredicateHandling = .eager) -> FSM<State, Event> {
        FSM(type: type, initialState: .locked)
    }

    func adoptingCombined() throws -> FSM<State, Event> {
        let fsm = machine()
        try fsm.buildTable {
            let s1 = SuperState { when(.coin) | then(.unlocked) | unlock }
            let s2 = SuperState { when(.pass) | then(.alarming) | alarmOn }
            let s3 = SuperState(adopts: s1, s2)
            define(.locked, adopts: s3)
        }
        return fsm
    }

    func writtenInOne() throws -> FSM<State, Event> {
        let fsm = machine()
        try fsm.buildTable {
            let s4 = SuperState {
                when(.coin) | then(.unlocked) | unlock
                when(.pass) | then(.alarming) | alarmOn
            }
            define(.locked, adopts: s4)
        }
        return fsm
    }

    @Test(
        "SuperState(adopts: s1, s2) is equivalent to writing their rows in one block",
        arguments: [[TurnstileEvent.coin], [.pass], [.reset, .coin]]
    )
    func combinedSuperStates(events: [TurnstileEvent]) async throws {
        let first = try await adoptingCombined().run(events, recorder: recorder)
        let second = try await writtenInOne().run(events, recorder: recorder)
        #expect(first == second)
        #expect(first.last?.state == (events.last == .pass ? .alarming : .unlocked))
    }

    @Test("overriding in a child SuperState replaces the inherited transition")
    func overridingInSuperState() async throws {
        let fsm = machine()
        try fsm.buildTable {
            let s1 = SuperState { when(.coin) | then(.unlocked) | unlock }
            let s2 = SuperState(adopts: s1) {
                overriding {
                    when(.coin) | then(.locked) | beGrumpy  // ✅ overrides inherited transition
                }
            }
            define(.locked, adopts: s2)
        }
        #expect(await fsm.run([.coin], recorder: recorder) == [Step(state: .locked, calls: ["beGrumpy"])])
    }

    @Test("overriding in a define replaces the inherited transition")
    func overridingInDefine() async throws {
        let fsm = machine()
        try fsm.buildTable {
            let s1 = SuperState { when(.coin) | then(.unlocked) | unlock }
            define(.locked, adopts: s1) {
                overriding {
                    when(.coin) | then(.locked) | beGrumpy  // ✅ overrides inherited transition
                }
            }
        }
        #expect(await fsm.run([.coin], recorder: recorder) == [Step(state: .locked, calls: ["beGrumpy"])])
    }

    @Test("An override replaces every matching transition of several super states")
    func overrideReplacesAll() async throws {
        let fsm = machine()
        try fsm.buildTable {
            let s1 = SuperState { when(.coin) | then(.unlocked) | named("doSomething") }
            let s2 = SuperState { when(.coin) | then(.unlocked) | named("doSomethingElse") }

            define(.locked, adopts: s1, s2) {
                overriding {
                    when(.coin) | then(.locked) | named("doYetAnotherThing")
                }
            }
        }
        #expect(await fsm.run([.coin], recorder: recorder) == [Step(state: .locked, calls: ["doYetAnotherThing"])])
    }

    @Test(
        "In an override chain the last transition wins",
        arguments: [FSM<TurnstileState, TurnstileEvent>.PredicateHandling.eager, .lazy]
    )
    func overrideChain(type: FSM<TurnstileState, TurnstileEvent>.PredicateHandling) async throws {
        let fsm = machine(type)
        try fsm.buildTable {
            let s1 = SuperState { when(.coin) | then(.unlocked) | named("a1") }
            let s2 = SuperState(adopts: s1) { overriding { when(.coin) | then(.unlocked) | named("a2") } }
            let s3 = SuperState(adopts: s2) { overriding { when(.coin) | then(.unlocked) | named("a3") } }
            let s4 = SuperState(adopts: s3) { overriding { when(.coin) | then(.unlocked) | named("a4") } }

            define(.locked, adopts: s4) {
                overriding { when(.coin) | then(.unlocked) | named("a5") }  // ✅ overrides all others
            }
        }
        #expect(await fsm.run([.coin], recorder: recorder) == [Step(state: .unlocked, calls: ["a5"])])
    }

    @Test("A SuperState's entry actions are inherited: adopting equals writing them in the define")
    func superStateEntryActions() async throws {
        let adopted = machine()
        try adopted.buildTable {
            let resetable = SuperState(onEntry: lock*) {
                when(.reset) | then(.locked)
            }

            define(.locked, adopts: resetable) {
                when(.coin) | then(.unlocked)
                when(.pass) | then(.alarming)
            }
            define(.unlocked) { when(.reset) | then(.locked) }
            define(.alarming) { when(.reset) | then(.locked) }
        }
        let written = machine()
        try written.buildTable {
            define(.locked, onEntry: lock*) {
                when(.reset) | then(.locked)
                when(.coin) | then(.unlocked)
                when(.pass) | then(.alarming)
            }
            define(.unlocked) { when(.reset) | then(.locked) }
            define(.alarming) { when(.reset) | then(.locked) }
        }
        let events: [TurnstileEvent] = [.coin, .reset, .pass, .reset, .reset]
        let first = await adopted.run(events, recorder: recorder)
        let second = await written.run(events, recorder: recorder)
        #expect(first == second)
        #expect(first.map(\.calls) == [[], ["lock"], [], ["lock"], []])
    }

    @Test("Super states combine entry actions in adoption order")
    func superStatesCombineEntryActions() async throws {
        let fsm = machine()
        try fsm.buildTable {
            let s1 = SuperState(onEntry: unlock*) { when(.coin) | then(.unlocked) }
            let s2 = SuperState(onEntry: alarmOn*) { when(.pass) | then(.alarming) }
            let s3 = SuperState(adopts: s1, s2)
            define(.locked) { when(.reset) | then(.unlocked) }
            define(.unlocked, adopts: s3)
        }
        let steps = await fsm.run([.reset], recorder: recorder)
        #expect(steps == [Step(state: .unlocked, calls: ["unlock", "alarmOn"])])
    }
}
