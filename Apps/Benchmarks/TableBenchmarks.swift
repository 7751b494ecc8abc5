import Foundation
import StateMachineSupport
import StateMachineTable

/// Benchmarks of the Table product: `swift run -c release Benchmarks table`.
///
/// Every figure is measured against a baseline that does the same work by hand, in the
/// same run:
/// - the turnstile through `FSM.handleEvent` against a hand-written nested `switch`
///   behind one `async` call per event, with the same counters and the same
///   1,000,000-event sequence;
/// - 100 transitions x 3 predicate types x 10 cases, in two shapes, eager and lazy:
///   `buildTable` time, all-arena heap bytes per table (see ``MemoryProbe``), and
///   `handleEvent` with three predicates against a hand-written dispatch over the same rows
///   (the fixed-arity form, with the array form and `any Predicate` values as references);
/// - `FSM.OnMainActor` driven from the main actor against a plain `FSM` driven from a
///   nonisolated context, and against an actor that must be hopped to per event.
enum TableBenchmarks {
    static let eventCount = 1_000_000

    static func run(_ report: SuiteReport) async throws {
        if report.wants("turnstile") { try await turnstile(report) }
        if report.wants("predicates") { try await predicates(report) }
        if report.wants("main-actor") { try await mainActor(report) }
    }

    // MARK: - Turnstile

    static func turnstileEvents() -> [TurnstileEvent] {
        var random = SplitMix64(seed: 42)
        return (0..<eventCount).map { _ in random.next() % 2 == 0 ? .coin : .pass }
    }

    static func turnstile(_ report: SuiteReport) async throws {
        let events = turnstileEvents()
        let baseline = SwitchTurnstile()
        let counters = Counters()
        let fsm = try TurnstileTable(counters: counters).machine()
        let samples = try await Harness.interleaved(
            repetitions: report.repetitions,
            operations: eventCount,
            [
                {
                    baseline.reset()
                    for event in events { await baseline.handle(event) }
                },
                {
                    counters.reset()
                    for event in events { await fsm.handleEvent(event) }
                },
            ]
        )
        guard counters == baseline.counters else {
            throw BenchmarkError("FSM counters \(counters) differ from the switch's \(baseline.counters)")
        }
        report.add(
            "turnstile.handleEvent",
            unit: "ns/event",
            samples[1],
            baseline: ("nested switch, one async call per event", samples[0]),
            target: .ratioAtMost(1.15)
        )
    }

    // MARK: - Predicates

    static func predicates(_ report: SuiteReport) async throws {
        for shape in PredicateShape.allCases {
            let sequence = shape.sequence(count: eventCount / 4)
            let hand = HandPredicateDispatch(shape: shape)
            for type in [FSM<BenchState, BenchEvent>.PredicateHandling.eager, .lazy] {
                let name = "predicates.\(shape.label).\(type)"
                var fired = 0
                let count = { fired += 1 }
                let build = try Harness.repeated(report.repetitions) {
                    let start = ContinuousClock.now
                    let fsm = FSM<BenchState, BenchEvent>(type: type, initialState: .s0)
                    try shape.build(fsm, count)
                    return (ContinuousClock.now - start).nanoseconds / 1e6
                }
                report.add("\(name).buildTable", unit: "ms", build, target: .atMost(100))
                // swift-fsm 0.9.6 keeps 107,091 bytes for the three-type eager table (issue 27).
                let isThreeTypeEager = shape == .allThree && type == .eager
                try report.addMemory(
                    "\(name).memory-per-table",
                    probe: name,
                    target: isThreeTypeEager ? .atMost(107_091) : nil,
                    note: isThreeTypeEager ? "a built table; swift-fsm's: 107,091 bytes" : "a built table"
                )

                let fsm = FSM<BenchState, BenchEvent>(type: type, initialState: .s0)
                try shape.build(fsm, count)
                let existentials = PredicateShape.existentials(sequence)
                let samples = try await Harness.interleaved(
                    repetitions: report.repetitions,
                    operations: sequence.count,
                    [
                        {
                            hand.reset()
                            for step in sequence { await hand.handle(step) }
                        },
                        {
                            fired = 0
                            for step in sequence {
                                await fsm.handleEvent(step.event, predicates: step.p1, step.p2, step.p3)
                            }
                        },
                        {
                            fired = 0
                            for step in sequence {
                                await fsm.handleEvent(step.event, predicates: [step.p1, step.p2, step.p3])
                            }
                        },
                        {
                            fired = 0
                            for (step, values) in zip(sequence, existentials) {
                                await fsm.handleEvent(step.event, predicates: values[0], values[1], values[2])
                            }
                        },
                    ]
                )
                guard fired == sequence.count, hand.fired == sequence.count else {
                    throw BenchmarkError(
                        "\(name): \(fired) (table) and \(hand.fired) (by hand) of \(sequence.count) events fired"
                    )
                }
                report.add(
                    "\(name).handleEvent",
                    unit: "ns/event",
                    samples[1],
                    baseline: ("hand-written dispatch over the same rows", samples[0]),
                    target: .ratioAtMost(1.5)
                )
                report.add(
                    "\(name).handleEvent-array",
                    unit: "ns/event",
                    samples[2],
                    baseline: ("hand-written dispatch over the same rows", samples[0]),
                    note: "reference: the same predicates in an array, `predicates: [any Predicate]`"
                )
                report.add(
                    "\(name).handleEvent-existentials",
                    unit: "ns/event",
                    samples[3],
                    baseline: ("hand-written dispatch over the same rows", samples[0]),
                    note: "reference: three `any Predicate` values of types unknown at the call, one by one"
                )
            }
        }
    }

