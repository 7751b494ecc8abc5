import Foundation
import StateMachineCore
import Synchronization

// The seed's loading feature, cycling idle -> loading -> loaded -> idle ...

struct LoadingState: Sendable, Equatable { let phase: Int }
enum LoadingEvent {}

struct Idle: State { var superState: LoadingState { LoadingState(phase: 0) } }
struct Loading: State { var superState: LoadingState { LoadingState(phase: 1) } }
struct Loaded: State { var superState: LoadingState { LoadingState(phase: 2) } }

struct DidRequestLoading: Event { typealias SuperEvent = LoadingEvent }
struct DidSucceedToLoad: Event { typealias SuperEvent = LoadingEvent }
struct DidRequestReset: Event { typealias SuperEvent = LoadingEvent }

/// Benchmarks of StateMachineCore's runtime, each against an in-process baseline.
enum CoreBenchmarks {
    static let cycle: [any Event<LoadingEvent>] = [DidRequestLoading(), DidSucceedToLoad(), DidRequestReset()]

    static let definition = StateMachine<LoadingState, LoadingEvent>(initial: Idle()) {
        When(state: Idle.self) {
            On(event: DidRequestLoading.self) { _, _ in Transition(state: Loading()) }
        }
        When(state: Loading.self) {
            On(event: DidSucceedToLoad.self) { _, _ in Transition(state: Loaded()) }
        }
        When(state: Loaded.self) {
            On(event: DidRequestReset.self) { _, _ in Transition(state: Idle()) }
        }
    }

    /// Every transition starts an output whose single event drives the next transition.
    static let feedbackDefinition = StateMachine<LoadingState, LoadingEvent>(initial: Idle()) {
        When(state: Idle.self) {
            On(event: DidRequestLoading.self) { _, _ in
                Transition(state: Loading())
                Output { DidSucceedToLoad() }
            }
        }
        When(state: Loading.self) {
            On(event: DidSucceedToLoad.self) { _, _ in
                Transition(state: Loaded())
                Output { DidRequestReset() }
            }
        }
        When(state: Loaded.self) {
            On(event: DidRequestReset.self) { _, _ in
                Transition(state: Idle())
                Output { DidRequestLoading() }
            }
        }
    }

    /// The hand-written transition function the baselines use: phase x event -> phase.
    @inline(never)
    static func step(_ phase: Int, _ event: Int) -> Int {
        switch (phase, event) {
        case (0, 0): return 1
        case (1, 1): return 2
        case (2, 2): return 0
        default: return phase
        }
    }

    static func run() async throws {
        // Memory first, before the timing runs leave freed pages that new objects would reuse.
        await memory()
        try await lockStep()
        try await burst()
        try await feedback()
    }

    /// Runs `body` off the main actor, as an app's feature code would.
    static func detached<T: Sendable>(_ body: @escaping @Sendable () async -> T) async -> T {
        await Task.detached { await body() }.value
    }

    // MARK: Lock-step

    static func lockStep() async throws {
        let count = 20_000
        let baseline =
            await Harness.bestOf {
                await detached {
                    let (events, eventInput) = AsyncStream<Int>.makeStream()
                    let (states, stateInput) = AsyncStream<Int>.makeStream()
                    let consumer = Task {
                        var phase = 0
                        for await event in events {
                            phase = step(phase, event)
                            stateInput.yield(phase)
                        }
                        stateInput.finish()
                    }
                    var iterator = states.makeAsyncIterator()
                    for index in 0..<count {
                        eventInput.yield(index % 3)
                        _ = await iterator.next()
                    }
                    eventInput.finish()
                    await consumer.value
                }
            } / Double(count)
        let measured =
            await Harness.bestOf {
                await detached {
                    let machine = AsyncStateMachine(stateMachine: definition).disableLog()
                    var iterator = machine.makeAsyncIterator()
                    _ = await iterator.next()
                    for index in 0..<count {
                        machine.send(event: cycle[index % 3])
                        _ = await iterator.next()
                    }
                    await machine.finishAndWait()
                }
            } / Double(count)
        Harness.report(
            "lock-step (send, await the state)",
            value: measured,
            unit: "ns/event",
            baseline: baseline,
            target: "<= 1.5x two bare AsyncStreams",
            pass: measured <= 1.5 * baseline
        )
    }

    // MARK: Burst

