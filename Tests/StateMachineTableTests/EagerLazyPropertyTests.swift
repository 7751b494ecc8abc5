import StateMachineSupport
import Testing

@testable import StateMachineTable

/// The strong form of "eager and lazy agree": random tables (random rows naming random
/// subsets of three predicate types, with random conditions), built both ways, must
/// either throw the same problems or behave the same on random event sequences with
/// random (sometimes incomplete, sometimes foreign, sometimes repeated) predicates.
///
/// Rows are generated below the DSL (a result builder cannot loop), straight into the
/// values the DSL produces; the DSL itself is covered by the other suites.
@Suite("Eager and lazy tables agree on generated tables")
struct EagerLazyPropertyTests {
    typealias Machine = FSM<Int, Int>

    static func predicate(_ type: Int, _ value: Int) -> any Predicate {
        switch type {
        case 0: A.allCases[value]
        case 1: B.allCases[value]
        default: C.allCases[value]
        }
    }

    /// A random table of 3 states x 3 events with up to 14 rows; each row has its actions
    /// append the row's number to `log`.
    static func table(seed: UInt64, log: Recorder) -> [Syntax.Define<Int, Int>] {
        var random = SplitMix64(seed: seed)
        let location = StatementLocation(file: "Generated.swift", line: 1)
        return (0..<3).map { state in
            let rows: [PartialRow<Int, Int>] = (0..<Int.random(in: 1...5, using: &random)).map { number in
                var row = PartialRow<Int, Int>()
                row.events = [Int.random(in: 0..<3, using: &random)]
                row.next = Bool.random(using: &random) ? .stay : .state(Int.random(in: 0..<3, using: &random))
                let types = (0..<3).filter { _ in Int.random(in: 0..<3, using: &random) == 0 }
                row.matches = [types.map { PredicateValue(predicate($0, Int.random(in: 0..<3, using: &random))) }]
                if Int.random(in: 0..<6, using: &random) == 0 {
                    let verdict = Bool.random(using: &random)
                    row.conditions = [{ verdict }]
                }
                let name = "s\(state)r\(number)"
                row.actions = [AnyAction { log.calls.append(name) }]
                row.locations = [StatementLocation(file: "Generated.swift", line: state * 10 + number)]
                return row
            }
            return Syntax.Define(
                state: state,
                superStates: [],
                onEntry: [AnyAction { log.calls.append("enter\(state)") }],
                onExit: [AnyAction { log.calls.append("exit\(state)") }],
                fragment: Fragment(rows: rows),
                location: location,
                id: ScopeID.next()
            )
        }
    }

    struct Outcome: Equatable {
        var errors: [String] = []
        var trace: [String] = []
    }

    /// How the generated predicates reach the machine.
    enum Form: CaseIterable {
        /// `handleEvent(_:predicates: [any Predicate])`.
        case array
        /// The fixed-arity forms for one to three predicates (opened to their static types),
        /// `handleEvent(_:)` for none, and the array form for more.
        case fixedArity
        /// As `fixedArity`, but always through the reading the fixed-arity forms use for
        /// types known where they are inlined (`PredicateValues`, release builds); a debug
        /// build's forms erase the values into a buffer instead.
        case direct
    }

    static func handleDirect(_ fsm: Machine, _ event: Int, _ predicates: [any Predicate]) async {
        func direct<A: Predicate, B: Predicate, C: Predicate>(_ a: A, _ b: B, _ c: C) async {
            if let index = fsm.handleSynchronously(event, PredicateValues(a, b, c), nil) {
                await fsm.table.fire(index, with: event)
            }
        }
        switch predicates.count {
        case 1: await direct(predicates[0], NoPredicate.none, NoPredicate.none)
        case 2: await direct(predicates[0], predicates[1], NoPredicate.none)
        case 3: await direct(predicates[0], predicates[1], predicates[2])
        default: await handleFixed(fsm, event, predicates)
        }
    }

