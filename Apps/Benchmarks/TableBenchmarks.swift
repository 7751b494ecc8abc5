import Foundation
import StateMachineTable

/// Benchmarks of the Table product: `swift run -c release Benchmarks table`.
///
/// Every figure is a ratio against a baseline measured in the same run:
/// - the turnstile through `FSM.handleEvent` against a hand-written nested `switch`
///   behind one `async` call per event (and against a plain synchronous switch), with
///   the same counters and the same 1,000,000-event sequence;
/// - 100 transitions x 3 predicate types x 10 cases, in two shapes, eager and lazy:
///   `buildTable` time and memory, and `handleEvent` with three predicates;
/// - `FSM.OnMainActor` driven from the main actor against a plain `FSM` driven from a
///   nonisolated context, and against an actor that must be hopped to per event.
enum TableBenchmarks {
    static let eventCount = 1_000_000

    static func run() async throws {
        try await turnstile()
        try await predicates()
        try await mainActor()
        Harness.report("peak resident memory of this run", value: Double(peakResidentBytes()) / 1_048_576, unit: "MB")
    }

    /// The process's peak resident set (`VmHWM` in `/proc/self/status`), in bytes.
    static func peakResidentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
        let kilobytes = line?.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return kilobytes * 1024
    }

    // MARK: - Turnstile

    static func turnstileEvents() -> [TurnstileEvent] {
        var random = SplitMix(seed: 42)
        return (0..<eventCount).map { _ in random.next() % 2 == 0 ? .coin : .pass }
    }

    static func turnstile() async throws {
        let events = turnstileEvents()

        let baseline = SwitchTurnstile()
        let switchAsync = await Harness.bestOf {
            baseline.reset()
            for event in events { await baseline.handle(event) }
        }
        let switchSync = Harness.bestOfSync {
            baseline.reset()
            for event in events { baseline.handleSync(event) }
        }

        let counters = Counters()
        let table = TurnstileTable(counters: counters)
        let fsm = try table.machine()
        let fsmTime = await Harness.bestOf {
            counters.reset()
            for event in events { await fsm.handleEvent(event) }
        }
        guard counters == baseline.counters else {
            throw BenchmarkError("FSM counters \(counters) differ from the switch's \(baseline.counters)")
        }

        let perEvent = fsmTime / Double(eventCount)
        let asyncPerEvent = switchAsync / Double(eventCount)
        Harness.report("turnstile switch, async call/event", value: asyncPerEvent, unit: "ns/event")
        Harness.report("turnstile switch, sync", value: switchSync / Double(eventCount), unit: "ns/event")
        Harness.report(
            "turnstile FSM.handleEvent vs async switch",
            value: perEvent,
            unit: "ns/event",
            baseline: asyncPerEvent,
            target: "<= 3x",
            pass: perEvent <= 3 * asyncPerEvent
        )
        Harness.report(
            "turnstile FSM.handleEvent vs sync switch",
            value: perEvent,
            unit: "ns/event",
            baseline: switchSync / Double(eventCount)
        )
    }

    // MARK: - Predicates

    static func predicates() async throws {
        let asyncBaseline = SwitchTurnstile()
        let turnstileEvents = turnstileEvents()
        let switchAsync =
            await Harness.bestOf {
                asyncBaseline.reset()
                for event in turnstileEvents { await asyncBaseline.handle(event) }
            } / Double(eventCount)

        for shape in PredicateShape.allCases {
            let sequence = shape.sequence(count: eventCount / 4)
            for type in [FSM<BenchState, BenchEvent>.PredicateHandling.eager, .lazy] {
                var fired = 0
                let count = { fired += 1 }
                let before = Harness.residentBytes()
                var machines: [FSM<BenchState, BenchEvent>] = []
                let build = try Harness.bestOfSync(3) {
                    let fsm = FSM<BenchState, BenchEvent>(type: type, initialState: .s0)
                    try shape.build(fsm, count)
                    machines.append(fsm)
                }
                let memory = Double(Harness.residentBytes() - before) / Double(machines.count) / 1_048_576
                let fsm = FSM<BenchState, BenchEvent>(type: type, initialState: .s0)
                try shape.build(fsm, count)

                let time = await Harness.bestOf {
                    fired = 0
                    for step in sequence {
                        await fsm.handleEvent(step.event, predicates: step.p1, step.p2, step.p3)
                    }
                }
                guard fired == sequence.count else {
                    throw BenchmarkError("\(shape) \(type): \(fired) of \(sequence.count) events fired a transition")
                }
                let perEvent = time / Double(sequence.count)
                let name = "\(shape.rawValue), \(type)"
                Harness.report(
                    "buildTable \(name)",
                    value: build / 1e6,
                    unit: "ms",
                    target: "< 100 ms",
                    pass: build < 100e6
                )
                Harness.report("  memory per table (RSS delta)", value: max(memory, 0), unit: "MB")
                Harness.report(
                    "  handleEvent+3 predicates vs async switch",
                    value: perEvent,
                    unit: "ns/event",
                    baseline: switchAsync,
                    target: "< 200 ns",
                    pass: perEvent < 200
                )
            }
        }
    }

    // MARK: - Main actor

    static func mainActor() async throws {
        let events = turnstileEvents()
        let counters = Counters()
        let table = TurnstileTable(counters: counters)
        let plain = try table.machine()
        let nonisolated =
            await Harness.bestOf {
                for event in events { await plain.handleEvent(event) }
            } / Double(eventCount)
        let onMain = try await MainActorRun.onMainActor(events) / Double(eventCount)
        // A hop costs microseconds; a tenth of the events is enough to show it.
        let hopEvents = Array(events.prefix(eventCount / 10))
        let hop = try await MainActorRun.hopToActor(hopEvents) / Double(hopEvents.count)
        Harness.report("FSM from nonisolated code", value: nonisolated, unit: "ns/event")
        Harness.report(
            "FSM.OnMainActor from the main actor",
            value: onMain,
            unit: "ns/event",
            baseline: nonisolated,
            target: "no hop (about 1x)",
            pass: onMain < 2 * nonisolated
        )
        Harness.report(
            "main actor -> actor hop per event (reference)",
            value: hop,
            unit: "ns/event",
            baseline: nonisolated
        )
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
        return await bestOf {
            for event in events { await fsm.handleEvent(event) }
        }
    }

    /// The same turnstile owned by an actor: every event from the main actor hops to it.
    static func hopToActor(_ events: [TurnstileEvent]) async throws -> Double {
        let owner = try TurnstileActor()
        return await bestOf {
            for event in events { await owner.handle(event) }
        }
    }

    /// `Harness.bestOf` measured on the main actor: the harness's function is
    /// nonisolated, so it would move the loop off the main actor being measured.
    static func bestOf(_ repetitions: Int = 5, _ body: () async -> Void) async -> Double {
        await body()
        var best = Double.infinity
        for _ in 0..<repetitions {
            let start = ContinuousClock.now
            await body()
            best = min(best, (ContinuousClock.now - start).nanoseconds)
        }
        return best
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
enum P1: StateMachineTable.Predicate { case c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 }
enum P2: StateMachineTable.Predicate { case c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 }
enum P3: StateMachineTable.Predicate { case c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 }

/// The two shapes of the issue: every row naming all three predicate types, and every
/// row naming one of them. Each has 10 states x 2 events x 5 rows.
enum PredicateShape: String, CaseIterable {
    case allThree = "100 rows naming 3 types"
    case oneEach = "100 rows naming 1 type"

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

    /// Events with predicates that always hit a row, following the table from `s0` back
    /// to `s0` so the sequence can be replayed (the same formulas as the generated
    /// tables below).
    func sequence(count: Int) -> [Step] {
        var random = SplitMix(seed: 7)
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

/// A small deterministic generator, so every run measures the same sequences.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

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
