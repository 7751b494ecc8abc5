import StateMachineTable
import Testing

@Suite("Actions: signatures, `&`, `*`, order, and the state they see")
struct ActionTests: TurnstileTable {
    let recorder = Recorder()

    @Test("`&` mixes sync, async and event-taking actions and runs them left to right")
    func mixedSignatures() async throws {
        let fsm = FSM<State, Event>(initialState: .locked)
        try fsm.buildTable {
            define(.locked) {
                when(.coin) | then(.unlocked) | unlock & asyncUnlock & withEvent & asyncWithEvent
                when(.pass) | then(.locked) | asyncWithEvent & unlock
            }
            define(.unlocked) {
                when(.coin) | then(.unlocked) | { event in recorder.calls.append("closure(\(event))") }
                when(.pass) | then(.locked) | AnyAction(lock) & AnyAction(thankyou)
            }
        }
        let steps = await fsm.run([.pass, .coin, .coin, .pass], recorder: recorder)
        #expect(
            steps.map(\.calls) == [
                ["asyncWithEvent(pass)", "unlock"],
                ["unlock", "asyncUnlock", "withEvent(coin)", "asyncWithEvent(coin)"],
                ["closure(coin)"],
                ["lock", "thankyou"],
            ]
        )
    }

    @Test("The postfix `*` and `AnyAction` lists are interchangeable")
    func postfixStar() async throws {
        let fsm = FSM<State, Event>(initialState: .locked)
        try fsm.buildTable {
            define(.locked, onEntry: [AnyAction(lock)], onExit: unlock*) {
                when(.coin) | then(.unlocked) | withEvent*
            }
            define(.unlocked, onEntry: Array(thankyou*), onExit: [AnyAction(alarm), AnyAction(asyncUnlock)]) {
                when(.pass) | then(.locked) | alarmOff & lock
            }
        }
        let steps = await fsm.run([.coin, .pass], recorder: recorder)
        #expect(
            steps.map(\.calls) == [
                ["withEvent(coin)", "unlock", "thankyou"],
                ["alarmOff", "lock", "alarm", "asyncUnlock", "lock"],
            ]
        )
    }

    @Test("when(_:or:) writes one row per event")
    func whenOr() async throws {
        let fsm = FSM<State, Event>(initialState: .locked)
        try fsm.buildTable {
            define(.locked) {
                when(.coin, or: .pass) | then(.unlocked) | unlock
            }
            define(.unlocked) {
                when(.coin) | then(.locked)
                when(.pass) | then(.locked)
            }
        }
        let steps = await fsm.run([.coin, .coin, .pass, .reset], recorder: recorder)
        #expect(steps.map(\.state) == [.unlocked, .locked, .unlocked, .unlocked])
        #expect(steps.map(\.calls) == [["unlock"], [], ["unlock"], []])
    }

    @Test("The state changes before actions run: an action that sends an event sees the new state")
    func stateUpdatedBeforeActions() async throws {
        let fsm = FSM<State, Event>(initialState: .locked)
        var seen: [TurnstileState] = []
        try fsm.buildTable {
            define(.locked) {
                when(.coin) | then(.unlocked) | {
                    seen.append(fsm.state)
                    await fsm.handleEvent(.pass)
                    seen.append(fsm.state)
                }
            }
            define(.unlocked) {
                when(.pass) | then(.alarming) | { seen.append(fsm.state) }
            }
        }
        await fsm.handleEvent(.coin)
        #expect(seen == [.unlocked, .alarming, .alarming])
        #expect(fsm.state == .alarming)
    }

    @Test(
        "Transition actions, then exit, then entry; entry/exit on a self-transition only with executeAlways",
        arguments: [StateActionsPolicy.executeOnChangeOnly, .executeAlways]
    )
    func actionOrder(policy: StateActionsPolicy) async throws {
        let fsm = FSM<State, Event>(initialState: .locked, actionsPolicy: policy)
        try fsm.buildTable {
            define(.locked, onEntry: named("enterLocked")*, onExit: named("exitLocked")*) {
                when(.coin) | then(.unlocked) | named("transition")
                when(.pass) | then() | named("stay")
            }
            define(.unlocked, onEntry: named("enterUnlocked")*, onExit: named("exitUnlocked")*) {
                when(.pass) | then(.locked)
            }
        }
        let steps = await fsm.run([.pass, .coin, .pass], recorder: recorder)
        let selfTransition = policy == .executeAlways ? ["stay", "exitLocked", "enterLocked"] : ["stay"]
        #expect(
            steps.map(\.calls) == [
                selfTransition,
                ["transition", "exitLocked", "enterUnlocked"],
                ["exitUnlocked", "enterLocked"],
            ]
        )
    }

    @Test("actions { } blocks add their actions before each row's own, and nest")
    func actionsBlocks() async throws {
        let fsm = FSM<State, Event>(initialState: .locked)
        try fsm.buildTable {
            define(.locked) {
                actions(named("common")) {
                    when(.coin) | then(.unlocked)
                    actions(named("inner")) {
                        when(.pass) | then(.alarming) | alarmOn
                    }
                }
            }
            define(.unlocked) { when(.pass) | then(.locked) }
            define(.alarming) { when(.reset) | then(.locked) }
        }
        let steps = await fsm.run([.coin, .pass, .pass], recorder: recorder)
        #expect(steps.map(\.calls) == [["common"], [], ["common", "inner", "alarmOn"]])
        #expect(steps.map(\.state) == [.unlocked, .locked, .alarming])
    }

    @Test("Unhandled events change nothing")
    func unhandledEvents() async throws {
        let fsm = FSM<State, Event>(initialState: .locked)
        try fsm.buildTable {
            define(.locked) { when(.coin) | then(.unlocked) | unlock }
        }
        let steps = await fsm.run([.pass, .reset, .coin, .coin, .pass], recorder: recorder)
        #expect(
            steps == [
                Step(state: .locked, calls: []),
                Step(state: .locked, calls: []),
                Step(state: .unlocked, calls: ["unlock"]),
                Step(state: .unlocked, calls: []),
                Step(state: .unlocked, calls: []),
            ]
        )
    }
}
