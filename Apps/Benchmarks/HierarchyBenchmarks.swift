import Foundation
import StateMachineHierarchy
import StateMachineSCXML
import StateMachineTable
import Synchronization

/// Benchmarks of the Hierarchy product, each scenario against a baseline that does the
/// same work by hand (`swift run -c release Benchmarks hierarchy`):
/// - an 8-state flat ring through `Statechart.handle` (by a resolved event, by name, and
///   `await send`), against a hand-written ring and against the Table product's `FSM` on
///   the same ring, and with a Swift guard and action on every transition against the ring
///   without them and against a hand-written switch calling the same closures;
/// - the flat ring with 10 observers of every state's entries and exits, against the same
///   notifications made and delivered by hand;
/// - the seed's nested fixture (deep, local and external transitions, into and out of a
///   parallel state), a fork/join cycle, and a cycle through deep history, a delayed
///   transition's timer, a final state's done event and an eventless transition, each
///   against hand-written region variables and switches, bare and doing the same work a
///   chart's `handle` does around its step (see `SameWork`);
/// - heap allocations per event on the ring and the nested fixture;
/// - an SCXML document against the same chart built in Swift with the same options.
enum HierarchyBenchmarks {
    typealias Chart = Statechart<String, String, Int>

    static let ringSize = 8
    static let ringEvents = 200_000
    static let cycleEvents = 100_000

    static func run(_ report: SuiteReport) async throws {
        if report.wants("flat-ring") { try await flatRing(report) }
        if report.wants("observers") { try observers(report) }
        if report.wants("nested-fixture") {
            try cycle(report, "nested-fixture", nestedCycle, chart: nestedChart(), hand: HandNested(), target: 90)
        }
        if report.wants("fork-join-cycle") {
            try cycle(report, "fork-join-cycle", forkJoinEvents, chart: nestedChart(), hand: HandNested(), target: 110)
        }
        if report.wants("history-timer-done-cycle") { try featureCycle(report) }
        if report.wants("allocations") { try allocations(report) }
        if report.wants("scxml") { try scxml(report) }
        if report.wants("memory") { try memory(report) }
        try ScaleBenchmarks.run(report)
        try ECMAScriptBenchmarks.run(report)
    }

    // MARK: Profiling

    /// The statechart scenarios `Benchmarks profile NAME EVENTS` runs: only the chart's
    /// events (a whole number of cycles, at least `EVENTS`), untimed and without a
    /// baseline, so that an instruction counter sees the step and little else. The
    /// instructions per event are the difference between two runs, divided by the
    /// difference in events:
    ///
    /// ```sh
    /// valgrind --tool=cachegrind --cache-sim=no .build/release/Benchmarks profile nested-fixture 20000
    /// valgrind --tool=cachegrind --cache-sim=no .build/release/Benchmarks profile nested-fixture 40000
    /// ```
    static let profiles: [(name: String, run: @Sendable (Int) throws -> Void)] = [
        ("flat-ring", { try profile(ring(), ["next"], events: $0, start: true) }),
        ("flat-ring-blocks", { try profile(ringWithBlocks(BlockCounter()), ["next"], events: $0, start: true) }),
        ("nested-fixture", { try profile(nestedChart(), nestedCycle, events: $0) }),
        ("fork-join-cycle", { try profile(nestedChart(), forkJoinEvents, events: $0) }),
        ("history-timer-done-cycle", { try profile(featureChart(), featureEvents, events: $0, start: true) }),
        (
            "scxml-ring",
            { events in
                let interpreter = SCXMLInterpreter(document: try SCXMLDocument(xml: ringSCXML), recordsTrace: false)
                try interpreter.start()
                for _ in 0..<events { try interpreter.send("next") }
            }
        ),
        (
            "scxml-ecmascript-ring",
            { events in
                let document = try SCXMLDocument(xml: ECMAScriptBenchmarks.ringSCXML, dataModel: .ecmascript)
                let interpreter = SCXMLInterpreter(document: document, recordsTrace: false)
                try interpreter.start()
                for _ in 0..<events { try interpreter.send("next") }
            }
        ),
        (
            "scxml-ring-traced",
            { events in
                let interpreter = SCXMLInterpreter(document: try SCXMLDocument(xml: ringSCXML))
                try interpreter.start()
                for _ in 0..<events { try interpreter.send("next") }
            }
        ),
    ]

