import StateMachineTable
import Testing

typealias Handling = FSM<TurnstileState, TurnstileEvent>.PredicateHandling
let bothHandlings: [Handling] = [.eager, .lazy]

@Suite("Predicates: matching, inference, ranking, blocks, conditions (eager and lazy)")
struct PredicateTests: TurnstileTable {
    let recorder = Recorder()

    @Test("README: `matching` selects a transition; rows without it match every case", arguments: bothHandlings)
    func enforcement(type: Handling) async throws {
        let fsm = FSM<State, Event>(type: type, initialState: .locked)
        try fsm.buildTable {
            define(.locked) {
                matching(Enforcement.weak) | when(.pass) | then(.locked) | smile
                matching(Enforcement.strong) | when(.pass) | then(.alarming) | defconOne

                when(.coin) | then(.unlocked)
            }
        }
        #expect(
            await fsm.run([.pass], predicates: [Enforcement.weak], recorder: recorder) == [
                Step(state: .locked, calls: ["smile"])
            ]
        )
        #expect(
            await fsm.run([.pass], predicates: [Enforcement.strong], recorder: recorder) == [
                Step(state: .alarming, calls: ["defconOne"])
            ]
        )

        let other = FSM<State, Event>(type: type, initialState: .locked)
        try other.buildTable {
            define(.locked) {
                matching(Enforcement.weak) | when(.pass) | then(.locked) | smile
                when(.coin) | then(.unlocked)
            }
        }
        for enforcement in Enforcement.allCases {
            #expect(await other.run([.coin], predicates: [enforcement], recorder: recorder).map(\.state) == [.unlocked])
            await other.handleEvent(.pass, predicates: Enforcement.strong)  // unlocked: no row
        }
    }

    func twoPredicateTypes(_ type: Handling) throws -> FSM<State, Event> {
        let turnstile = FSM<State, Event>(type: type, initialState: .locked)
        try turnstile.buildTable {
            define(.locked) {
                matching(Enforcement.weak) | when(.pass) | then(.locked) | lock
                matching(Enforcement.strong) | when(.pass) | then(.alarming) | alarmOn

                when(.coin) | then(.unlocked) | unlock
            }

            define(.unlocked) {
                matching(Reward.positive) | when(.coin) | then(.unlocked) | thankyou
                matching(Reward.negative) | when(.coin) | then(.unlocked) | idiot

                when(.pass) | then(.locked) | lock
            }
        }
        return turnstile
    }

    @Test(
        "README: with two predicate types every row is expanded over the types it does not name",
        arguments: bothHandlings,
        Enforcement.allCases
    )
    func twoTypes(type: Handling, enforcement: Enforcement) async throws {
        for reward in Reward.allCases {
            let turnstile = try twoPredicateTypes(type)
            let steps = await turnstile.run(
                [.pass, .coin, .coin, .pass],
                predicates: [enforcement, reward],
                recorder: recorder
            )
            let first =
                enforcement == .weak
                ? Step(state: .locked, calls: ["lock"]) : Step(state: .alarming, calls: ["alarmOn"])
            if enforcement == .weak {
                #expect(
                    steps == [
                        first,
                        Step(state: .unlocked, calls: ["unlock"]),
                        Step(state: .unlocked, calls: [reward == .positive ? "thankyou" : "idiot"]),
                        Step(state: .locked, calls: ["lock"]),
                    ]
                )
            } else {
                #expect(steps.first == first)
                #expect(steps.dropFirst().allSatisfy { $0 == Step(state: .alarming, calls: []) })
            }
        }
    }

    @Test("README: the row naming more predicates wins; the other takes what is left", arguments: bothHandlings)
    func disambiguationByRank(type: Handling) async throws {
        func build() throws -> FSM<State, Event> {
            let fsm = FSM<State, Event>(type: type, initialState: .locked)
            try fsm.buildTable {
                define(.locked) {
                    matching(Enforcement.weak, and: Reward.positive) | when(.coin) | then(.unlocked)
                    matching(Enforcement.weak) | when(.coin) | then(.alarming)
                }
            }
            return fsm
        }
        let expected: [(Enforcement, Reward, TurnstileState)] = [
            (.weak, .positive, .unlocked), (.weak, .negative, .alarming),
            (.strong, .positive, .locked), (.strong, .negative, .locked),
        ]
        for (enforcement, reward, state) in expected {
            let fsm = try build()
            await fsm.handleEvent(.coin, predicates: enforcement, reward)
            #expect(fsm.state == state, "\(enforcement), \(reward)")
        }
    }

    @Test("README: breaking an implicit clash by naming one more predicate", arguments: bothHandlings)
    func brokenDeadlock(type: Handling) async throws {
        let expected: [(Enforcement, Reward, TurnstileState)] = [
            (.weak, .positive, .unlocked), (.weak, .negative, .alarming),
            (.strong, .positive, .locked), (.strong, .negative, .alarming),
        ]
        for (enforcement, reward, state) in expected {
            let fsm = FSM<State, Event>(type: type, initialState: .locked)
            try fsm.buildTable {
                define(.locked) {
                    matching(Enforcement.weak, and: Reward.positive) | when(.coin) | then(.unlocked)
                    matching(Reward.negative) | when(.coin) | then(.alarming)
                }
            }
            await fsm.handleEvent(.coin, predicates: enforcement, reward)
            #expect(fsm.state == state, "\(enforcement), \(reward)")
        }
    }

    @Test("Compound matching: (A.x OR A.y OR A.z... ) AND B.x AND C.x", arguments: bothHandlings)
    func compoundMatching(type: Handling) async throws {
        for a in A.allCases {
            for b in B.allCases {
                for c in C.allCases {
                    let fsm = FSM<State, Event>(type: type, initialState: .locked)
                    try fsm.buildTable {
                        define(.locked) {
                            matching(A.x, or: A.y, and: B.x, C.x) | when(.coin) | then(.unlocked)
                            matching(A.z, and: B.y) | when(.coin) | then(.alarming)
                        }
                    }
                    await fsm.handleEvent(.coin, predicates: a, b, c)
                    let expected: TurnstileState =
                        (a != .z && b == .x && c == .x) ? .unlocked : (a == .z && b == .y) ? .alarming : .locked
                    #expect(fsm.state == expected, "\(a) \(b) \(c)")
                }
            }
        }
    }

    @Test(
        "Context blocks: when { }, then { }, matching { } and their nestings mean the same table",
        arguments: bothHandlings
    )
    func contextBlocks(type: Handling) async throws {
        func pipes() throws -> FSM<State, Event> {
            let fsm = FSM<State, Event>(type: type, initialState: .locked)
            try fsm.buildTable {
                define(.locked) {
                    matching(Enforcement.weak) | when(.pass) | then(.unlocked) | smile
                    matching(Enforcement.strong) | when(.pass) | then(.unlocked) | defconOne
                    matching(Enforcement.weak) | when(.coin) | then(.alarming) | unlock
                    matching(Enforcement.strong) | when(.coin) | then(.alarming) | lock
                }
            }
            return fsm
        }
        func thenWhen() throws -> FSM<State, Event> {
            let fsm = FSM<State, Event>(type: type, initialState: .locked)
            try fsm.buildTable {
                define(.locked) {
                    then(.unlocked) {
                        when(.pass) {
                            matching(Enforcement.weak) | smile
                            matching(Enforcement.strong) | defconOne
                        }
                    }
                    when(.coin) {
                        then(.alarming) {
                            matching(Enforcement.weak) | unlock
                            matching(Enforcement.strong) | lock
                        }
                    }
                }
            }
            return fsm
        }
        func matchingBlocks() throws -> FSM<State, Event> {
            let fsm = FSM<State, Event>(type: type, initialState: .locked)
            try fsm.buildTable {
                define(.locked) {
                    matching(Enforcement.weak) {
                        when(.pass) | then(.unlocked) | smile
                        when(.coin) | then(.alarming) | unlock
                    }
                    matching(Enforcement.strong) {
                        when(.pass) | then(.unlocked) | defconOne
                        when(.coin) | then(.alarming) | lock
                    }
                }
            }
            return fsm
        }
        func whenThenBlocks() throws -> FSM<State, Event> {
            let fsm = FSM<State, Event>(type: type, initialState: .locked)
            try fsm.buildTable {
                define(.locked) {
                    when(.pass) {
                        matching(Enforcement.weak) | then(.unlocked) | smile
                        matching(Enforcement.strong) | then(.unlocked) | defconOne
                    }
                    then(.alarming) {
                        matching(Enforcement.weak) | when(.coin) | unlock
                        matching(Enforcement.strong) | when(.coin) | lock
                    }
                }
            }
            return fsm
        }
        for event in [TurnstileEvent.pass, .coin] {
            for enforcement in Enforcement.allCases {
                var results: [[Step]] = []
                for build in [pipes, thenWhen, matchingBlocks, whenThenBlocks] {
                    results.append(try await build().run([event], predicates: [enforcement], recorder: recorder))
                }
                #expect(Set(results.map(\.description)).count == 1, "\(event) \(enforcement): \(results)")
                #expect(results[0].first?.calls.count == 1)
            }
        }
    }

    @Test("Nested matching blocks AND their predicates: (A.x OR A.y) AND (B.x OR B.y)", arguments: bothHandlings)
    func nestedMatchingBlocks(type: Handling) async throws {
        for a in A.allCases {
            for b in B.allCases {
                let fsm = FSM<State, Event>(type: type, initialState: .locked)
                try fsm.buildTable {
                    define(.locked) {
                        matching(A.x, or: A.y) {
                            matching(B.x, or: B.y) {
                                when(.coin) | then(.unlocked)
                            }
                        }
                    }
                }
                await fsm.handleEvent(.coin, predicates: a, b)
                #expect(fsm.state == ((a != .z && b != .z) ? .unlocked : .locked), "\(a) \(b)")
            }
        }
    }

    @Test("condition { } fires a row only when it returns true, and combines with matching", arguments: bothHandlings)
    func conditions(type: Handling) async throws {
        for allowed in [false, true] {
            for enforcement in Enforcement.allCases {
                let fsm = FSM<State, Event>(type: type, initialState: .locked)
                try fsm.buildTable {
                    define(.locked) {
                        condition({ allowed }) {
                            matching(Enforcement.weak) | when(.coin) | then(.unlocked) | smile
                            matching(Enforcement.strong) | when(.coin) | then(.alarming) | defconOne
                        }
                        condition { allowed } | when(.pass) | then(.unlocked)
                    }
                }
                let steps = await fsm.run([.coin], predicates: [enforcement], recorder: recorder)
                let fired =
                    enforcement == .weak
                    ? Step(state: .unlocked, calls: ["smile"]) : Step(state: .alarming, calls: ["defconOne"])
                #expect(steps == [allowed ? fired : Step(state: .locked, calls: [])])
            }
        }
    }

    @Test(
        "Predicates the table does not use are ignored; a left-out type leaves only rows that do not name it",
        arguments: bothHandlings
    )
    func unusedAndMissingPredicates(type: Handling) async throws {
        func build() throws -> FSM<State, Event> {
            let fsm = FSM<State, Event>(type: type, initialState: .locked)
            try fsm.buildTable {
                define(.locked) {
                    matching(Enforcement.weak) | when(.coin) | then(.unlocked)
                    when(.coin) | then(.alarming)
                    matching(Enforcement.weak) | when(.pass) | then(.unlocked)
                }
            }
            return fsm
        }
        let extra = try build()
        await extra.handleEvent(.coin, predicates: Enforcement.weak, A.x, Reward.positive)
        #expect(extra.state == .unlocked)

        let missing = try build()
        await missing.handleEvent(.coin)
        #expect(missing.state == .alarming)

        let unmatched = try build()
        await unmatched.handleEvent(.pass, predicates: A.x)
        #expect(unmatched.state == .locked)
    }
}

@Suite("FSM.init argument orders")
struct InitTests: TurnstileTable {
    let recorder = Recorder()

    @Test("`type:` may come before or after `initialState:`", arguments: bothHandlings)
    func argumentOrders(type: Handling) async throws {
        let machines = [
            FSM<State, Event>(type: type, initialState: .locked),
            FSM<State, Event>(initialState: .locked, type: type, actionsPolicy: .executeAlways),
        ]
        for fsm in machines {
            try fsm.buildTable {
                define(.locked) {
                    matching(Enforcement.weak) | when(.coin) | then(.unlocked)
                    when(.coin) | then(.alarming)
                }
            }
            await fsm.handleEvent(.coin, predicates: Enforcement.weak)
            #expect(fsm.state == .unlocked)
        }
    }
}