    /// The predicate tables whose memory ``predicates(_:)`` reports, each measured in a
    /// fresh process (`table.predicates.SHAPE.TYPE`).
    static var memoryProbes: [MemoryProbe] {
        PredicateShape.allCases.flatMap { shape in
            [FSM<BenchState, BenchEvent>.PredicateHandling.eager, .lazy].map { type in
                MemoryProbe(name: "table.predicates.\(shape.label).\(type)", count: 50) { count in
                    try (0..<count).map { _ in
                        let fsm = FSM<BenchState, BenchEvent>(type: type, initialState: .s0)
                        try shape.build(fsm, {})
                        return fsm
                    }
                }
            }
        }
    }

    // MARK: - Main actor

    static func mainActor(_ report: SuiteReport) async throws {
        let events = turnstileEvents()
        let plain = try TurnstileTable(counters: Counters()).machine()
        var nonisolated: [Double] = []
        var onMain: [Double] = []
        // Interleaved by hand: one run is on the main actor, the other off it.
        try await MainActorRun.warmUp(events)
        for _ in 0..<report.repetitions {
            let start = ContinuousClock.now
            for event in events { await plain.handleEvent(event) }
            nonisolated.append((ContinuousClock.now - start).nanoseconds / Double(eventCount))
            onMain.append(try await MainActorRun.onMainActor(events) / Double(eventCount))
        }
        report.add(
            "main-actor.OnMainActor",
            unit: "ns/event",
            Sample(values: onMain),
            baseline: ("FSM from nonisolated code", Sample(values: nonisolated)),
            target: .ratioAtMost(2),
            note: "no hop to another actor; two executor switches per event (the Table article's Speed section)"
        )
        // A hop costs microseconds; a tenth of the events is enough to show it.
        let hopEvents = Array(events.prefix(eventCount / 10))
        var hops: [Double] = []
        for _ in 0..<report.repetitions {
            hops.append(try await MainActorRun.hopToActor(hopEvents) / Double(hopEvents.count))
        }
        report.add(
            "main-actor.hop-per-event",
            unit: "ns/event",
            Sample(values: hops),
            baseline: ("FSM from nonisolated code", Sample(values: nonisolated)),
            note: "reference: what OnMainActor saves"
        )
    }
}

/// The predicate tables' rows written as a hand-written dispatch: for the state and the
/// event, try the same five rows in order, comparing the same predicate cases.
final class HandPredicateDispatch {
    let shape: PredicateShape
    var state = 0
    var fired = 0

    init(shape: PredicateShape) { self.shape = shape }

    func reset() {
        state = 0
        fired = 0
    }

