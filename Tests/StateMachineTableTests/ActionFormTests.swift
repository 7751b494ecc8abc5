import StateMachineTable
import Testing

/// Every spelling of an action the language accepts: each `&` and `*` overload, each pipe
/// from a row without `when` or `then`, and each `actions(...) { }` block shape, with each
/// of the four action signatures and `[AnyAction]`. Each test runs the table and checks
/// the calls, so an overload that dropped, reordered or mis-typed an action would fail.
@Suite("Action forms: every operator and block overload runs its actions in order")
struct ActionFormTests: TurnstileTable {
    let recorder = Recorder()

    /// Runs `actions` as the actions of `locked --coin--> unlocked` and returns the calls.
    func calls(of actions: [AnyAction]) async throws -> [String] {
        let fsm = FSM<State, Event>(initialState: .locked)
        try fsm.buildTable {
            define(.locked) {
                when(.coin) | then(.unlocked) | actions
            }
        }
        return await fsm.run([.coin], recorder: recorder).flatMap(\.calls)
    }

    @Test("`&` joins every pair of signatures, left to right")
    func ampersandPairs() async throws {
        let cases: [([AnyAction], [String])] = [
            (unlock & lock, ["unlock", "lock"]),
            (unlock & asyncUnlock, ["unlock", "asyncUnlock"]),
            (unlock & withEvent, ["unlock", "withEvent(coin)"]),
            (unlock & asyncWithEvent, ["unlock", "asyncWithEvent(coin)"]),
            (asyncUnlock & lock, ["asyncUnlock", "lock"]),
            (asyncUnlock & asyncUnlock, ["asyncUnlock", "asyncUnlock"]),
            (asyncUnlock & withEvent, ["asyncUnlock", "withEvent(coin)"]),
            (asyncUnlock & asyncWithEvent, ["asyncUnlock", "asyncWithEvent(coin)"]),
            (withEvent & lock, ["withEvent(coin)", "lock"]),
            (withEvent & asyncUnlock, ["withEvent(coin)", "asyncUnlock"]),
            (withEvent & withEvent, ["withEvent(coin)", "withEvent(coin)"]),
            (withEvent & asyncWithEvent, ["withEvent(coin)", "asyncWithEvent(coin)"]),
            (asyncWithEvent & lock, ["asyncWithEvent(coin)", "lock"]),
            (asyncWithEvent & asyncUnlock, ["asyncWithEvent(coin)", "asyncUnlock"]),
            (asyncWithEvent & withEvent, ["asyncWithEvent(coin)", "withEvent(coin)"]),
            (asyncWithEvent & asyncWithEvent, ["asyncWithEvent(coin)", "asyncWithEvent(coin)"]),
        ]
        for (index, (actions, expected)) in cases.enumerated() {
            #expect(try await calls(of: actions) == expected, "case \(index)")
        }
    }

    @Test("`&` with an AnyAction or a list on either side keeps the order")
    func ampersandWithAnyAction() async throws {
        let named = AnyAction(alarm)
        let list: [AnyAction] = [AnyAction(thankyou)]
        let cases: [([AnyAction], [String])] = [
            (named & AnyAction(lock), ["alarm", "lock"]),
            (named & unlock, ["alarm", "unlock"]),
            (named & asyncUnlock, ["alarm", "asyncUnlock"]),
            (named & withEvent, ["alarm", "withEvent(coin)"]),
            (named & asyncWithEvent, ["alarm", "asyncWithEvent(coin)"]),
            (list & list, ["thankyou", "thankyou"]),
            (list & named, ["thankyou", "alarm"]),
            (list & unlock, ["thankyou", "unlock"]),
            (list & asyncUnlock, ["thankyou", "asyncUnlock"]),
            (list & withEvent, ["thankyou", "withEvent(coin)"]),
            (list & asyncWithEvent, ["thankyou", "asyncWithEvent(coin)"]),
            (unlock & lock & alarm, ["unlock", "lock", "alarm"]),
        ]
        for (index, (actions, expected)) in cases.enumerated() {
            #expect(try await calls(of: actions) == expected, "case \(index)")
        }
    }

    @Test("postfix `*` makes a one-element list of every signature")
    func postfixStar() async throws {
        let cases: [([AnyAction], [String])] = [
            (AnyAction(lock)*, ["lock"]),
            (unlock*, ["unlock"]),
            (asyncUnlock*, ["asyncUnlock"]),
            (withEvent*, ["withEvent(coin)"]),
            (asyncWithEvent*, ["asyncWithEvent(coin)"]),
        ]
        for (index, (actions, expected)) in cases.enumerated() {
            #expect(try await calls(of: actions) == expected, "case \(index)")
        }
    }

