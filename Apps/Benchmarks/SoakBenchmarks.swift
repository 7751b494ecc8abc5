import CAllocationCounter
import Foundation
import StateMachineBroadcast
import StateMachineCore
import StateMachineDump
import StateMachineHierarchy
import StateMachineSCXML
import StateMachineSupport
import StateMachineTable
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

// A Core feature whose every transition leads to a new state value: the count of
// transitions so far, so that the observer, the broadcast and the dump can each prove
// that they saw the last one.

struct SoakCount: Sendable, Equatable { let value: Int }
enum SoakEvent {}

struct Counted: State {
    let count: Int
    var superState: SoakCount { SoakCount(value: count) }
}

struct Tick: Event { typealias SuperEvent = SoakEvent }

/// Soak runs (`swift run -c release Benchmarks soak`): every long-running path runs
/// 1,000,000 transitions (`--soak-transitions N`) in one machine, the same instance all
/// along, and the last tenth of them is timed against the first tenth: the cost of an
/// event may not depend on how many came before it (design notes, "No cost that grows with
/// history"). Resident memory and the allocator's in-use bytes are read after the first
/// tenth and at the end: what the machine keeps must not grow either.
///
/// The scenarios, in this order (the default logger cannot be restored once `setLogger`
/// replaced it):
/// 0. for reference, a Core `AsyncStateMachine` with its log disabled and nothing else;
/// 1. a Core `AsyncStateMachine` with the default logger (standard error on /dev/null);
/// 2. a Core machine with a counting logger installed by `setLogger`;
/// 3. a Core machine with `onInitialState`, `onTransition` and `onDeinit` handlers;
/// 4. a Core machine that broadcasts (`activateBroadcast`, one subscriber consuming every
///    context) and is dumped (`activateDump`, a collecting dump machine);
/// 5. a statechart (the seed's nested fixture) with a debugger attached to a sink that
///    only counts its lines, and three `observe` subscriptions (the statechart step observer
///    protocol is internal: its one public user, the SCXML interpreter, is scenario 7);
/// 6. the Table product's turnstile `FSM`;
/// 7. an SCXML session whose every call arms two delayed `<send>`s on a
///    `ManualStatechartClock`, one fired by advancing the clock and one cancelled.
///
/// Memory is read from `/proc/self/statm` (the resident set, as `VmRSS`) and from glibc's
/// `mallinfo2` (in-use bytes over every arena), after every window.
/// Each figure is the median of at most 3 runs, each a new machine: a soak of every
/// scenario takes minutes, not seconds.
enum SoakBenchmarks {
    /// How many scenario runs make a figure at most: a soak is long, so it takes
    /// `min(--repetitions, 3)`.
    static let maximumRepetitions = 3

    static func run(_ report: SuiteReport) async throws {
        let plan = SoakPlan(transitions: report.options.soakTransitions)
        let repetitions = min(report.repetitions, maximumRepetitions)
        print(
            "soak: \(grouped(plan.transitions)) transitions per machine, timed in \(SoakPlan.windowCount) windows "
                + "of \(grouped(plan.windowSize)) (the last against the first); \(repetitions) repetitions "
                + "(at most \(maximumRepetitions) of --repetitions), each a new machine, no warm-up"
        )
        let context = SoakContext(report: report, plan: plan, repetitions: repetitions)
        if report.wants("core-plain") { try await corePlain(context) }
        if report.wants("core-default-logger") { try await coreDefaultLogger(context) }
        if report.wants("core-custom-logger") { try await coreCustomLogger(context) }
        if report.wants("core-hooks") { try await coreHooks(context) }
        if report.wants("core-broadcast-dump") { try await coreBroadcastAndDump(context) }
        if report.wants("statechart-observed") { try await statechartObserved(context) }
        if report.wants("table-turnstile") { try await tableTurnstile(context) }
        if report.wants("scxml-delayed-sends") { try await scxmlDelayedSends(context) }
    }

    // MARK: Core machines

    static let definition = StateMachine<SoakCount, SoakEvent>(initial: Counted(count: 0)) {
        When(state: Counted.self) {
            On(event: Tick.self) { state, _ in Transition(state: Counted(count: state.count + 1)) }
        }
    }