    @inline(never)
    func handle(_ step: PredicateShape.Step) async {
        let event = step.event == .e0 ? 0 : 1
        for row in 0..<5 {
            let matches: Bool
            switch shape {
            case .allThree:
                matches =
                    step.p1.rawValue == row && step.p2.rawValue == (row + state + event) % 10
                    && step.p3.rawValue == (3 * row + state) % 10
            case .oneEach:
                let values = [step.p1.rawValue, step.p2.rawValue, step.p3.rawValue]
                matches = values[(state + event) % 3] == (row * 2 + state) % 10
            }
            if matches {
                state = (state + 1 + row) % 10
                fired += 1
                return
            }
        }
    }
}

// MARK: - Turnstile machines

enum TurnstileState: Hashable, Sendable { case locked, unlocked }
enum TurnstileEvent: Hashable, Sendable { case coin, pass }

/// The counters both turnstiles update, one per action.
final class Counters: Equatable, CustomStringConvertible {
    var unlock = 0, alarm = 0, thankyou = 0, lock = 0

    func reset() { (unlock, alarm, thankyou, lock) = (0, 0, 0, 0) }

    static func == (lhs: Counters, rhs: Counters) -> Bool {
        (lhs.unlock, lhs.alarm, lhs.thankyou, lhs.lock) == (rhs.unlock, rhs.alarm, rhs.thankyou, rhs.lock)
    }

    var description: String { "unlock \(unlock) alarm \(alarm) thankyou \(thankyou) lock \(lock)" }
}

/// The hand-written baseline: a nested switch.
final class SwitchTurnstile {
    var state = TurnstileState.locked
    let counters = Counters()

    func reset() {
        state = .locked
        counters.reset()
    }

    /// One `async` call per event, like `handleEvent`.
    @inline(never)
    func handle(_ event: TurnstileEvent) async {
        handleSync(event)
    }

    @inline(never)
    func handleSync(_ event: TurnstileEvent) {
        switch state {
        case .locked:
            switch event {
            case .coin:
                state = .unlocked
                counters.unlock += 1
            case .pass:
                counters.alarm += 1
            }
        case .unlocked:
            switch event {
            case .coin:
                counters.thankyou += 1
            case .pass:
                state = .locked
                counters.lock += 1
            }
        }
    }
}

/// The README turnstile as a table.
struct TurnstileTable: SyntaxBuilder {
    typealias State = TurnstileState
    typealias Event = TurnstileEvent

    let counters: Counters

    func unlock() { counters.unlock += 1 }
    func alarm() { counters.alarm += 1 }
    func thankyou() { counters.thankyou += 1 }
    func lock() { counters.lock += 1 }

    func machine() throws -> FSM<State, Event> {
        let turnstile = FSM<State, Event>(initialState: .locked)
        try turnstile.buildTable {
            define(.locked) {
                when(.coin) | then(.unlocked) | unlock
                when(.pass) | then(.locked) | alarm
            }

            define(.unlocked) {
                when(.coin) | then(.unlocked) | thankyou
                when(.pass) | then(.locked) | lock
            }
        }
        return turnstile
    }
}

/// Drives the turnstile from the main actor.
@MainActor
enum MainActorRun {
    static func onMainActor(_ events: [TurnstileEvent]) async throws -> Double {
        let counters = Counters()
        let fsm = FSM<TurnstileState, TurnstileEvent>.OnMainActor(initialState: .locked)
        let table = TurnstileTable(counters: counters)
        try fsm.buildTable {
            table.define(.locked) {
                table.when(.coin) | table.then(.unlocked) | table.unlock
                table.when(.pass) | table.then(.locked) | table.alarm
            }
            table.define(.unlocked) {
                table.when(.coin) | table.then(.unlocked) | table.thankyou
                table.when(.pass) | table.then(.locked) | table.lock
            }
        }
        let start = ContinuousClock.now
        for event in events { await fsm.handleEvent(event) }
        return (ContinuousClock.now - start).nanoseconds
    }

    /// One untimed run of each measured loop.
    static func warmUp(_ events: [TurnstileEvent]) async throws {
        _ = try await onMainActor(events)
    }

    /// The same turnstile owned by an actor: every event from the main actor hops to it.
    static func hopToActor(_ events: [TurnstileEvent]) async throws -> Double {
        let owner = try TurnstileActor()
        let start = ContinuousClock.now
        for event in events { await owner.handle(event) }
        return (ContinuousClock.now - start).nanoseconds
    }
}