    /// Handles `cycle` on `chart` (started first when `start`) until at least `events`
    /// events are handled.
    static func profile(_ chart: Chart, _ cycle: [String], events: Int, start: Bool = false) throws {
        if start { chart.start() }
        let resolved = try cycle.map { try chart.resolve($0) }
        for _ in 0..<(events + cycle.count - 1) / cycle.count {
            for event in resolved { try chart.handle(event) }
        }
    }

    // MARK: Flat ring

    /// The flat ring written by hand: a state number and a switch on the event.
    final class HandRing {
        var state: UInt8 = 0
        var transitions = 0

        @inline(never)
        func handle(_ event: Int) {
            switch event {
            case 0: state = state == 7 ? 0 : state + 1
            default: return
            }
            transitions += 1
        }
    }

    /// The flat ring written by hand with the chart's blocks: a switch on the event that
    /// calls the same guard and action bodies, kept per state in arrays of closures as a
    /// hand-written machine keeps them.
    final class HandRingWithBlocks {
        var state = 0
        let guards: [(Int?) -> Bool]
        let actions: [(Int?) -> Void]

        init(_ counter: BlockCounter) {
            guards = (0..<ringSize).map { _ in { _ in counter.value >= 0 } }
            actions = (0..<ringSize).map { _ in { _ in counter.value += 1 } }
        }

        @inline(never)
        func handle(_ event: Int, payload: Int? = nil) {
            switch event {
            case 0:
                guard guards[state](payload) else { return }
                actions[state](payload)
                state = state == ringSize - 1 ? 0 : state + 1
            default: return
            }
        }
    }

    enum RingState: Hashable, Sendable { case s0, s1, s2, s3, s4, s5, s6, s7 }
    enum RingEvent: Hashable, Sendable { case next }

    /// The same ring as a `StateMachineTable` table.
    struct RingTable: SyntaxBuilder {
        typealias State = RingState
        typealias Event = RingEvent

        func machine() throws -> FSM<RingState, RingEvent> {
            let fsm = FSM<RingState, RingEvent>(initialState: .s0)
            try fsm.buildTable {
                define(.s0) { when(.next) | then(.s1) }
                define(.s1) { when(.next) | then(.s2) }
                define(.s2) { when(.next) | then(.s3) }
                define(.s3) { when(.next) | then(.s4) }
                define(.s4) { when(.next) | then(.s5) }
                define(.s5) { when(.next) | then(.s6) }
                define(.s6) { when(.next) | then(.s7) }
                define(.s7) { when(.next) | then(.s0) }
            }
            return fsm
        }
    }

    static func ring(options: StatechartOptions = StatechartOptions()) throws -> Chart {
        try Chart(name: "ring", options: options) {
            for index in 0..<ringSize {
                Chart.State("s\(index)").on("next", to: "s\((index + 1) % ringSize)")
            }
        }
    }

    /// A Swift variable the ring's guards and actions read and write.
    final class BlockCounter: @unchecked Sendable {
        // @unchecked Sendable: only the chart's step (one thread at a time) touches `value`.
        var value = 0
    }

    /// The flat ring with a guard and an action on every transition, on `counter`.
    static func ringWithBlocks(
        _ counter: BlockCounter,
        options: StatechartOptions = StatechartOptions()
    ) throws -> Chart {
        try Chart(name: "ring", options: options) {
            for index in 0..<ringSize {
                Chart.State("s\(index)").on(
                    "next",
                    to: "s\((index + 1) % ringSize)",
                    action: { _ in counter.value += 1 },
                    guard: { _ in counter.value >= 0 }
                )
            }
        }
    }