    /// The reference for the other Core scenarios: the machine alone, its log disabled.
    static func corePlain(_ context: SoakContext) async throws {
        let plan = context.plan
        let runs = try await context.repeated {
            try await detached {
                try await soakCore(plan, AsyncStateMachine(stateMachine: definition).disableLog()) { _ in }
            }
        }
        context.add(
            "core-plain",
            runs,
            note: "AsyncStateMachine, log disabled, nothing else (the reference for the core scenarios); "
                + "per burst of 1,000 sends, every state awaited through the observer"
        )
    }

    /// The default logger, as a user's program has it: on, writing a line per transition to
    /// the system log (or to standard error with `STATE_MACHINE_LOG=stderr`, which goes to
    /// /dev/null for the run). Skipped when the default logger is off in this process
    /// (`STATE_MACHINE_LOG=0`, or no system log listening: run it with
    /// `STATE_MACHINE_LOG=stderr` there).
    ///
    /// The logger is process-wide and cannot be put back once replaced, so every repetition
    /// uses the same one: where its cost grows with the transitions logged (issue 28), each
    /// repetition starts where the previous one ended, and only the first shows the whole
    /// growth.
    static func coreDefaultLogger(_ context: SoakContext) async throws {
        guard LogDestination.current != .none else {
            print(
                "soak.core-default-logger: skipped, the default logger writes nothing here "
                    + "(STATE_MACHINE_LOG=0, or no /dev/log: run with STATE_MACHINE_LOG=stderr)"
            )
            return
        }
        let plan = context.plan
        let runs = try await context.repeated {
            try await withStandardErrorDiscarded {
                try await detached {
                    try await soakCore(plan, AsyncStateMachine(stateMachine: definition)) { _ in }
                }
            }
        }
        context.add(
            "core-default-logger",
            runs,
            note: "AsyncStateMachine, default logger on (standard error dup2'd to /dev/null during the run); "
                + "per burst of 1,000 sends, every state awaited through the observer"
        )
    }

    /// A logger installed with `setLogger` that only counts; each repetition installs its own.
    static func coreCustomLogger(_ context: SoakContext) async throws {
        let plan = context.plan
        let runs = try await context.repeated {
            let logged = SoakProgress()
            setLogger { _, _, _, _ in logged.advance() }
            return try await detached {
                try await soakCore(plan, AsyncStateMachine(stateMachine: definition)) { sent in
                    await logged.wait(until: sent)
                }
            }
        }
        context.add(
            "core-custom-logger",
            runs,
            note: "AsyncStateMachine, setLogger { counting }; a burst of 1,000 ends when the observer and "
                + "the logger have seen its last transition"
        )
    }

    /// Lifecycle handlers registered, logging off (so that only the hooks are added to the
    /// plain machine).
    static func coreHooks(_ context: SoakContext) async throws {
        let plan = context.plan
        let runs = try await context.repeated {
            try await detached {
                let transitions = SoakProgress()
                let started = SoakProgress()
                let machine = AsyncStateMachine(stateMachine: definition).disableLog()
                    .onInitialState { _, _ in started.advance() }
                    .onTransition { _, _, _, _ in transitions.advance() }
                    .onDeinit { _ in }
                let run = try await soakCore(plan, machine) { sent in
                    await transitions.wait(until: sent)
                }
                guard started.count == 1 else { throw BenchmarkError("core-hooks: \(started.count) initial states") }
                return run
            }
        }
        context.add(
            "core-hooks",
            runs,
            note: "onInitialState, onTransition (counting), onDeinit; log disabled; a burst of 1,000 ends "
                + "when the observer and the onTransition handler have seen its last transition"
        )
    }