actor TurnstileActor {
    let fsm: FSM<TurnstileState, TurnstileEvent>

    init() throws {
        fsm = try TurnstileTable(counters: Counters()).machine()
    }

    func handle(_ event: TurnstileEvent) async {
        await fsm.handleEvent(event)
    }
}

// MARK: - Predicate tables

enum BenchState: Hashable, Sendable, CaseIterable { case s0, s1, s2, s3, s4, s5, s6, s7, s8, s9 }
enum BenchEvent: Hashable, Sendable, CaseIterable { case e0, e1 }
enum P1: Int, StateMachineTable.Predicate { case c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 }
enum P2: Int, StateMachineTable.Predicate { case c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 }
enum P3: Int, StateMachineTable.Predicate { case c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 }

/// The two shapes of the issue: every row naming all three predicate types, and every
/// row naming one of them. Each has 10 states x 2 events x 5 rows.
enum PredicateShape: String, CaseIterable {
    case allThree = "100 rows naming 3 types"
    case oneEach = "100 rows naming 1 type"

    /// The shape's name in figure names.
    var label: String {
        switch self {
        case .allThree: "three-types"
        case .oneEach: "one-type"
        }
    }

    func build(_ fsm: FSM<BenchState, BenchEvent>, _ count: @escaping () -> Void) throws {
        switch self {
        case .allThree: try PredicateTables().allThreeTypes(fsm, count)
        case .oneEach: try PredicateTables().oneTypeEach(fsm, count)
        }
    }

    struct Step {
        let event: BenchEvent
        let p1: P1, p2: P2, p3: P3
    }

    /// Each step's predicates as `any Predicate` values, from a function that is not
    /// inlined, so that the calls that pass them cannot know their types.
    @inline(never)
    static func existentials(_ sequence: [Step]) -> [[any StateMachineTable.Predicate]] {
        sequence.map { [$0.p1, $0.p2, $0.p3] }
    }

    /// Events with predicates that always hit a row, following the table from `s0` back
    /// to `s0` so the sequence can be replayed (the same formulas as the generated
    /// tables below).
    func sequence(count: Int) -> [Step] {
        var random = SplitMix64(seed: 7)
        var state = 0
        var steps: [Step] = []
        while steps.count < count || state != 0 {
            let event = Int(random.next() % 2)
            // Row r goes to (state + 1 + r) % 10; once long enough, head back to s0.
            let homeward = (10 - state - 1) % 10
            let row = steps.count >= count && homeward < 5 ? homeward : Int(random.next() % 5)
            var cases = (0..<3).map { _ in Int(random.next() % 10) }
            switch self {
            case .allThree:
                cases = [row, (row + state + event) % 10, (3 * row + state) % 10]
            case .oneEach:
                cases[(state + event) % 3] = (row * 2 + state) % 10
            }
            let step = Step(
                event: BenchEvent.allCases[event],
                p1: P1.allCases[cases[0]],
                p2: P2.allCases[cases[1]],
                p3: P3.allCases[cases[2]]
            )
            state = (state + 1 + row) % 10
            steps.append(step)
        }
        return steps
    }
}

// MARK: - Helpers

// Written out by a throwaway script: 100 transitions (10 states x 2 events x 5 rows), in
// two shapes. Written out because the table language, like swift-fsm's, has no loops.
struct PredicateTables: ExpandedSyntaxBuilder {
    typealias State = BenchState
    typealias Event = BenchEvent