    static func flatRing(_ report: SuiteReport) async throws {
        let hand = HandRing()
        let fsm = try RingTable().machine()
        let chart = try ring()
        chart.start()
        let next = try chart.resolve("next")
        let counter = BlockCounter()
        let withBlocks = try ringWithBlocks(counter)
        withBlocks.start()
        let nextWithBlocks = try withBlocks.resolve("next")
        let handCounter = BlockCounter()
        let handWithBlocks = HandRingWithBlocks(handCounter)
        let samples = try await Harness.interleaved(
            repetitions: report.repetitions,
            operations: ringEvents,
            [
                { for _ in 0..<ringEvents { hand.handle(0) } },
                { for _ in 0..<ringEvents { await fsm.handleEvent(.next) } },
                { for _ in 0..<ringEvents { try chart.handle(next) } },
                { for _ in 0..<ringEvents { try chart.handle("next") } },
                { for _ in 0..<ringEvents { try await chart.send(next) } },
                { for _ in 0..<ringEvents { try withBlocks.handle(nextWithBlocks) } },
                { for _ in 0..<ringEvents { handWithBlocks.handle(0) } },
            ]
        )
        guard hand.transitions > 0, chart.activeStates == ["s0"], withBlocks.activeStates == ["s0"],
            counter.value > 0, counter.value % ringEvents == 0, handCounter.value == counter.value,
            handWithBlocks.state == 0
        else {
            throw BenchmarkError("the flat ring did not go round")
        }
        let (handRing, table, resolved, byName, send) = (samples[0], samples[1], samples[2], samples[3], samples[4])
        report.add("flat-ring.table-fsm", unit: "ns/event", table, baseline: ("hand ring", handRing))
        report.add(
            "flat-ring.handle",
            unit: "ns/event",
            resolved,
            baseline: ("hand ring", handRing),
            target: .atMost(45),
            note: "handle(chart.resolve(\"next\"))"
        )
        report.add(
            "flat-ring.handle-vs-table",
            unit: "ns/event",
            resolved,
            baseline: ("table FSM", table),
            target: .ratioAtMost(1.25)
        )
        report.add(
            "flat-ring.handle-by-name",
            unit: "ns/event",
            byName,
            baseline: ("hand ring", handRing),
            note: "handle(\"next\"): the resolved path plus one lookup of the name's bytes"
        )
        report.add(
            "flat-ring.await-send",
            unit: "ns/event",
            send,
            baseline: ("handle", resolved),
            target: .atMost(resolved.median + 60),
            note: "target: handle + 60 ns"
        )
        report.add(
            "flat-ring.handle-with-blocks",
            unit: "ns/event",
            samples[5],
            baseline: ("handle, the ring without blocks", resolved),
            // Called unspecialised (the chart's types unknown where its blocks are called),
            // the two blocks cost some 800 ns an event.
            target: .atMost(250),
            note: "a guard and an action (Swift closures on a counter) per transition"
        )
        report.add(
            "flat-ring.blocks-vs-switch",
            unit: "ns/event",
            samples[5],
            baseline: ("hand-written switch calling the same closures", samples[6]),
            target: .ratioAtMost(1.3),
            note: "the ring with a guard and an action per transition, against the same closures called by hand"
        )
    }

    // MARK: Nested fixture and fork/join

    /// The seed's statemachine.json (the fixture of its nested spec), embedded.
    static func nestedChart() throws -> Chart {
        let chart = try Chart(try Chart.definition(fromJSON: statemachineJSON))
        chart.start()
        return chart
    }

    /// Deep transitions, local transitions, into and out of a parallel state; ends where it starts (a/a1).
    static let nestedCycle = [
        "a_guard",  // a/a1 -> b/b1 (handled by the outer state a)
        "b_b22",  // local, deep into b/b2/b22
        "b22_b",  // local, back to b's initial b1
        "b_a3",  // -> a/a3
        "a3_b22",  // deep: a3 -> b/b2/b22
        "b22_b",  // local
        "b_b3",  // into the parallel state b3 (both regions default-entered)
        "b311_a1",  // out of a parallel region to the top
        "a_a2",  // external, containing -> contained
        "a2_a",  // external, contained -> containing
    ]

    /// Into the parallel state c2 through a fork, out through a join, back to a/a1.
    static let forkJoinEvents = ["a_fork", "c212_join", "c222_join", "b_a3", "a3_a1"]

    /// The nested fixture written by hand: one variable per region and a switch per
    /// event, taking the same transitions (with the same source checks) as the chart.
    final class HandNested {
        enum Top: UInt8 { case a, b, c }
        var top = Top.a
        var a: UInt8 = 1, b: UInt8 = 1, b2: UInt8 = 1, b31: UInt8 = 1, b32: UInt8 = 1
        var c: UInt8 = 1, c21: UInt8 = 1, c22: UInt8 = 1
        var joined = (false, false)
        var transitions = 0

        static let events = [
            "a_guard", "b_b22", "b22_b", "b_a3", "a3_b22", "b_b3", "b311_a1", "a_a2", "a2_a", "a_fork",
            "c212_join", "c222_join", "a3_a1",
        ]

        func code(_ name: String) -> Int { Self.events.firstIndex(of: name)! }

        func enterB(_ child: UInt8) {
            top = .b
            b = child
            if child == 2 { b2 = 1 }
            if child == 3 { (b31, b32) = (1, 1) }
        }