    /// Broadcast and dump both active: one subscriber consumes every context, and a dump
    /// machine collects every record; a burst ends when both have its last transition.
    static func coreBroadcastAndDump(_ context: SoakContext) async throws {
        let plan = context.plan
        let runs = try await context.repeated {
            try await detached {
                let mediator = Mediator<DumpEvent>()
                let dumpMachine = makeDumpStateMachine()
                startCollecting(dumpStateMachine: dumpMachine, dumpMediator: mediator)
                let broadcaster = makeStateContextBroadcaster()
                let received = SoakProgress()
                let subscriber = Task {
                    for await _ in broadcaster.stream { received.advance() }
                }
                let machine = AsyncStateMachine(stateMachine: definition).disableLog()
                    .activateBroadcast()
                    .activateDump(dumpMediator: mediator)
                let id = machine.id
                let run = try await soakCore(plan, machine) { sent in
                    // The initial state is broadcast too.
                    await received.wait(until: sent + 1)
                    try await awaitDumpRecord(sent, of: id, in: dumpMachine)
                }
                broadcaster.stop()
                await subscriber.value
                stopCollecting()
                return run
            }
        }
        context.add(
            "core-broadcast-dump",
            runs,
            note: "activateBroadcast (one subscriber) and activateDump (a collecting dump machine); log disabled; "
                + "a burst of 1,000 ends when the observer, the subscriber and the dump have its last transition"
        )
    }

    /// Asks `dumpMachine` for its records until the one of machine `id` holds count `count`.
    ///
    /// The broadcast and the dump are two transition handlers of the same lifecycle event,
    /// run concurrently: when the subscriber has the last context, the dump's record of it
    /// may still be on its way, so a dump that does not have it yet is asked again (a few
    /// times at most; a bound catches a record that never arrives).
    static func awaitDumpRecord(
        _ count: Int,
        of id: UUID,
        in dumpMachine: AsyncStateMachine<DumpState, DumpEvent>
    ) async throws {
        let recorded = Lock<Int?>(nil)
        for _ in 0..<10_000 {
            await dumpAndWait(dumpStateMachine: dumpMachine) { contexts in
                let state = contexts.first { $0.stateMachineId == id }?.state as? Counted
                recorded.withLock { $0 = state?.count }
            }
            if recorded.withLock({ $0 }) == count { return }
        }
        throw BenchmarkError("core-broadcast-dump: the dump never recorded transition \(count)")
    }

    /// Events per burst in the Core scenarios: a window is bursts of this many sends, each
    /// followed by awaiting its states. Bursts of a whole window (100,000) would measure the
    /// same cost per event, but the machine keeps its queue and observation buffers at the
    /// size of the largest burst yet (`removeAll(keepingCapacity:)`), and that high-water
    /// mark creeps up from window to window, hiding any real growth of memory.
    static let coreBurst = 1_000

    /// Runs the soak on `machine`: each window is bursts of ``coreBurst`` sends, after each
    /// of which every state is awaited through the machine's one observer, then
    /// `settled(sent)`, what the scenario's other observers must have seen of the `sent`
    /// transitions so far. Finishes the machine and waits for it.
    static func soakCore(
        _ plan: SoakPlan,
        _ machine: AsyncStateMachine<SoakCount, SoakEvent>,
        settled: (Int) async throws -> Void
    ) async throws -> SoakRun {
        var iterator = machine.makeAsyncIterator()
        guard let initial = await iterator.next() as? Counted, initial.count == 0 else {
            throw BenchmarkError("the soak machine did not start at 0")
        }
        var sent = 0
        let run = try await soak(plan) { count in
            var remaining = count
            while remaining > 0 {
                let burst = min(coreBurst, remaining)
                remaining -= burst
                for _ in 0..<burst { machine.send(event: Tick()) }
                sent += burst
                var last: (any State<SoakCount>)?
                for _ in 0..<burst {
                    guard let state = await iterator.next() else {
                        throw BenchmarkError("the soak machine ended early")
                    }
                    last = state
                }
                guard let last = last as? Counted, last.count == sent else {
                    let state = String(describing: last)
                    throw BenchmarkError("the soak machine's state after \(sent) transitions is \(state)")
                }
                try await settled(sent)
            }
        }
        await machine.finishAndWait()
        return run
    }