    func allThreeTypes(_ fsm: FSM<BenchState, BenchEvent>, _ count: @escaping () -> Void) throws {
        try fsm.buildTable {
            define(.s0) {
                matching(P1.c0, and: P2.c0, P3.c0) | when(.e0) | then(.s1) | count
                matching(P1.c1, and: P2.c1, P3.c3) | when(.e0) | then(.s2) | count
                matching(P1.c2, and: P2.c2, P3.c6) | when(.e0) | then(.s3) | count
                matching(P1.c3, and: P2.c3, P3.c9) | when(.e0) | then(.s4) | count
                matching(P1.c4, and: P2.c4, P3.c2) | when(.e0) | then(.s5) | count
                matching(P1.c0, and: P2.c1, P3.c0) | when(.e1) | then(.s1) | count
                matching(P1.c1, and: P2.c2, P3.c3) | when(.e1) | then(.s2) | count
                matching(P1.c2, and: P2.c3, P3.c6) | when(.e1) | then(.s3) | count
                matching(P1.c3, and: P2.c4, P3.c9) | when(.e1) | then(.s4) | count
                matching(P1.c4, and: P2.c5, P3.c2) | when(.e1) | then(.s5) | count
            }
            define(.s1) {
                matching(P1.c0, and: P2.c1, P3.c1) | when(.e0) | then(.s2) | count
                matching(P1.c1, and: P2.c2, P3.c4) | when(.e0) | then(.s3) | count
                matching(P1.c2, and: P2.c3, P3.c7) | when(.e0) | then(.s4) | count
                matching(P1.c3, and: P2.c4, P3.c0) | when(.e0) | then(.s5) | count
                matching(P1.c4, and: P2.c5, P3.c3) | when(.e0) | then(.s6) | count
                matching(P1.c0, and: P2.c2, P3.c1) | when(.e1) | then(.s2) | count
                matching(P1.c1, and: P2.c3, P3.c4) | when(.e1) | then(.s3) | count
                matching(P1.c2, and: P2.c4, P3.c7) | when(.e1) | then(.s4) | count
                matching(P1.c3, and: P2.c5, P3.c0) | when(.e1) | then(.s5) | count
                matching(P1.c4, and: P2.c6, P3.c3) | when(.e1) | then(.s6) | count
            }
            define(.s2) {
                matching(P1.c0, and: P2.c2, P3.c2) | when(.e0) | then(.s3) | count
                matching(P1.c1, and: P2.c3, P3.c5) | when(.e0) | then(.s4) | count
                matching(P1.c2, and: P2.c4, P3.c8) | when(.e0) | then(.s5) | count
                matching(P1.c3, and: P2.c5, P3.c1) | when(.e0) | then(.s6) | count
                matching(P1.c4, and: P2.c6, P3.c4) | when(.e0) | then(.s7) | count
                matching(P1.c0, and: P2.c3, P3.c2) | when(.e1) | then(.s3) | count
                matching(P1.c1, and: P2.c4, P3.c5) | when(.e1) | then(.s4) | count
                matching(P1.c2, and: P2.c5, P3.c8) | when(.e1) | then(.s5) | count
                matching(P1.c3, and: P2.c6, P3.c1) | when(.e1) | then(.s6) | count
                matching(P1.c4, and: P2.c7, P3.c4) | when(.e1) | then(.s7) | count
            }
            define(.s3) {
                matching(P1.c0, and: P2.c3, P3.c3) | when(.e0) | then(.s4) | count
                matching(P1.c1, and: P2.c4, P3.c6) | when(.e0) | then(.s5) | count
                matching(P1.c2, and: P2.c5, P3.c9) | when(.e0) | then(.s6) | count
                matching(P1.c3, and: P2.c6, P3.c2) | when(.e0) | then(.s7) | count
                matching(P1.c4, and: P2.c7, P3.c5) | when(.e0) | then(.s8) | count
                matching(P1.c0, and: P2.c4, P3.c3) | when(.e1) | then(.s4) | count
                matching(P1.c1, and: P2.c5, P3.c6) | when(.e1) | then(.s5) | count
                matching(P1.c2, and: P2.c6, P3.c9) | when(.e1) | then(.s6) | count
                matching(P1.c3, and: P2.c7, P3.c2) | when(.e1) | then(.s7) | count
                matching(P1.c4, and: P2.c8, P3.c5) | when(.e1) | then(.s8) | count
            }
            define(.s4) {
                matching(P1.c0, and: P2.c4, P3.c4) | when(.e0) | then(.s5) | count
                matching(P1.c1, and: P2.c5, P3.c7) | when(.e0) | then(.s6) | count
                matching(P1.c2, and: P2.c6, P3.c0) | when(.e0) | then(.s7) | count
                matching(P1.c3, and: P2.c7, P3.c3) | when(.e0) | then(.s8) | count
                matching(P1.c4, and: P2.c8, P3.c6) | when(.e0) | then(.s9) | count
                matching(P1.c0, and: P2.c5, P3.c4) | when(.e1) | then(.s5) | count
                matching(P1.c1, and: P2.c6, P3.c7) | when(.e1) | then(.s6) | count
                matching(P1.c2, and: P2.c7, P3.c0) | when(.e1) | then(.s7) | count
                matching(P1.c3, and: P2.c8, P3.c3) | when(.e1) | then(.s8) | count
                matching(P1.c4, and: P2.c9, P3.c6) | when(.e1) | then(.s9) | count
            }
            define(.s5) {
                matching(P1.c0, and: P2.c5, P3.c5) | when(.e0) | then(.s6) | count
                matching(P1.c1, and: P2.c6, P3.c8) | when(.e0) | then(.s7) | count
                matching(P1.c2, and: P2.c7, P3.c1) | when(.e0) | then(.s8) | count
                matching(P1.c3, and: P2.c8, P3.c4) | when(.e0) | then(.s9) | count
                matching(P1.c4, and: P2.c9, P3.c7) | when(.e0) | then(.s0) | count
                matching(P1.c0, and: P2.c6, P3.c5) | when(.e1) | then(.s6) | count
                matching(P1.c1, and: P2.c7, P3.c8) | when(.e1) | then(.s7) | count
                matching(P1.c2, and: P2.c8, P3.c1) | when(.e1) | then(.s8) | count
                matching(P1.c3, and: P2.c9, P3.c4) | when(.e1) | then(.s9) | count
                matching(P1.c4, and: P2.c0, P3.c7) | when(.e1) | then(.s0) | count
            }
            define(.s6) {
                matching(P1.c0, and: P2.c6, P3.c6) | when(.e0) | then(.s7) | count
                matching(P1.c1, and: P2.c7, P3.c9) | when(.e0) | then(.s8) | count
                matching(P1.c2, and: P2.c8, P3.c2) | when(.e0) | then(.s9) | count
                matching(P1.c3, and: P2.c9, P3.c5) | when(.e0) | then(.s0) | count
                matching(P1.c4, and: P2.c0, P3.c8) | when(.e0) | then(.s1) | count
                matching(P1.c0, and: P2.c7, P3.c6) | when(.e1) | then(.s7) | count
                matching(P1.c1, and: P2.c8, P3.c9) | when(.e1) | then(.s8) | count
                matching(P1.c2, and: P2.c9, P3.c2) | when(.e1) | then(.s9) | count
                matching(P1.c3, and: P2.c0, P3.c5) | when(.e1) | then(.s0) | count
                matching(P1.c4, and: P2.c1, P3.c8) | when(.e1) | then(.s1) | count
            }
            define(.s7) {
                matching(P1.c0, and: P2.c7, P3.c7) | when(.e0) | then(.s8) | count
                matching(P1.c1, and: P2.c8, P3.c0) | when(.e0) | then(.s9) | count
                matching(P1.c2, and: P2.c9, P3.c3) | when(.e0) | then(.s0) | count
                matching(P1.c3, and: P2.c0, P3.c6) | when(.e0) | then(.s1) | count
                matching(P1.c4, and: P2.c1, P3.c9) | when(.e0) | then(.s2) | count
                matching(P1.c0, and: P2.c8, P3.c7) | when(.e1) | then(.s8) | count
                matching(P1.c1, and: P2.c9, P3.c0) | when(.e1) | then(.s9) | count
                matching(P1.c2, and: P2.c0, P3.c3) | when(.e1) | then(.s0) | count
                matching(P1.c3, and: P2.c1, P3.c6) | when(.e1) | then(.s1) | count
                matching(P1.c4, and: P2.c2, P3.c9) | when(.e1) | then(.s2) | count
            }
            define(.s8) {
                matching(P1.c0, and: P2.c8, P3.c8) | when(.e0) | then(.s9) | count
                matching(P1.c1, and: P2.c9, P3.c1) | when(.e0) | then(.s0) | count
                matching(P1.c2, and: P2.c0, P3.c4) | when(.e0) | then(.s1) | count
                matching(P1.c3, and: P2.c1, P3.c7) | when(.e0) | then(.s2) | count
                matching(P1.c4, and: P2.c2, P3.c0) | when(.e0) | then(.s3) | count
                matching(P1.c0, and: P2.c9, P3.c8) | when(.e1) | then(.s9) | count
                matching(P1.c1, and: P2.c0, P3.c1) | when(.e1) | then(.s0) | count
                matching(P1.c2, and: P2.c1, P3.c4) | when(.e1) | then(.s1) | count
                matching(P1.c3, and: P2.c2, P3.c7) | when(.e1) | then(.s2) | count
                matching(P1.c4, and: P2.c3, P3.c0) | when(.e1) | then(.s3) | count
            }
            define(.s9) {
                matching(P1.c0, and: P2.c9, P3.c9) | when(.e0) | then(.s0) | count
                matching(P1.c1, and: P2.c0, P3.c2) | when(.e0) | then(.s1) | count
                matching(P1.c2, and: P2.c1, P3.c5) | when(.e0) | then(.s2) | count
                matching(P1.c3, and: P2.c2, P3.c8) | when(.e0) | then(.s3) | count
                matching(P1.c4, and: P2.c3, P3.c1) | when(.e0) | then(.s4) | count
                matching(P1.c0, and: P2.c0, P3.c9) | when(.e1) | then(.s0) | count
                matching(P1.c1, and: P2.c1, P3.c2) | when(.e1) | then(.s1) | count
                matching(P1.c2, and: P2.c2, P3.c5) | when(.e1) | then(.s2) | count
                matching(P1.c3, and: P2.c3, P3.c8) | when(.e1) | then(.s3) | count
                matching(P1.c4, and: P2.c4, P3.c1) | when(.e1) | then(.s4) | count
            }
        }
    }