        @inline(never)
        func handle(_ event: Int) -> Bool {
            switch event {
            case 0 where top == .a: enterB(1)
            case 1 where top == .b: (b, b2) = (2, 2)
            case 2 where top == .b && b == 2 && b2 == 2: b = 1
            case 3 where top == .b: (top, a) = (.a, 3)
            case 4 where top == .a && a == 3: (top, b, b2) = (.b, 2, 2)
            case 5 where top == .b: enterB(3)
            case 6 where top == .b && b == 3 && b31 == 1: (top, a) = (.a, 1)
            case 7 where top == .a: a = 2
            case 8 where top == .a && a == 2: a = 1
            case 9 where top == .a: (top, c, c21, c22, joined) = (.c, 2, 2, 2, (false, false))
            case 10 where top == .c && c == 2 && c21 == 2: joined.0 = true
            case 11 where top == .c && c == 2 && c22 == 2:
                joined.1 = true
                if joined.0 && joined.1 { enterB(1) }
            case 12 where top == .a && a == 3: a = 1
            default: return false
            }
            transitions += 1
            return true
        }
    }

    /// What a chart's `handle` does around its step, by hand, so that a hand-written
    /// machine wrapped in it does the same work as the chart: any thread may call it (the
    /// caller claims the machine with one compare-and-exchange and hands it back after the
    /// step with another, as the chart's drainer role does), and the configuration of every
    /// completed step is published for readers on other threads (a sequence lock over one
    /// atomic per region, as `Statechart.activeStates` reads it).
    ///
    /// The hand-back is a compare-and-exchange, not a store, because a machine that accepts
    /// events from any thread and loses none must learn, as it hands itself back, whether
    /// one arrived during the step (the chart's drainer then runs it; a store cannot tell).
    /// Until 2026-12-02 this baseline handed back with a store and so did one atomic
    /// read-modify-write an event where the chart must do two.
    final class SameWork: Sendable {
        private let claimed = Atomic<Bool>(false)
        private let version = Atomic<UInt64>(0)
        /// One atomic per region. `nonisolated(unsafe)`: the pointer never changes after
        /// `init`; what it points to is atomics, used only through their operations.
        nonisolated(unsafe) private let published: UnsafeMutablePointer<Atomic<Int32>>
        private let regions: Int

        init(regions: Int) {
            self.regions = regions
            published = .allocate(capacity: regions)
            for region in 0..<regions { (published + region).initialize(to: Atomic(-1)) }
        }

        deinit {
            published.deinitialize(count: regions)
            published.deallocate()
        }