    /// Runs `body` off the main actor, as an app's feature code would.
    static func detached<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await Task.detached { try await body() }.value
    }

    // MARK: Standard error

    /// Runs `body` with file descriptor 2 on /dev/null (a `dup2` over it), and puts the
    /// original standard error back afterwards, even when `body` throws.
    static func withStandardErrorDiscarded<T>(_ body: () async throws -> T) async throws -> T {
        let saved = dup(2)
        guard saved >= 0 else { throw BenchmarkError("dup(2): \(String(cString: strerror(errno)))") }
        let null = open("/dev/null", O_WRONLY)
        guard null >= 0 else {
            close(saved)
            throw BenchmarkError("open /dev/null: \(String(cString: strerror(errno)))")
        }
        dup2(null, 2)
        close(null)
        defer {
            dup2(saved, 2)
            close(saved)
        }
        return try await body()
    }

    // MARK: Statechart

    /// The seed's nested fixture (deep, local and external transitions, a parallel state),
    /// with a debugger whose sink only counts its lines and three `observe` subscriptions;
    /// every event of the cycle is handled. Each window's lines and notifications must be as
    /// many as the first window's.
    static func statechartObserved(_ context: SoakContext) async throws {
        let cycle = HierarchyBenchmarks.nestedCycle
        guard context.plan.windowSize % cycle.count == 0 else {
            throw BenchmarkError("statechart-observed: a window is a whole number of \(cycle.count)-event cycles")
        }
        let runs = try await context.repeated {
            let chart = try HierarchyBenchmarks.nestedChart()
            let lines = SoakCounter()
            let notifications = SoakCounter()
            chart.attachDebugger(StatechartDebugSink { _ in lines.increment() })
            let subscriptions = [
                try chart.observe(.entered, at: "b") { _ in notifications.increment() },
                try chart.observe(.exited, at: "a") { _ in notifications.increment() },
                try chart.observe(.entered, at: "b/b2/b22") { _ in notifications.increment() },
            ]
            let events = try cycle.map { try chart.resolve($0) }
            var handled = 0
            var perWindow: (lines: Int, notifications: Int)?
            let run = try await soak(context.plan) { count in
                for _ in 0..<count / cycle.count {
                    for event in events where try chart.handle(event) != .handled {
                        throw BenchmarkError("statechart-observed: \(event.name) was not handled")
                    }
                }
                handled += count
                let windows = handled / count
                let seen = perWindow ?? (lines.value, notifications.value)
                perWindow = seen
                guard seen.lines > 0, seen.notifications > 0, lines.value == windows * seen.lines,
                    notifications.value == windows * seen.notifications
                else {
                    throw BenchmarkError(
                        "statechart-observed: \(lines.value) lines and \(notifications.value) notifications "
                            + "after \(windows) windows of \(seen.lines) and \(seen.notifications)"
                    )
                }
            }
            guard chart.activeStates == ["a", "a1"] else {
                throw BenchmarkError("statechart-observed: did not come back to a/a1")
            }
            for subscription in subscriptions { subscription.cancel() }
            chart.detachDebugger()
            return run
        }
        context.add(
            "statechart-observed",
            runs,
            note: "the nested fixture's cycle through handle(resolved), attachDebugger (a sink counting lines), "
                + "3 observe subscriptions; the step observer is internal: see scxml-delayed-sends"
        )
    }

    // MARK: Table

    /// The turnstile table, one `handleEvent` per transition, with a random sequence of
    /// coins and passes (every event is handled: four actions count them).
    static func tableTurnstile(_ context: SoakContext) async throws {
        var random = SplitMix64(seed: 42)
        let events = (0..<context.plan.transitions).map { _ -> TurnstileEvent in
            random.next() % 2 == 0 ? .coin : .pass
        }
        let runs = try await context.repeated {
            let counters = Counters()
            let fsm = try TurnstileTable(counters: counters).machine()
            var handled = 0
            let run = try await soak(context.plan) { count in
                for index in handled..<handled + count { await fsm.handleEvent(events[index]) }
                handled += count
                let actions = counters.unlock + counters.alarm + counters.thankyou + counters.lock
                guard actions == handled else {
                    throw BenchmarkError("table-turnstile: \(actions) actions for \(handled) events")
                }
            }
            return run
        }
        context.add("table-turnstile", runs, note: "FSM.handleEvent on the README turnstile")
    }

    // MARK: SCXML

    /// Ringing arms a 30 s timeout and a 1 s answer (its id in an `idlocation` slot);
    /// the answer takes the call back to idle, and leaving `ringing` cancels the timeout.
    static let scxmlDocument = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="idle">
          <state id="idle"><transition event="ring" target="ringing"/></state>
          <state id="ringing">
            <onentry>
              <send id="timeout" event="hangup" delay="30s"/>
              <send idlocation="call" event="answer" delay="1s"/>
            </onentry>
            <onexit><cancel sendid="timeout"/></onexit>
            <transition event="answer" target="idle"/>
            <transition event="hangup" target="idle"/>
          </state>
        </scxml>
        """

    /// An SCXML session with its trace recorded (the default) and an `onMacrostep`
    /// observer: per cycle, `send("ring")` and `advance(by: 1 s)` (the answer fires), two
    /// transitions, two timers armed, one fired and one cancelled.
    static func scxmlDelayedSends(_ context: SoakContext) async throws {
        let document = try SCXMLDocument(xml: scxmlDocument)
        let runs = try await context.repeated {
            let clock = ManualStatechartClock()
            let macrosteps = SoakCounter()
            let session = SCXMLInterpreter(document: document, clock: clock) { _ in macrosteps.increment() }
            try session.start()
            let started = macrosteps.value
            var taken = 0
            let run = try await soak(context.plan) { count in
                for _ in 0..<count / 2 {
                    try session.send("ring")
                    clock.advance(by: .seconds(1))
                }
                taken += count
                guard macrosteps.value - started == taken, clock.pendingTimerCount == 0,
                    session.activeAtomicStates == ["idle"], session.failure == nil
                else {
                    throw BenchmarkError(
                        "scxml-delayed-sends: \(macrosteps.value - started) macrosteps for \(taken) transitions, "
                            + "\(clock.pendingTimerCount) timers pending, in \(session.activeAtomicStates)"
                    )
                }
            }
            return run
        }
        context.add(
            "scxml-delayed-sends",
            runs,
            note: "SCXMLInterpreter (the chart's step observer; trace recorded, onMacrostep counting) on a "
                + "ManualStatechartClock: send(\"ring\"), then advance(by: 1 s)"
        )
    }

    // MARK: Measuring

    /// Runs `plan.transitions` transitions through `window` (called once per window with
    /// the window's number of transitions, which it must have processed when it returns),
    /// timing each window and reading memory after the first and the last.
    static func soak(_ plan: SoakPlan, _ window: (Int) async throws -> Void) async rethrows -> SoakRun {
        var run = SoakRun()
        for _ in 0..<SoakPlan.windowCount {
            let start = ContinuousClock.now
            try await window(plan.windowSize)
            run.nanosecondsPerTransition.append((ContinuousClock.now - start).nanoseconds / Double(plan.windowSize))
            run.memory.append(MemoryReading())
        }
        return run
    }

    /// `1,000,000`.
    static func grouped(_ value: Int) -> String {
        let digits = Array(String(value))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return text
    }
}

/// How long a soak is: `transitions` in one machine, timed in ten equal windows.
struct SoakPlan: Sendable {
    static let windowCount = 10

    /// Every scenario's cycle (1, 2 or 10 transitions) fits a whole number of times in a
    /// window when the total is a multiple of this.
    static let granularity = 1_000

    let transitions: Int

    var windowSize: Int { transitions / Self.windowCount }
}

/// One machine's soak: the cost per transition of each window, and memory after each.
struct SoakRun: Sendable {
    var nanosecondsPerTransition: [Double] = []
    var memory: [MemoryReading] = []

    var first: Double { nanosecondsPerTransition.first ?? .nan }
    var last: Double { nanosecondsPerTransition.last ?? .nan }
    var afterFirstWindow: MemoryReading { memory.first ?? .zero }
    var atEnd: MemoryReading { memory.last ?? .zero }
}

/// The process's memory at one moment: the resident set and the allocator's in-use bytes.
struct MemoryReading: Sendable {
    /// Resident bytes: the second field of `/proc/self/statm` (pages) times the page size,
    /// the same figure as `VmRSS` in `/proc/self/status`; 0 when it cannot be read.
    let resident: Int
    /// glibc's `mallinfo2` in-use bytes, summed over every arena, plus memory-mapped blocks
    /// (`heap_bytes_in_use`).
    let heap: Int

    static let zero = MemoryReading(resident: 0, heap: 0)

    init(resident: Int, heap: Int) {
        self.resident = resident
        self.heap = heap
    }

    /// Reads both now.
    init() {
        let pages =
            (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8))
            .flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Int($0) } ?? 0
        resident = pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        heap = Int(heap_bytes_in_use())
    }
}

/// What every scenario needs to run and report: the plan, the repetitions and the report.
struct SoakContext {
    let report: SuiteReport
    let plan: SoakPlan
    let repetitions: Int

    /// Runs `body` (one soak of a new machine) `repetitions` times.
    func repeated(_ body: () async throws -> SoakRun) async throws -> [SoakRun] {
        var runs: [SoakRun] = []
        for _ in 0..<repetitions { runs.append(try await body()) }
        return runs
    }

    /// Four figures per scenario: the last window against the first (ns per transition),
    /// their ratio (target <= 1.2, with every window's median in the note), and the growth
    /// of the resident set and of the heap from the end of the first window to the end
    /// (target < 1 MiB each).
    func add(_ name: String, _ runs: [SoakRun], note: String) {
        let window = SoakBenchmarks.grouped(plan.windowSize)
        let total = SoakBenchmarks.grouped(plan.transitions)
        report.add(
            "\(name).last-window",
            unit: "ns/transition",
            Sample(values: runs.map(\.last)),
            baseline: ("the first \(window)", Sample(values: runs.map(\.first))),
            note: note
        )
        let windows = (0..<SoakPlan.windowCount).map { index in
            Sample.format(Sample(values: runs.map { $0.nanosecondsPerTransition[index] }).median)
        }
        report.add(
            "\(name).last/first",
            unit: "x",
            Sample(values: runs.map { $0.last / $0.first }),
            target: .atMost(1.2),
            note: "each run's last \(window) over its first; ns/transition by window: \(windows.joined(separator: " "))"
        )
        let megabyte = 1024.0 * 1024
        /// Every window's median of `value`, in MiB.
        func byWindow(_ value: (MemoryReading) -> Int) -> String {
            (0..<SoakPlan.windowCount).map { index in
                Sample.format(Sample(values: runs.map { Double(value($0.memory[index])) / megabyte }).median)
            }.joined(separator: " ")
        }
        report.add(
            "\(name).rss-growth",
            unit: "KiB",
            Sample(values: runs.map { Double($0.atEnd.resident - $0.afterFirstWindow.resident) / 1024 }),
            target: .atMost(1024),
            note: "resident set (/proc/self/statm) after \(total) minus after \(window); "
                + "MiB by window: \(byWindow(\.resident))"
        )
        report.add(
            "\(name).heap-growth",
            unit: "KiB",
            Sample(values: runs.map { Double($0.atEnd.heap - $0.afterFirstWindow.heap) / 1024 }),
            target: .atMost(1024),
            note: "glibc mallinfo2 in-use bytes (all arenas) after \(total) minus after \(window); "
                + "MiB by window: \(byWindow(\.heap))"
        )
    }
}

/// A count that work on other tasks advances and that one task at a time may await.
final class SoakProgress: Sendable {
    private struct Storage {
        var count = 0
        var waiter: (target: Int, continuation: CheckedContinuation<Void, Never>)?
    }

    private let storage = Lock(Storage())

    /// The count so far.
    var count: Int { storage.withLock { $0.count } }

    /// Adds one, and resumes the waiter once its target is reached.
    func advance() {
        let reached = storage.withLock { storage -> CheckedContinuation<Void, Never>? in
            storage.count += 1
            guard let waiter = storage.waiter, storage.count >= waiter.target else { return nil }
            storage.waiter = nil
            return waiter.continuation
        }
        reached?.resume()
    }

    /// Returns once the count is at least `target`.
    func wait(until target: Int) async {
        await withCheckedContinuation { continuation in
            let reached = storage.withLock { storage -> Bool in
                if storage.count >= target { return true }
                storage.waiter = (target, continuation)
                return false
            }
            if reached { continuation.resume() }
        }
    }
}

/// A counter that callbacks on any thread increment.
final class SoakCounter: Sendable {
    private let atomic = Atomic(0)

    /// The count so far.
    var value: Int { atomic.load(ordering: .acquiring) }

    func increment() { atomic.add(1, ordering: .releasing) }
}
