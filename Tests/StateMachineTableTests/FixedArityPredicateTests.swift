import Testing

@testable import StateMachineTable

/// A predicate whose `allCases` leaves out some values: `Level(7)` is a value no case has.
struct Level: Predicate {
    let value: Int
    static var allCases: [Level] { [Level(value: 0), Level(value: 1), Level(value: 2)] }
}

/// A predicate type with 300 cases: a row naming a case index above 253 keeps its group's
/// rows unpacked (the general lookup, through a buffer of cases).
struct Wide: Predicate {
    let value: Int
    static var allCases: [Wide] { (0..<300).map(Wide.init) }
}

/// The fixed-arity forms of `handleEvent(_:predicates:)` (one to three predicates of static
/// types, no array) against the array form, on tables whose rows are packed (at most 8
/// predicate types of small case indices) and on tables whose rows are not.
@Suite("Fixed-arity handleEvent: the same dispatch as the array form")
struct FixedArityPredicateTests: TurnstileTable {
    let recorder = Recorder()

    /// Rows naming A, B and Level, from the most specific down, without clashes; `wide`
    /// replaces the last with rows naming `Wide` cases, one above 253.
    func machine(_ type: Handling, wide: Bool) throws -> FSM<State, Event> {
        let fsm = FSM<State, Event>(type: type, initialState: .locked)
        if wide {
            try fsm.buildTable {
                define(.locked) {
                    matching(A.x, and: B.y, Level(value: 1)) | when(.coin) | then(.unlocked) | named("AxByL1")
                    matching(A.x, and: B.y) | when(.coin) | then(.alarming) | named("AxBy")
                    matching(A.x) | when(.coin) | then(.verifyingPayment) | named("Ax")
                    matching(A.y, and: B.z) | when(.coin) | then(.unlocked) | named("AyBz")
                    matching(A.z, and: Wide(value: 260)) | when(.coin) | then(.unlocked) | named("AzW260")
                    matching(A.z, and: Wide(value: 3), B.y) | when(.coin) | then(.alarming) | named("AzW3By")
                    when(.pass) | then(.locked) | named("pass")
                }
            }
        } else {
            try fsm.buildTable {
                define(.locked) {
                    matching(A.x, and: B.y, Level(value: 1)) | when(.coin) | then(.unlocked) | named("AxByL1")
                    matching(A.x, and: B.y) | when(.coin) | then(.alarming) | named("AxBy")
                    matching(A.x) | when(.coin) | then(.verifyingPayment) | named("Ax")
                    matching(A.y, and: B.z) | when(.coin) | then(.unlocked) | named("AyBz")
                    matching(A.z, and: Level(value: 2)) | when(.coin) | then(.alarming) | named("AzL2")
                    when(.pass) | then(.locked) | named("pass")
                }
            }
        }
        return fsm
    }

    /// What one call did: the state it left the machine in and the actions it ran.
    func outcome(
        _ type: Handling,
        wide: Bool,
        _ call: (FSM<State, Event>) async -> Void
    ) async throws -> Step {
        let fsm = try machine(type, wide: wide)
        recorder.calls = []
        await call(fsm)
        return Step(state: fsm.state, calls: recorder.calls)
    }

    /// Values of every type the tables use, one they do not (`Enforcement`), and values no
    /// case has (`Level(7)`, `Wide(400)`).
    static let values: [any Predicate] = [
        A.x, A.y, B.y, Level(value: 1), Level(value: 7), Enforcement.weak, Wide(value: 260), Wide(value: 400),
    ]

    func open1(_ fsm: FSM<State, Event>, _ p1: some Predicate) async {
        await fsm.handleEvent(.coin, predicates: p1)
    }

    func open2(_ fsm: FSM<State, Event>, _ p1: some Predicate, _ p2: some Predicate) async {
        await fsm.handleEvent(.coin, predicates: p1, p2)
    }

    func open3(_ fsm: FSM<State, Event>, _ p1: some Predicate, _ p2: some Predicate, _ p3: some Predicate) async {
        await fsm.handleEvent(.coin, predicates: p1, p2, p3)
    }

