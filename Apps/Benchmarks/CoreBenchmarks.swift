import CAllocationCounter
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

    static func run(_ report: SuiteReport) async throws {
        if report.wants("memory") { try await memory(report) }
        if report.wants("lock-step") { try await lockStep(report) }
        if report.wants("burst") { try await burst(report) }
        if report.wants("feedback") { try await feedback(report) }
    }

    /// Runs `body` off the main actor, as an app's feature code would.
    static func detached<T: Sendable>(_ body: @escaping @Sendable () async -> T) async -> T {
        await Task.detached { await body() }.value
    }

    // MARK: Lock-step

    /// Send an event, await the state it leads to, 20,000 times; the baseline does the same
    /// through two bare `AsyncStream`s and a consumer task running the hand-written step.
    static func lockStep(_ report: SuiteReport) async throws {
        let count = 20_000
        let samples = try await Harness.interleaved(
            repetitions: report.repetitions,
            operations: count,
            [
                {
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
                },
                {
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
                },
            ]
        )
        report.add(
            "lock-step",
            unit: "ns/event",
            samples[1],
            baseline: ("two AsyncStreams and a consumer task", samples[0]),
            target: .ratioAtMost(1.5),
            note: "send, then await the state"
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

    /// 100,000 sends, then the observer drains every state. Baselines: the same burst
    /// into an `AsyncStream` drained by a loop running the hand-written step, and one
    /// awaited actor call per event.
    static func burst(_ report: SuiteReport) async throws {
        let count = 100_000
        let samples = try await Harness.interleaved(
            repetitions: report.repetitions,
            operations: count,
            [
                {
                    await detached {
                        let (events, input) = AsyncStream<Int>.makeStream()
                        for index in 0..<count { input.yield(index % 3) }
                        input.finish()
                        var phase = 0
                        var history: [Int] = []
                        for await event in events {
                            phase = step(phase, event)
                            history.append(phase)
                        }
                        precondition(history.count == count)
                    }
                },
                {
                    await detached {
                        let actor = BareMachine()
                        for index in 0..<count { await actor.handle(index % 3) }
                        _ = await actor.history.count
                    }
                },
                {
                    await detached {
                        let machine = AsyncStateMachine(stateMachine: definition).disableLog()
                        for index in 0..<count { machine.send(event: cycle[index % 3]) }
                        await observe(count + 1, of: machine)
                    }
                },
            ]
        )
        report.add(
            "burst",
            unit: "ns/event",
            samples[2],
            baseline: ("AsyncStream burst, then drain", samples[0]),
            target: .atMost(500),
            note: "100,000 sends, then drain every state; an awaited actor call per event: \(samples[1].text) ns"
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

    /// Every transition's output returns the next event; the baseline starts a `Task` per
    /// side effect that yields the next event into an `AsyncStream`.
    static func feedback(_ report: SuiteReport) async throws {
        let count = 20_000
        let samples = try await Harness.interleaved(
            repetitions: report.repetitions,
            operations: count,
            [
                {
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
                },
                {
                    await detached {
                        let machine = AsyncStateMachine(stateMachine: feedbackDefinition).disableLog()
                        machine.send(event: DidRequestLoading())
                        await observe(count + 1, of: machine)
                    }
                },
            ]
        )
        report.add(
            "feedback",
            unit: "ns/event",
            samples[1],
            baseline: ("a Task per side effect", samples[0]),
            target: .ratioAtMost(1.2),
            note: "each output returns the next event"
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

    /// The kinds whose memory ``memory(_:)`` reports, each measured in a fresh process.
    static var memoryProbes: [MemoryProbe] {
        [
            MemoryProbe(name: "core.bare-actor", count: 10_000) { count in (0..<count).map { _ in IdleActor() } },
            MemoryProbe(name: "core.idle-machine", count: 10_000) { count in
                (0..<count).map { _ in AsyncStateMachine(stateMachine: definition).disableLog() }
            },
            MemoryProbe(name: "core.observed-machine", count: 10_000) { count in await observedMachines(count) },
        ]
    }

    /// All-arena heap bytes per machine (see ``MemoryProbe``), 10,000 kept alive.
    static func memory(_ report: SuiteReport) async throws {
        let actor = try MemoryProbe.measure("core.bare-actor", repetitions: report.repetitions)
        try report.addMemory(
            "memory.idle-machine",
            probe: "idle-machine",
            baseline: ("a bare actor", actor),
            target: .atMost(600)
        )
        try report.addMemory(
            "memory.observed-machine",
            probe: "observed-machine",
            baseline: ("a bare actor", actor),
            target: .atMost(3500),
            note: "a machine with one task iterating it"
        )
    }

    /// `count` machines, each with a task iterating it, returned once every task has
    /// received the machine's initial state (the tasks stay suspended in `for await`).
    static func observedMachines(_ count: Int) async -> [AsyncStateMachine<LoadingState, LoadingEvent>] {
        await detached {
            let machines = (0..<count).map { _ in AsyncStateMachine(stateMachine: definition).disableLog() }
            let started = StartCounter()
            let allStarted = AsyncStream<Void>.makeStream()
            for machine in machines {
                Task {
                    for await _ in machine {
                        if started.increment() == count { allStarted.continuation.finish() }
                    }
                }
            }
            for await _ in allStarted.stream {}
            return machines
        }
    }
}