    /// Sends `event` with `predicates` through the fixed-arity form of their count.
    static func handleFixed(_ fsm: Machine, _ event: Int, _ predicates: [any Predicate]) async {
        switch predicates.count {
        case 0: await fsm.handleEvent(event)
        case 1: await handle(fsm, event, predicates[0])
        case 2: await handle(fsm, event, predicates[0], predicates[1])
        case 3: await handle(fsm, event, predicates[0], predicates[1], predicates[2])
        default: await fsm.handleEvent(event, predicates: predicates)
        }
    }

    static func handle(_ fsm: Machine, _ event: Int, _ p1: some Predicate) async {
        await fsm.handleEvent(event, predicates: p1)
    }

    static func handle(_ fsm: Machine, _ event: Int, _ p1: some Predicate, _ p2: some Predicate) async {
        await fsm.handleEvent(event, predicates: p1, p2)
    }

    static func handle(
        _ fsm: Machine,
        _ event: Int,
        _ p1: some Predicate,
        _ p2: some Predicate,
        _ p3: some Predicate
    ) async {
        await fsm.handleEvent(event, predicates: p1, p2, p3)
    }

    static func run(_ type: Machine.PredicateHandling, _ form: Form = .array, seed: UInt64) async -> Outcome {
        let log = Recorder()
        let fsm = Machine(type: type, initialState: 0)
        var outcome = Outcome()
        do {
            try fsm.build(table(seed: seed, log: log), at: StatementLocation(file: "Generated.swift", line: 0))
        } catch let error as SwiftFSMError {
            outcome.errors = error.errors.map(\.description)
            return outcome
        } catch {
            outcome.errors = ["\(error)"]
            return outcome
        }
        var random = SplitMix64(seed: seed ^ 0xABCD)
        for _ in 0..<40 {
            let event = Int.random(in: 0..<4, using: &random)  // 3 is never in a table
            var predicates = (0..<3).compactMap { type in
                Int.random(in: 0..<5, using: &random) == 0
                    ? nil : predicate(type, Int.random(in: 0..<3, using: &random))
            }
            if Int.random(in: 0..<5, using: &random) == 0 { predicates.append(Enforcement.strong) }
            // Sometimes a type twice: its first value counts.
            if Int.random(in: 0..<5, using: &random) == 0 {
                predicates.append(
                    predicate(Int.random(in: 0..<3, using: &random), Int.random(in: 0..<3, using: &random))
                )
            }
            log.calls = []
            switch form {
            case .array: await fsm.handleEvent(event, predicates: predicates)
            case .fixedArity: await handleFixed(fsm, event, predicates)
            case .direct: await handleDirect(fsm, event, predicates)
            }
            outcome.trace.append("\(event) \(predicates.map { "\($0)" }) -> \(fsm.state) \(log.calls)")
        }
        return outcome
    }

    @Test(
        "300 generated tables: same errors or same behaviour, through the array and fixed-arity forms",
        arguments: 0..<3
    )
    func agree(batch: UInt64) async {
        var built = 0
        for seed in (batch * 100)..<(batch * 100 + 100) {
            let eager = await Self.run(.eager, seed: seed)
            let lazy = await Self.run(.lazy, seed: seed)
            #expect(eager == lazy, "seed \(seed)")
            #expect(await Self.run(.eager, .fixedArity, seed: seed) == eager, "seed \(seed), eager, fixed arity")
            #expect(await Self.run(.lazy, .fixedArity, seed: seed) == eager, "seed \(seed), lazy, fixed arity")
            #expect(await Self.run(.eager, .direct, seed: seed) == eager, "seed \(seed), eager, direct")
            #expect(await Self.run(.lazy, .direct, seed: seed) == eager, "seed \(seed), lazy, direct")
            if eager.errors.isEmpty { built += 1 }
        }
        // Both kinds of table must occur, or the property says little.
        #expect(built > 10 && built < 100, "\(built) of 100 tables built")
    }
}