    @Test("a pipe after `when ... then` takes every signature")
    func pipesAfterWhenThen() async throws {
        let fsm = FSM<State, Event>(initialState: .locked)
        try fsm.buildTable {
            define(.locked) {
                when(.coin) | then(.unlocked) | asyncUnlock
                when(.pass) | then(.alarming) | withEvent
                when(.reset) | then(.locked) | [AnyAction(alarm)]
            }
            define(.unlocked) {
                when(.coin) | then(.locked) | asyncWithEvent
            }
        }
        let steps = await fsm.run([.reset, .pass], recorder: recorder)
        #expect(steps == [Step(state: .locked, calls: ["alarm"]), Step(state: .alarming, calls: ["withEvent(pass)"])])
        let fsm2 = FSM<State, Event>(initialState: .locked)
        try fsm2.buildTable {
            define(.locked) { when(.coin) | then(.unlocked) | asyncUnlock }
            define(.unlocked) { when(.coin) | then(.locked) | asyncWithEvent }
        }
        let steps2 = await fsm2.run([.coin, .coin], recorder: recorder)
        #expect(
            steps2 == [
                Step(state: .unlocked, calls: ["asyncUnlock"]),
                Step(state: .locked, calls: ["asyncWithEvent(coin)"]),
            ]
        )
    }

    @Test("a pipe after `matching ... then` (in a when block) takes every signature")
    func pipesAfterMatchingThen() async throws {
        let fsm = FSM<State, Event>(initialState: .locked)
        try fsm.buildTable {
            define(.locked) {
                when(.coin) {
                    matching(Enforcement.weak) | then(.unlocked) | unlock
                    matching(Enforcement.strong) | then(.unlocked) | withEvent
                }
                when(.pass) {
                    matching(Enforcement.weak) | then(.alarming) | asyncUnlock
                    matching(Enforcement.strong) | then(.alarming) | asyncWithEvent
                }
                when(.reset) {
                    matching(Enforcement.weak) | then(.locked) | [AnyAction(alarm)]
                }
            }
        }
        #expect(
            await fsm.run([.reset], predicates: [Enforcement.weak], recorder: recorder).flatMap(\.calls) == ["alarm"]
        )
        #expect(
            await fsm.run([.coin], predicates: [Enforcement.weak], recorder: recorder).flatMap(\.calls) == ["unlock"]
        )
        for (event, predicate, expected) in [
            (TurnstileEvent.coin, Enforcement.strong, "withEvent(coin)"),
            (.pass, .weak, "asyncUnlock"),
            (.pass, .strong, "asyncWithEvent(pass)"),
        ] {
            let again = FSM<State, Event>(initialState: .locked)
            try again.buildTable {
                define(.locked) {
                    when(.coin) {
                        matching(Enforcement.weak) | then(.unlocked) | unlock
                        matching(Enforcement.strong) | then(.unlocked) | withEvent
                    }
                    when(.pass) {
                        matching(Enforcement.weak) | then(.alarming) | asyncUnlock
                        matching(Enforcement.strong) | then(.alarming) | asyncWithEvent
                    }
                }
            }
            let calls = await again.run([event], predicates: [predicate], recorder: recorder).flatMap(\.calls)
            #expect(calls == [expected])
        }
    }

    @Test("a pipe after `when` (in a then block) takes every signature")
    func pipesAfterWhen() async throws {
        let fsm = FSM<State, Event>(initialState: .locked)
        try fsm.buildTable {
            define(.locked) {
                then(.unlocked) {
                    when(.coin) | unlock
                    when(.pass) | withEvent
                }
            }
            define(.unlocked) {
                then(.locked) {
                    when(.coin) | asyncUnlock
                    when(.pass) | asyncWithEvent
                    when(.reset) | [AnyAction(alarm)]
                }
            }
        }
        let steps = await fsm.run([.coin, .coin, .pass, .pass, .reset], recorder: recorder)
        #expect(
            steps == [
                Step(state: .unlocked, calls: ["unlock"]),
                Step(state: .locked, calls: ["asyncUnlock"]),
                Step(state: .unlocked, calls: ["withEvent(pass)"]),
                Step(state: .locked, calls: ["asyncWithEvent(pass)"]),
                Step(state: .locked, calls: []),
            ]
        )
        let reset = await fsm.run([.coin, .reset], recorder: recorder)
        #expect(reset.last == Step(state: .locked, calls: ["alarm"]))
    }

    @Test("a pipe after `matching` alone (in when and then blocks) takes every signature")
    func pipesAfterMatching() async throws {
        for (predicate, expected) in [
            (Reward.positive, ["unlock", "withEvent(coin)", "asyncUnlock", "asyncWithEvent(coin)", "alarm"]),
            (Reward.negative, []),
        ] {
            let fsm = FSM<State, Event>(initialState: .locked)
            try fsm.buildTable {
                define(.locked) {
                    then(.unlocked) {
                        when(.coin) {
                            matching(Reward.positive) | unlock
                        }
                    }
                }
                define(.unlocked) {
                    then(.alarming) {
                        when(.coin) {
                            matching(Reward.positive) | withEvent
                        }
                    }
                }
                define(.alarming) {
                    then(.verifyingPayment) {
                        when(.coin) {
                            matching(Reward.positive) | asyncUnlock
                        }
                    }
                }
                define(.verifyingPayment) {
                    then(.locked) {
                        when(.coin) {
                            matching(Reward.positive) | asyncWithEvent
                        }
                    }
                    then(.verifyingPayment) {
                        when(.pass) {
                            matching(Reward.positive) | [AnyAction(alarm)]
                        }
                    }
                }
            }
            let calls = await fsm.run(
                [.coin, .coin, .coin, .coin, .coin, .coin, .coin, .pass],
                predicates: [predicate],
                recorder: recorder
            )
            if predicate == .positive {
                #expect(
                    calls.map(\.state) == [
                        .unlocked, .alarming, .verifyingPayment, .locked, .unlocked, .alarming, .verifyingPayment,
                        .verifyingPayment,
                    ]
                )
                #expect(Array(calls.prefix(4).flatMap(\.calls)) + calls[7].calls == expected)
            } else {
                #expect(calls.allSatisfy { $0.state == .locked && $0.calls.isEmpty })
            }
        }
    }

    @Test("`actions(...) { }` around full rows, with every signature, runs before the rows' own actions")
    func actionsBlocksAroundRows() async throws {
        let fsm = FSM<State, Event>(initialState: .locked)
        try fsm.buildTable {
            define(.locked) {
                actions(unlock) { when(.coin) | then(.unlocked) | lock }
                actions(withEvent) { when(.pass) | then(.alarming) | lock }
                actions([AnyAction(alarm)]) { when(.reset) | then(.locked) | lock }
            }
            define(.unlocked) {
                actions(asyncUnlock) { when(.coin) | then(.locked) | lock }
            }
            define(.alarming) {
                actions(asyncWithEvent) { when(.reset) | then(.locked) | lock }
            }
        }
        let steps = await fsm.run([.reset, .coin, .coin, .pass, .reset], recorder: recorder)
        #expect(
            steps == [
                Step(state: .locked, calls: ["alarm", "lock"]),
                Step(state: .unlocked, calls: ["unlock", "lock"]),
                Step(state: .locked, calls: ["asyncUnlock", "lock"]),
                Step(state: .alarming, calls: ["withEvent(pass)", "lock"]),
                Step(state: .locked, calls: ["asyncWithEvent(reset)", "lock"]),
            ]
        )
    }

    @Test("`actions(...) { }` around `when` rows (in a then block), with every signature")
    func actionsBlocksAroundWhenRows() async throws {
        let fsm = FSM<State, Event>(initialState: .locked)
        try fsm.buildTable {
            define(.locked) {
                then(.unlocked) {
                    actions(unlock) { when(.coin) | lock }
                    actions(withEvent) { when(.pass) | lock }
                }
            }
            define(.unlocked) {
                then(.locked) {
                    actions(asyncUnlock) { when(.coin) | lock }
                    actions(asyncWithEvent) { when(.pass) | lock }
                    actions([AnyAction(alarm)]) { when(.reset) | lock }
                }
            }
        }
        let steps = await fsm.run([.coin, .coin, .pass, .pass, .coin, .reset], recorder: recorder)
        #expect(
            steps == [
                Step(state: .unlocked, calls: ["unlock", "lock"]),
                Step(state: .locked, calls: ["asyncUnlock", "lock"]),
                Step(state: .unlocked, calls: ["withEvent(pass)", "lock"]),
                Step(state: .locked, calls: ["asyncWithEvent(pass)", "lock"]),
                Step(state: .unlocked, calls: ["unlock", "lock"]),
                Step(state: .locked, calls: ["alarm", "lock"]),
            ]
        )
    }

    @Test("`actions(...) { }` around `matching ... then` rows (in a when block), with every signature")
    func actionsBlocksAroundThenRows() async throws {
        let fsm = FSM<State, Event>(initialState: .locked)
        try fsm.buildTable {
            define(.locked) {
                when(.coin) {
                    actions(unlock) { matching(Reward.positive) | then(.unlocked) | lock }
                    actions(withEvent) { matching(Reward.negative) | then(.alarming) | lock }
                }
            }
            define(.unlocked) {
                when(.coin) {
                    actions(asyncUnlock) { matching(Reward.positive) | then(.locked) | lock }
                    actions(asyncWithEvent) { matching(Reward.negative) | then(.locked) | lock }
                }
            }
            define(.alarming) {
                when(.coin) {
                    actions([AnyAction(alarm)]) { matching(Reward.negative) | then(.locked) | lock }
                }
            }
        }
        let positive = await fsm.run([.coin, .coin], predicates: [Reward.positive], recorder: recorder)
        #expect(
            positive == [
                Step(state: .unlocked, calls: ["unlock", "lock"]),
                Step(state: .locked, calls: ["asyncUnlock", "lock"]),
            ]
        )
        let negative = await fsm.run([.coin, .coin], predicates: [Reward.negative], recorder: recorder)
        #expect(
            negative == [
                Step(state: .alarming, calls: ["withEvent(coin)", "lock"]),
                Step(state: .locked, calls: ["alarm", "lock"]),
            ]
        )
        _ = await fsm.run([.coin], predicates: [Reward.positive], recorder: recorder)
        let unlockedNegative = await fsm.run([.coin], predicates: [Reward.negative], recorder: recorder)
        #expect(unlockedNegative == [Step(state: .locked, calls: ["asyncWithEvent(coin)", "lock"])])
    }
}