    func oneTypeEach(_ fsm: FSM<BenchState, BenchEvent>, _ count: @escaping () -> Void) throws {
        try fsm.buildTable {
            define(.s0) {
                matching(P1.c0) | when(.e0) | then(.s1) | count
                matching(P1.c2) | when(.e0) | then(.s2) | count
                matching(P1.c4) | when(.e0) | then(.s3) | count
                matching(P1.c6) | when(.e0) | then(.s4) | count
                matching(P1.c8) | when(.e0) | then(.s5) | count
                matching(P2.c0) | when(.e1) | then(.s1) | count
                matching(P2.c2) | when(.e1) | then(.s2) | count
                matching(P2.c4) | when(.e1) | then(.s3) | count
                matching(P2.c6) | when(.e1) | then(.s4) | count
                matching(P2.c8) | when(.e1) | then(.s5) | count
            }
            define(.s1) {
                matching(P2.c1) | when(.e0) | then(.s2) | count
                matching(P2.c3) | when(.e0) | then(.s3) | count
                matching(P2.c5) | when(.e0) | then(.s4) | count
                matching(P2.c7) | when(.e0) | then(.s5) | count
                matching(P2.c9) | when(.e0) | then(.s6) | count
                matching(P3.c1) | when(.e1) | then(.s2) | count
                matching(P3.c3) | when(.e1) | then(.s3) | count
                matching(P3.c5) | when(.e1) | then(.s4) | count
                matching(P3.c7) | when(.e1) | then(.s5) | count
                matching(P3.c9) | when(.e1) | then(.s6) | count
            }
            define(.s2) {
                matching(P3.c2) | when(.e0) | then(.s3) | count
                matching(P3.c4) | when(.e0) | then(.s4) | count
                matching(P3.c6) | when(.e0) | then(.s5) | count
                matching(P3.c8) | when(.e0) | then(.s6) | count
                matching(P3.c0) | when(.e0) | then(.s7) | count
                matching(P1.c2) | when(.e1) | then(.s3) | count
                matching(P1.c4) | when(.e1) | then(.s4) | count
                matching(P1.c6) | when(.e1) | then(.s5) | count
                matching(P1.c8) | when(.e1) | then(.s6) | count
                matching(P1.c0) | when(.e1) | then(.s7) | count
            }
            define(.s3) {
                matching(P1.c3) | when(.e0) | then(.s4) | count
                matching(P1.c5) | when(.e0) | then(.s5) | count
                matching(P1.c7) | when(.e0) | then(.s6) | count
                matching(P1.c9) | when(.e0) | then(.s7) | count
                matching(P1.c1) | when(.e0) | then(.s8) | count
                matching(P2.c3) | when(.e1) | then(.s4) | count
                matching(P2.c5) | when(.e1) | then(.s5) | count
                matching(P2.c7) | when(.e1) | then(.s6) | count
                matching(P2.c9) | when(.e1) | then(.s7) | count
                matching(P2.c1) | when(.e1) | then(.s8) | count
            }
            define(.s4) {
                matching(P2.c4) | when(.e0) | then(.s5) | count
                matching(P2.c6) | when(.e0) | then(.s6) | count
                matching(P2.c8) | when(.e0) | then(.s7) | count
                matching(P2.c0) | when(.e0) | then(.s8) | count
                matching(P2.c2) | when(.e0) | then(.s9) | count
                matching(P3.c4) | when(.e1) | then(.s5) | count
                matching(P3.c6) | when(.e1) | then(.s6) | count
                matching(P3.c8) | when(.e1) | then(.s7) | count
                matching(P3.c0) | when(.e1) | then(.s8) | count
                matching(P3.c2) | when(.e1) | then(.s9) | count
            }
            define(.s5) {
                matching(P3.c5) | when(.e0) | then(.s6) | count
                matching(P3.c7) | when(.e0) | then(.s7) | count
                matching(P3.c9) | when(.e0) | then(.s8) | count
                matching(P3.c1) | when(.e0) | then(.s9) | count
                matching(P3.c3) | when(.e0) | then(.s0) | count
                matching(P1.c5) | when(.e1) | then(.s6) | count
                matching(P1.c7) | when(.e1) | then(.s7) | count
                matching(P1.c9) | when(.e1) | then(.s8) | count
                matching(P1.c1) | when(.e1) | then(.s9) | count
                matching(P1.c3) | when(.e1) | then(.s0) | count
            }
            define(.s6) {
                matching(P1.c6) | when(.e0) | then(.s7) | count
                matching(P1.c8) | when(.e0) | then(.s8) | count
                matching(P1.c0) | when(.e0) | then(.s9) | count
                matching(P1.c2) | when(.e0) | then(.s0) | count
                matching(P1.c4) | when(.e0) | then(.s1) | count
                matching(P2.c6) | when(.e1) | then(.s7) | count
                matching(P2.c8) | when(.e1) | then(.s8) | count
                matching(P2.c0) | when(.e1) | then(.s9) | count
                matching(P2.c2) | when(.e1) | then(.s0) | count
                matching(P2.c4) | when(.e1) | then(.s1) | count
            }
            define(.s7) {
                matching(P2.c7) | when(.e0) | then(.s8) | count
                matching(P2.c9) | when(.e0) | then(.s9) | count
                matching(P2.c1) | when(.e0) | then(.s0) | count
                matching(P2.c3) | when(.e0) | then(.s1) | count
                matching(P2.c5) | when(.e0) | then(.s2) | count
                matching(P3.c7) | when(.e1) | then(.s8) | count
                matching(P3.c9) | when(.e1) | then(.s9) | count
                matching(P3.c1) | when(.e1) | then(.s0) | count
                matching(P3.c3) | when(.e1) | then(.s1) | count
                matching(P3.c5) | when(.e1) | then(.s2) | count
            }
            define(.s8) {
                matching(P3.c8) | when(.e0) | then(.s9) | count
                matching(P3.c0) | when(.e0) | then(.s0) | count
                matching(P3.c2) | when(.e0) | then(.s1) | count
                matching(P3.c4) | when(.e0) | then(.s2) | count
                matching(P3.c6) | when(.e0) | then(.s3) | count
                matching(P1.c8) | when(.e1) | then(.s9) | count
                matching(P1.c0) | when(.e1) | then(.s0) | count
                matching(P1.c2) | when(.e1) | then(.s1) | count
                matching(P1.c4) | when(.e1) | then(.s2) | count
                matching(P1.c6) | when(.e1) | then(.s3) | count
            }
            define(.s9) {
                matching(P1.c9) | when(.e0) | then(.s0) | count
                matching(P1.c1) | when(.e0) | then(.s1) | count
                matching(P1.c3) | when(.e0) | then(.s2) | count
                matching(P1.c5) | when(.e0) | then(.s3) | count
                matching(P1.c7) | when(.e0) | then(.s4) | count
                matching(P2.c9) | when(.e1) | then(.s0) | count
                matching(P2.c1) | when(.e1) | then(.s1) | count
                matching(P2.c3) | when(.e1) | then(.s2) | count
                matching(P2.c5) | when(.e1) | then(.s3) | count
                matching(P2.c7) | when(.e1) | then(.s4) | count
            }
        }
    }
}