    /// The way the fixed-arity forms read predicates whose types are known where they are
    /// inlined (release builds; `PredicateValues`). A debug build's forms, unspecialised,
    /// take the other way, the values erased into a buffer on the stack, which the calls
    /// through `open1`, `open2` and `open3` test.
    func direct<A: Predicate, B: Predicate, C: Predicate>(_ fsm: FSM<State, Event>, _ a: A, _ b: B, _ c: C) async {
        if let index = fsm.handleSynchronously(.coin, PredicateValues(a, b, c), nil) {
            await fsm.table.fire(index, with: .coin)
        }
    }

    @Test(
        "Every one, two and three predicates (repeated types, unknown types, values no case has) dispatch as the array form, both ways the fixed-arity forms read them",
        arguments: bothHandlings,
        [false, true]
    )
    func agreesWithArrayForm(type: Handling, wide: Bool) async throws {
        // One machine per form, built once (building an eager table for each of the 1,752
        // calls took most of a minute under the thread sanitizer) and set back to its
        // initial state before each call: index 0 of its states, as `buildTable` leaves it.
        let arrayForm = try machine(type, wide: wide)
        let fixedForm = try machine(type, wide: wide)
        let valuesForm = try machine(type, wide: wide)
        func outcome(_ fsm: FSM<State, Event>, _ call: (FSM<State, Event>) async -> Void) async -> Step {
            fsm.stateIndex = 0
            recorder.calls = []
            await call(fsm)
            return Step(state: fsm.state, calls: recorder.calls)
        }
        let values = Self.values
        var compared = 0
        for first in values {
            let array = await outcome(arrayForm) { await $0.handleEvent(.coin, predicates: [first]) }
            let fixed = await outcome(fixedForm) { await open1($0, first) }
            #expect(fixed == array, "\(first)")
            let throughValues = await outcome(valuesForm) {
                await direct($0, first, NoPredicate.none, NoPredicate.none)
            }
            #expect(throughValues == array, "\(first), direct")
            compared += 1
            for second in values {
                let array = await outcome(arrayForm) { await $0.handleEvent(.coin, predicates: [first, second]) }
                let fixed = await outcome(fixedForm) { await open2($0, first, second) }
                #expect(fixed == array, "\(first), \(second)")
                let throughValues = await outcome(valuesForm) { await direct($0, first, second, NoPredicate.none) }
                #expect(throughValues == array, "\(first), \(second), direct")
                compared += 1
                for third in values {
                    let array = await outcome(arrayForm) {
                        await $0.handleEvent(.coin, predicates: [first, second, third])
                    }
                    let fixed = await outcome(fixedForm) { await open3($0, first, second, third) }
                    #expect(fixed == array, "\(first), \(second), \(third)")
                    let throughValues = await outcome(valuesForm) { await direct($0, first, second, third) }
                    #expect(throughValues == array, "\(first), \(second), \(third), direct")
                    compared += 1
                }
            }
        }
        #expect(compared == 8 + 64 + 512)
    }