        /// Runs `step` as the machine's only runner, then publishes `configuration(region)`
        /// for every region; false when another thread holds the machine.
        @inline(__always)
        func run(_ step: () -> Bool, publishing configuration: (Int) -> Int32) -> Bool {
            guard claimed.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
                return false
            }
            let handled = step()
            let start = version.load(ordering: .relaxed)
            version.store(start &+ 1, ordering: .relaxed)
            atomicMemoryFence(ordering: .releasing)
            for region in 0..<regions { published[region].store(configuration(region), ordering: .relaxed) }
            version.store(start &+ 2, ordering: .releasing)
            // Nothing else is queued here (this baseline never queues); the exchange is the
            // check for it that a lossless hand-back makes.
            _ = claimed.compareExchange(expected: true, desired: false, ordering: .releasing)
            return handled
        }
    }

    /// The nested fixture by hand, doing the same work as the chart (see ``SameWork``).
    final class SameWorkNested {
        let hand = HandNested()
        /// The fixture's regions: the root, a's, b's, b2's, b3's two, c's and c2's two.
        let work = SameWork(regions: 9)

        @inline(never)
        func handle(_ event: Int) -> Bool {
            work.run(
                { hand.handle(event) },
                publishing: { region in
                    switch region {
                    case 0: Int32(hand.top.rawValue)
                    case 1: Int32(hand.a)
                    case 2: Int32(hand.b)
                    case 3: Int32(hand.b2)
                    case 4: Int32(hand.b31)
                    case 5: Int32(hand.b32)
                    case 6: Int32(hand.c)
                    case 7: Int32(hand.c21)
                    default: Int32(hand.c22)
                    }
                }
            )
        }
    }

    static func cycle(
        _ report: SuiteReport,
        _ name: String,
        _ events: [String],
        chart: Chart,
        hand: HandNested,
        target: Double
    ) throws {
        let resolved = try events.map { try chart.resolve($0) }
        let codes = events.map(hand.code)
        let rounds = cycleEvents / events.count
        let sameWork = SameWorkNested()
        let samples = try Harness.interleaved(
            repetitions: report.repetitions,
            operations: rounds * events.count,
            [
                {
                    for _ in 0..<rounds {
                        for code in codes where !hand.handle(code) { throw BenchmarkError("hand \(name) broke") }
                    }
                },
                {
                    for _ in 0..<rounds {
                        for code in codes where !sameWork.handle(code) {
                            throw BenchmarkError("same-work \(name) broke")
                        }
                    }
                },
                {
                    for _ in 0..<rounds {
                        for event in resolved where try chart.handle(event) != .handled {
                            throw BenchmarkError("\(name) broke at \(event.name)")
                        }
                    }
                },
            ]
        )
        guard chart.activeStates == ["a", "a1"], hand.top == .a, hand.a == 1, sameWork.hand.top == .a else {
            throw BenchmarkError("\(name) did not come back to a/a1")
        }
        report.add(
            "\(name).handle",
            unit: "ns/event",
            samples[2],
            baseline: ("hand-written regions", samples[0]),
            target: .atMost(target)
        )
        report.add(
            "\(name).handle-vs-same-work",
            unit: "ns/event",
            samples[2],
            baseline: ("hand-written regions, claimed and published (SameWork)", samples[1]),
            target: .ratioAtMost(1.5)
        )
    }

    // MARK: History, timer, done event, eventless transition

    /// `start` enters `work/step1` (arming a 60 s timer on a clock that never moves, so
    /// each visit schedules and cancels it), `next` moves on, `pause` leaves `work` (its deep
    /// history records `step2`), `resume` comes back through the history, and `finish`
    /// enters a final state whose done event leads to `review`, which an eventless
    /// transition leaves for `idle`: five events, ten transitions.
    static func featureChart() throws -> Chart {
        try Chart(name: "features", clock: ManualStatechartClock()) {
            Chart.State("idle")
                .on("start", to: "work")
                .on("resume", to: .history("work.history"))
            Chart.State("work") {
                Chart.State("step1").after(.seconds(60), to: "step2").on("next", to: "step2")
                Chart.State("step2").on("finish", to: "end")
                Chart.State(final: "end")
            }
            .history("work.history", .deep)
            .onDone(to: "review")
            .on("pause", to: "idle")
            Chart.State("review").always(to: "idle")
        }
    }

    static let featureEvents = ["start", "next", "pause", "resume", "finish"]

    /// The feature cycle by hand: the same configuration changes, a history variable, and
    /// a timer armed and cancelled on the same kind of manual clock.
    final class HandFeatures {
        enum Top { case idle, work, review }
        var top = Top.idle
        var work: UInt8 = 0
        var history: UInt8?
        let clock = ManualStatechartClock()
        var timer: StatechartTimer?
        var transitions = 0

        func enterWork(_ child: UInt8) {
            top = .work
            work = child
            if child == 1 { timer = clock.schedule(after: .seconds(60)) {} }
        }

        func leaveWork() {
            timer?.cancel()
            timer = nil
            history = work
        }

        @inline(never)
        func handle(_ event: Int) -> Bool {
            switch event {
            case 0 where top == .idle: enterWork(1)
            case 1 where top == .work && work == 1:
                timer?.cancel()
                timer = nil
                work = 2
            case 2 where top == .work:
                leaveWork()
                top = .idle
            case 3 where top == .idle: enterWork(history ?? 1)
            case 4 where top == .work && work == 2:
                work = 3
                // The final state completes `work`: its done event leads to review, and
                // review's eventless transition to idle.
                leaveWork()
                top = .review
                top = .idle
                transitions += 2
            default: return false
            }
            transitions += 1
            return true
        }
    }

    /// The feature cycle by hand, doing the same work as the chart (see ``SameWork``).
    final class SameWorkFeatures {
        let hand = HandFeatures()
        /// The chart's regions: the root and work's.
        let work = SameWork(regions: 2)

        @inline(never)
        func handle(_ event: Int) -> Bool {
            work.run(
                { hand.handle(event) },
                publishing: { region in
                    region == 0 ? Int32(hand.top == .idle ? 0 : hand.top == .work ? 1 : 2) : Int32(hand.work)
                }
            )
        }
    }

    static func featureCycle(_ report: SuiteReport) throws {
        let chart = try featureChart()
        chart.start()
        let hand = HandFeatures()
        let sameWork = SameWorkFeatures()
        let events = try featureEvents.map { try chart.resolve($0) }
        let rounds = cycleEvents / featureEvents.count
        let samples = try Harness.interleaved(
            repetitions: report.repetitions,
            operations: rounds * featureEvents.count,
            [
                {
                    for _ in 0..<rounds {
                        for code in 0..<5 where !hand.handle(code) { throw BenchmarkError("hand feature cycle broke") }
                    }
                },
                {
                    for _ in 0..<rounds {
                        for code in 0..<5 where !sameWork.handle(code) {
                            throw BenchmarkError("same-work feature cycle broke")
                        }
                    }
                },
                {
                    for _ in 0..<rounds {
                        for event in events where try chart.handle(event) != .handled {
                            throw BenchmarkError("feature cycle broke at \(event.name)")
                        }
                    }
                },
            ]
        )
        guard chart.activeStates == ["idle"], hand.top == .idle, sameWork.hand.top == .idle else {
            throw BenchmarkError("the feature cycle did not come back to idle")
        }
        report.add(
            "history-timer-done-cycle.handle",
            unit: "ns/event",
            samples[2],
            baseline: ("hand-written", samples[0]),
            target: .atMost(200)
        )
        report.add(
            "history-timer-done-cycle.handle-vs-same-work",
            unit: "ns/event",
            samples[2],
            baseline: ("hand-written, claimed and published (SameWork)", samples[1]),
            target: .ratioAtMost(1.5)
        )
    }

    // MARK: Observers

    /// What the hand-written ring tells its observers: the chart's `Notification`, by hand.
    struct HandNotification {
        enum Kind { case entered, exited }
        let kind: Kind
        let state: String
        let path: String
        let payload: Int?
    }

    /// The flat ring written by hand, telling observers of each state when it is exited and
    /// entered, as the chart does: each state's observers kept in arrays of closures.
    final class HandObservedRing {
        var state = 0
        let names = (0..<ringSize).map { "s\($0)" }
        var entered: [[(HandNotification) -> Void]] = Array(repeating: [], count: ringSize)
        var exited: [[(HandNotification) -> Void]] = Array(repeating: [], count: ringSize)

        @inline(never)
        func handle(_ event: Int, payload: Int? = nil) {
            switch event {
            case 0:
                let next = state == ringSize - 1 ? 0 : state + 1
                let exit = HandNotification(kind: .exited, state: names[state], path: names[state], payload: payload)
                for observer in exited[state] { observer(exit) }
                state = next
                let entry = HandNotification(kind: .entered, state: names[next], path: names[next], payload: payload)
                for observer in entered[next] { observer(entry) }
            default: return
            }
        }
    }

    static let observerCount = 10

    /// The flat ring with 10 observers of every state's entries and exits, against the same
    /// notifications made and delivered by hand.
    static func observers(_ report: SuiteReport) throws {
        let chart = try ring()
        let chartCounter = BlockCounter()
        var subscriptions: [StatechartSubscription] = []
        for _ in 0..<observerCount {
            for index in 0..<ringSize {
                for kind in [Chart.Notification.Kind.entered, .exited] {
                    subscriptions.append(try chart.observe(kind, at: "s\(index)") { _ in chartCounter.value += 1 })
                }
            }
        }
        chart.start()
        let next = try chart.resolve("next")
        let hand = HandObservedRing()
        let handCounter = BlockCounter()
        for _ in 0..<observerCount {
            for index in 0..<ringSize {
                hand.entered[index].append { _ in handCounter.value += 1 }
                hand.exited[index].append { _ in handCounter.value += 1 }
            }
        }
        let samples = try Harness.interleaved(
            repetitions: report.repetitions,
            operations: ringEvents,
            [
                { for _ in 0..<ringEvents { hand.handle(0) } },
                { for _ in 0..<ringEvents { try chart.handle(next) } },
            ]
        )
        // Both delivered 2 × 10 notifications per event (the chart also one entry at start).
        guard handCounter.value > 0, chartCounter.value == handCounter.value + observerCount else {
            throw BenchmarkError(
                "the observed rings did not deliver alike: \(chartCounter.value), \(handCounter.value)"
            )
        }
        withExtendedLifetime(subscriptions) {}
        report.add(
            "flat-ring.observers",
            unit: "ns/event",
            samples[1],
            baseline: ("the same notifications by hand", samples[0]),
            target: .ratioAtMost(1.3),
            note: "\(observerCount) observers of every state's entries and exits: 20 notifications an event"
        )
    }

    // MARK: Allocations

    static func allocations(_ report: SuiteReport) throws {
        guard Harness.countsAllocations else {
            print("hierarchy.allocations: not counted (sanitizer or non-glibc allocator)")
            return
        }
        let ringChart = try ring()
        ringChart.start()
        let next = try ringChart.resolve("next")
        let nested = try nestedChart()
        let cycle = try nestedCycle.map { try nested.resolve($0) }
        let rounds = cycleEvents / cycle.count
        let ringSample = try Harness.repeated(report.repetitions) {
            Double(try Harness.allocations { for _ in 0..<ringEvents { try ringChart.handle(next) } })
                / Double(ringEvents)
        }
        let nestedSample = try Harness.repeated(report.repetitions) {
            Double(
                try Harness.allocations {
                    for _ in 0..<rounds { for event in cycle { try nested.handle(event) } }
                }
            ) / Double(rounds * cycle.count)
        }
        // None per event: fewer than one allocation per thousand events (a buffer that
        // grows once, say, amortised over the run).
        report.add("flat-ring.mallocs", unit: "mallocs/event", ringSample, target: .atMost(0.001))
        report.add("nested-fixture.mallocs", unit: "mallocs/event", nestedSample, target: .atMost(0.001))
    }

    // MARK: SCXML

    /// The flat ring as an SCXML document.
    static let ringSCXML: String = {
        var xml = #"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="s0">"#
        for index in 0..<ringSize {
            xml += #"<state id="s\#(index)"><transition event="next" target="s\#((index + 1) % ringSize)"/></state>"#
        }
        return xml + "</scxml>"
    }()

    static func scxml(_ report: SuiteReport) throws {
        let document = try SCXMLDocument(xml: ringSCXML)
        let interpreter = SCXMLInterpreter(document: document, recordsTrace: false)
        try interpreter.start()
        let tracing = SCXMLInterpreter(document: document)
        try tracing.start()
        let chart = try ring(options: .scxml)
        chart.start()
        let samples = try Harness.interleaved(
            repetitions: report.repetitions,
            operations: ringEvents,
            [
                { for _ in 0..<ringEvents { try chart.handle("next") } },
                { for _ in 0..<ringEvents { try interpreter.send("next") } },
                { for _ in 0..<ringEvents { try tracing.send("next") } },
            ]
        )
        guard interpreter.activeStates == ["s0"], tracing.activeStates == ["s0"], chart.activeStates == ["s0"] else {
            throw BenchmarkError("the SCXML ring did not go round")
        }
        report.add(
            "scxml-ring.send",
            unit: "ns/event",
            samples[1],
            baseline: ("the ring built in Swift, .scxml options, handle(name)", samples[0]),
            target: .ratioAtMost(1.5),
            note: "SCXMLInterpreter(recordsTrace: false)"
        )
        report.add(
            "scxml-ring.send-recording-trace",
            unit: "ns/event",
            samples[2],
            baseline: ("the ring built in Swift, .scxml options, handle(name)", samples[0]),
            note: "the default: every macrostep records its trace"
        )
    }

    // MARK: Memory

    /// The started charts whose memory ``memory(_:)`` reports, each measured in a fresh
    /// process (see ``MemoryProbe``): 10,000 live charts made from one definition, which
    /// they share compiled, so each holds only its configuration, histories, timers and queue.
    static var memoryProbes: [MemoryProbe] {
        [
            MemoryProbe(name: "hierarchy.flat-ring-chart", count: 10_000) { count in
                let definition = try ring().definition
                return try (0..<count).map { _ in
                    let chart = try Chart(definition)
                    chart.start()
                    return chart
                }
            },
            MemoryProbe(name: "hierarchy.nested-fixture-chart", count: 10_000) { count in
                let definition = try Chart.definition(fromJSON: statemachineJSON)
                return try (0..<count).map { _ in
                    let chart = try Chart(definition)
                    chart.start()
                    return chart
                }
            },
        ]
    }

    static func memory(_ report: SuiteReport) throws {
        try report.addMemory(
            "memory.flat-ring-chart",
            probe: "flat-ring-chart",
            target: .atMost(2048),
            note: "a started chart, 10,000 from one definition"
        )
        try report.addMemory(
            "memory.nested-fixture-chart",
            probe: "nested-fixture-chart",
            target: .atMost(4096),
            note: "a started chart, 10,000 from one definition"
        )
    }
}