    actor BareMachine {
        var phase = 0
        var history: [Int] = []
        func handle(_ event: Int) {
            phase = step(phase, event)
            history.append(phase)
        }
    }

    static func burst() async throws {
        let count = 100_000
        let baseline =
            await Harness.bestOf {
                await detached {
                    let actor = BareMachine()
                    for index in 0..<count { await actor.handle(index % 3) }
                    _ = await actor.history.count
                }
            } / Double(count)
        let measured =
            await Harness.bestOf {
                await detached {
                    let machine = AsyncStateMachine(stateMachine: definition).disableLog()
                    for index in 0..<count { machine.send(event: cycle[index % 3]) }
                    await observe(count + 1, of: machine)
                }
            } / Double(count)
        Harness.report(
            "burst (100,000 sends, then drain)",
            value: measured,
            unit: "ns/event",
            baseline: baseline,
            target: "<= 500 ns/event (baseline: a bare actor)",
            pass: measured <= 500
        )
    }

    /// Consumes `count` states of `machine`, then finishes it.
    static func observe(_ count: Int, of machine: AsyncStateMachine<LoadingState, LoadingEvent>) async {
        var received = 0
        for await _ in machine {
            received += 1
            if received == count { break }
        }
        await machine.finishAndWait()
    }

    // MARK: Feedback

    static func feedback() async throws {
        let count = 20_000
        let baseline =
            await Harness.bestOf {
                await detached {
                    let (events, input) = AsyncStream<Int>.makeStream()
                    var phase = 0
                    var transitions = 0
                    input.yield(0)
                    for await event in events {
                        phase = step(phase, event)
                        transitions += 1
                        if transitions == count { break }
                        let next = phase
                        Task { input.yield(next) }
                    }
                }
            } / Double(count)
        let measured =
            await Harness.bestOf {
                await detached {
                    let machine = AsyncStateMachine(stateMachine: feedbackDefinition).disableLog()
                    machine.send(event: DidRequestLoading())
                    await observe(count + 1, of: machine)
                }
            } / Double(count)
        Harness.report(
            "feedback (each output returns the next event)",
            value: measured,
            unit: "ns/event",
            baseline: baseline,
            target: "<= 2x a Task per side effect",
            pass: measured <= 2 * baseline
        )
    }

    // MARK: Memory

    final class StartCounter: Sendable {
        private let value = Atomic(0)
        func increment() -> Int { value.add(1, ordering: .relaxed).newValue }
    }

    actor IdleActor {
        var phase = 0
    }

    static func memory() async {
        let count = 10_000
        // Every population stays alive until the end, so that no measurement reuses pages
        // another one freed (RSS only grows by what is really new).
        let (actorBytes, actors) = await detached {
            let before = Harness.residentBytes()
            let actors = (0..<count).map { _ in IdleActor() }
            return (Double(Harness.residentBytes() - before) / Double(count), actors)
        }
        let (idleBytes, idleMachines) = await detached {
            let before = Harness.residentBytes()
            let machines = (0..<count).map { _ in AsyncStateMachine(stateMachine: definition).disableLog() }
            return (Double(Harness.residentBytes() - before) / Double(count), machines)
        }
        Harness.report(
            "memory per idle machine",
            value: idleBytes,
            unit: "bytes",
            baseline: actorBytes,
            target: "<= 1024 bytes (baseline: a bare actor)",
            pass: idleBytes <= 1024
        )

        let observedBytes = await detached {
            let before = Harness.residentBytes()
            let machines = (0..<count).map { _ in AsyncStateMachine(stateMachine: definition).disableLog() }
            let started = StartCounter()
            let allStarted = AsyncStream<Void>.makeStream()
            let observers = machines.map { machine in
                Task {
                    for await _ in machine {
                        if started.increment() == count { allStarted.continuation.finish() }
                    }
                }
            }
            for await _ in allStarted.stream {}
            let after = Harness.residentBytes()
            for machine in machines { machine.finish() }
            for observer in observers { await observer.value }
            return Double(after - before) / Double(count)
        }
        withExtendedLifetime((actors, idleMachines)) {}
        Harness.report(
            "memory per observed machine",
            value: observedBytes,
            unit: "bytes",
            baseline: actorBytes,
            target: "<= 4096 bytes (incl. the observing task)",
            pass: observedBytes <= 4096
        )
    }
}