    @Test(
        "Fixed-arity calls written with literal predicates pick the right row",
        arguments: bothHandlings,
        [false, true]
    )
    func literalCalls(type: Handling, wide: Bool) async throws {
        let cases: [(Step, Step)] = [
            // Both of A and B: the most specific row that matches.
            (
                try await outcome(type, wide: wide) { await $0.handleEvent(.coin, predicates: A.x, B.y) },
                Step(state: .alarming, calls: ["AxBy"])
            ),
            // The order of the predicates does not matter.
            (
                try await outcome(type, wide: wide) {
                    await $0.handleEvent(.coin, predicates: Level(value: 1), B.y, A.x)
                },
                Step(state: .unlocked, calls: ["AxByL1"])
            ),
            (
                try await outcome(type, wide: wide) { await $0.handleEvent(.coin, predicates: A.x) },
                Step(state: .verifyingPayment, calls: ["Ax"])
            ),
            // A type passed twice: the first value counts.
            (
                try await outcome(type, wide: wide) { await $0.handleEvent(.coin, predicates: A.y, A.x, B.z) },
                Step(state: .unlocked, calls: ["AyBz"])
            ),
            (
                try await outcome(type, wide: wide) { await $0.handleEvent(.coin, predicates: A.x, A.y, B.z) },
                Step(state: .verifyingPayment, calls: ["Ax"])
            ),
            // A type the table does not use is ignored.
            (
                try await outcome(type, wide: wide) {
                    await $0.handleEvent(.coin, predicates: Enforcement.strong, A.x, B.y)
                },
                Step(state: .alarming, calls: ["AxBy"])
            ),
            // A value no case has matches no row.
            (
                try await outcome(type, wide: wide) {
                    await $0.handleEvent(.coin, predicates: A.x, Level(value: 7), B.y)
                },
                Step(state: .alarming, calls: ["AxBy"])
            ),
            (
                try await outcome(type, wide: wide) { await $0.handleEvent(.coin, predicates: Level(value: 7)) },
                Step(state: .locked, calls: [])
            ),
            // No row for the values passed.
            (
                try await outcome(type, wide: wide) { await $0.handleEvent(.coin, predicates: A.z) },
                Step(state: .locked, calls: [])
            ),
            (
                try await outcome(type, wide: wide) { await $0.handleEvent(.coin, predicates: B.y, A.y) },
                Step(state: .locked, calls: [])
            ),
            // Four predicates take the variadic form, with the same rules; a later value of a
            // type with a case counts when the first has none.
            (
                try await outcome(type, wide: wide) {
                    await $0.handleEvent(.coin, predicates: Level(value: 7), Level(value: 1), A.x, B.y)
                },
                Step(state: .unlocked, calls: ["AxByL1"])
            ),
        ]
        for (found, expected) in cases { #expect(found == expected) }
        if wide {
            let high = try await outcome(type, wide: wide) {
                await $0.handleEvent(.coin, predicates: Wide(value: 260), A.z)
            }
            #expect(high == Step(state: .unlocked, calls: ["AzW260"]))
            let low = try await outcome(type, wide: wide) {
                await $0.handleEvent(.coin, predicates: A.z, Wide(value: 3), B.y)
            }
            #expect(low == Step(state: .alarming, calls: ["AzW3By"]))
            let none = try await outcome(type, wide: wide) {
                await $0.handleEvent(.coin, predicates: A.z, Wide(value: 400), B.y)
            }
            #expect(none == Step(state: .locked, calls: []))
        } else {
            let both = try await outcome(type, wide: wide) {
                await $0.handleEvent(.coin, predicates: Level(value: 2), A.z)
            }
            #expect(both == Step(state: .alarming, calls: ["AzL2"]))
        }
    }

    @MainActor
    @Test("OnMainActor's fixed-arity forms dispatch as FSM's", arguments: bothHandlings)
    func onMainActor(type: Handling) async throws {
        let recorder = recorder
        func machine() throws -> FSM<State, Event>.OnMainActor {
            let fsm = FSM<State, Event>.OnMainActor(type: type, initialState: .locked)
            try fsm.buildTable {
                define(.locked) {
                    matching(A.x, and: B.y, C.z) | when(.coin) | then(.unlocked) | { recorder.calls.append("AxByCz") }
                    matching(A.x, and: B.y) | when(.coin) | then(.alarming) | { recorder.calls.append("AxBy") }
                    matching(A.x) | when(.coin) | then(.verifyingPayment) | { recorder.calls.append("Ax") }
                }
            }
            return fsm
        }
        let three = try machine()
        await three.handleEvent(.coin, predicates: C.z, A.x, B.y)
        #expect(three.state == .unlocked)
        let two = try machine()
        await two.handleEvent(.coin, predicates: B.y, A.x)
        #expect(two.state == .alarming)
        let one = try machine()
        await one.handleEvent(.coin, predicates: A.x)
        #expect(one.state == .verifyingPayment)
        let none = try machine()
        await none.handleEvent(.coin, predicates: A.y, B.y, C.z)
        #expect(none.state == .locked)
        let four = try machine()
        await four.handleEvent(.coin, predicates: A.x, B.y, C.z, Enforcement.weak)
        #expect(four.state == .unlocked)
        #expect(recorder.calls == ["AxByCz", "AxBy", "Ax", "AxByCz"])
    }
}