extension HierarchyBenchmarks {
    /// `Example/Tests/Fixtures/statemachine.json` from the TBStateMachine seed.
    static let statemachineJSON = #"""
        {
          "name": "main",
          "states": [
            {
              "name": "a",
              "states": [
                {
                  "name": "a1",
                  "type": "state"
                },
                {
                  "name": "a2",
                  "type": "state"
                },
                {
                  "name": "a3",
                  "type": "state"
                }
              ],
              "type": "sub"
            },
            {
              "name": "b",
              "states": [
                {
                  "name": "b1",
                  "type": "state"
                },
                {
                  "name": "b2",
                  "states": [
                    {
                      "name": "b21",
                      "type": "state"
                    },
                    {
                      "name": "b22",
                      "type": "state"
                    }
                  ],
                  "type": "sub"
                },
                {
                  "name": "b3",
                  "regions": [
                    [
                      {
                        "name": "b311",
                        "type": "state"
                      },
                      {
                        "name": "b312",
                        "type": "state"
                      }
                    ],
                    [
                      {
                        "name": "b321",
                        "type": "state"
                      },
                      {
                        "name": "b322",
                        "type": "state"
                      }
                    ]
                  ],
                  "type": "parallel"
                }
              ],
              "type": "sub"
            },
            {
              "name": "c",
              "states": [
                {
                  "name": "c1",
                  "type": "state"
                },
                {
                  "name": "c2",
                  "regions": [
                    [
                      {
                        "name": "c211",
                        "type": "state"
                      },
                      {
                        "name": "c212",
                        "type": "state"
                      }
                    ],
                    [
                      {
                        "name": "c221",
                        "type": "state"
                      },
                      {
                        "name": "c222",
                        "type": "state"
                      }
                    ]
                  ],
                  "type": "parallel"
                }
              ],
              "type": "sub"
            }
          ],
          "transitions": [
            {
              "type": "simple",
              "kind": "external",
              "name": "a2_a",
              "source": "a/a2",
              "target": "a"
            },
            {
              "type": "simple",
              "kind": "external",
              "name": "a_a2",
              "source": "a",
              "target": "a/a2"
            },
            {
              "type": "simple",
              "kind": "external",
              "name": "a3_a1",
              "source": "a/a3",
              "target": "a/a1"
            },
            {
              "type": "simple",
              "kind": "external",
              "name": "a_guard",
              "source": "a",
              "target": "b"
            },
            {
              "type": "simple",
              "kind": "external",
              "name": "a3_b2",
              "source": "a/a3",
              "target": "b/b2"
            },
            {
              "type": "simple",
              "kind": "external",
              "name": "a3_b22",
              "source": "a/a3",
              "target": "b/b2/b22"
            },
            {
              "type": "simple",
              "kind": "external",
              "name": "b_a3",
              "source": "b",
              "target": "a/a3"
            },
            {
              "type": "simple",
              "kind": "external",
              "name": "b311_a1",
              "source": "b/b3@0/b311",
              "target": "a/a1"
            },
            {
              "type": "simple",
              "kind": "local",
              "name": "b22_b",
              "source": "b/b2/b22",
              "target": "b"
            },
            {
              "type": "simple",
              "kind": "local",
              "name": "b_b22",
              "source": "b",
              "target": "b/b2/b22"
            },
            {
              "type": "simple",
              "kind": "external",
              "name": "b_b3",
              "source": "b",
              "target": "b/b3"
            },
            {
              "type": "simple",
              "kind": "external",
              "name": "a3_b322",
              "source": "a/a3",
              "target": "b/b3@1/b322"
            },
            {
              "type": "compound",
              "name": "a_fork",
              "vertices": {
                "incoming": [
                  {
                    "source": "a",
                    "name": "a_fork"
                  }
                ],
                "outgoing": [
                  {
                    "target": "c/c2@0/c212"
                  },
                  {
                    "target": "c/c2@1/c222"
                  }
                ]
              },
              "pseudo_state": {
                "type": "fork",
                "name": "fork_1",
                "region": "c/c2"
              }
            },
            {
              "type": "compound",
              "name": "join_c_b",
              "vertices": {
                "incoming": [
                  {
                    "source": "c/c2@0/c212",
                    "name": "c212_join"
                  },
                  {
                    "source": "c/c2@1/c222",
                    "name": "c222_join"
                  }
                ],
                "outgoing": [
                  {
                    "target": "b"
                  }
                ]
              },
              "pseudo_state": {
                "type": "join",
                "name": "join_1",
                "region": "c/c2"
              }
            }
          ]
        }
        """#
}
