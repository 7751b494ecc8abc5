import StateMachineSupport
import Synchronization
import TestSupport
import Testing

@testable import StateMachineCore

/// An output whose side effect returns the machine's next event processes that event in its
/// own task when the machine is idle, rather than start a drainer task for it (see
/// `MachineCore.startOutput`): these tests pin that down, and that nothing else changes.
@Suite("Outputs feeding an idle machine", .timeLimit(.minutes(1)))
struct OutputFeedbackTests {
    /// The identity of the running task (its hash: tasks alive at once differ).
    static func currentTask() -> Int? {
        withUnsafeCurrentTask { $0?.hashValue }
    }

    /// Waits until `machine` has no drainer: its last pass gave the role up.
    static func waitUntilIdle<S, E>(_ machine: AsyncStateMachine<S, E>) async {
        while machine.core.shared.withLock({ $0.lifecycle != .started(isDraining: false) }) {
            await Task.yield()
        }
    }

    /// Idle --DidRequestLoading--> Loading, starting `output`; Loading --DidSucceedToLoad-->
    /// Loaded(data), calling `onLoaded` in the route.
    static func loadingMachine(
        _ output: Output<FeatureState, FeatureEvent>,
        onLoaded: @escaping @Sendable () -> Void = {}
    ) -> AsyncStateMachine<FeatureState, FeatureEvent> {
        AsyncStateMachine<FeatureState, FeatureEvent>(initial: DataIsIdle()) {
            When(state: DataIsIdle.self) {
                On(event: DidRequestLoading.self) { _, event in
                    Transition(state: DataIsLoading(id: event.id))
                    output
                }
            }
            When(state: DataIsLoading.self) {
                On(event: DidSucceedToLoad.self) { _, event in
                    let _ = onLoaded()
                    Transition(state: DataIsLoaded(data: event.data))
                }
            }
        }.disableLog()
    }

    @Test("the event a side effect returns to an idle machine is processed in the output's own task")
    func processedInTheOutputsTask() async throws {
        let sideEffectTask = Lock<Int?>(nil)
        let routeTask = Lock<Int?>(nil)
        let machineReady = Signal()
        let machine = Self.loadingMachine(
            Output(sideEffect: { () async -> (any Event<FeatureEvent>)? in
                await machineReady.wait()
                sideEffectTask.withLock { $0 = Self.currentTask() }
                return DidSucceedToLoad(data: "loaded")
            }),
            onLoaded: { routeTask.withLock { $0 = Self.currentTask() } }
        )
        await within { await machine.sendAndWait(event: DidRequestLoading(id: "1"), until: .transitionCommitted) }
        // The side effect returns its event only once the drainer has given its role up.
        await within { await Self.waitUntilIdle(machine) }
        machineReady.raise()
        let states = await within(seconds: 10) { await take(3, from: machine) } ?? []
        #expect((states.last as? DataIsLoaded)?.data == "loaded")
        let outputTask = try #require(sideEffectTask.withLock { $0 })
        #expect(routeTask.withLock { $0 } == outputTask)
        await within { await machine.finishAndWait() }
        #expect(machine.core.runningOutputCount == 0)
    }

    @Test("an event a restarting side effect returns is processed before the restart's delay ends")
    func restartDoesNotHoldTheEvent() async {
        let runs = Atomic(0)
        let machineReady = Signal()
        let delayReleased = Signal()
        let machine = Self.loadingMachine(
            Output(sideEffect: { () async -> (any Event<FeatureEvent>)? in
                await machineReady.wait()
                let run = runs.add(1, ordering: .relaxed).newValue
                return DidSucceedToLoad(data: "run \(run)")
            })
            .lifecyclePolicy(.restartOnCompletion(maxRestarts: 1, delay: { _ in await delayReleased.wait() }))
        )
        machine.send(event: DidRequestLoading(id: "1"))
        // The side effect returns its event only once the drainer has given its role up.
        await within { await Self.waitUntilIdle(machine) }
        machineReady.raise()
        // The delay is still waiting: had the output's task kept the drainer role through
        // it, the event would wait too.
        let states =
            await within(seconds: 10, "the first run's event, while the delay waits") { await take(3, from: machine) }
            ?? []
        #expect((states.last as? DataIsLoaded)?.data == "run 1")
        delayReleased.raise()
        await within { await machine.finishAndWait() }
        #expect(runs.load(ordering: .relaxed) == 2)
    }

    @Test("a machine whose every output returns its next event: 2,000 transitions in order, then it finishes")
    func feedbackLoopInOrder() async {
        let limit = 2_000
        let machine = AsyncStateMachine<CounterState, CounterEvent>(initial: Count(value: 0)) {
            When(state: Count.self) {
                On(event: Increment.self) { state, event in
                    Transition(state: Count(value: state.value + 1))
                    Output(sideEffect: { () async -> (any Event<CounterEvent>)? in
                        event.sequence < limit ? Increment(sender: 0, sequence: event.sequence + 1) : nil
                    })
                }
            }
        }.disableLog()
        machine.send(event: Increment(sender: 0, sequence: 1))
        let states = await within { await take(limit + 1, from: machine) } ?? []
        #expect(states.compactMap { ($0 as? Count)?.value } == Array(0...limit))
        await within { await machine.finishAndWait() }
        #expect(machine.core.runningOutputCount == 0)
    }

    @Test("finishing while outputs feed the machine: every accepted event is processed, then it shuts down")
    func finishDuringFeedback() async {
        let machine = AsyncStateMachine<CounterState, CounterEvent>(initial: Count(value: 0)) {
            When(state: Count.self) {
                On(event: Increment.self) { state, event in
                    Transition(state: Count(value: state.value + 1))
                    Output(sideEffect: { () async -> (any Event<CounterEvent>)? in
                        Increment(sender: 0, sequence: event.sequence + 1)
                    })
                }
            }
        }.disableLog()
        let observed = Task {
            var last = -1
            var inOrder = true
            for await state in machine {
                let value = (state as! Count).value
                if value != last + 1 { inOrder = false }
                last = value
                if value == 500 { machine.finish() }
            }
            return (last, inOrder)
        }
        machine.send(event: Increment(sender: 0, sequence: 0))
        let result = await within("observation to end") { await observed.value }
        await within { await machine.finishAndWait() }
        #expect(result?.1 == true)
        #expect((result?.0 ?? 0) >= 500)
        #expect(machine.core.runningOutputCount == 0)
    }
}
