import Synchronization
import TestSupport
import Testing

@testable import StateMachineCore

/// A side effect that reports its start, then waits until it is cancelled (or released),
/// reporting whether it saw the cancellation, and finally returns `result`.
final class ControlledSideEffect: Sendable {
    let started = Signal()
    let sawCancellation = Signal()
    let release = Signal()
    let result: any Event<FeatureEvent>

    init(result: any Event<FeatureEvent> = DidSucceedToLoad(data: "from a cancelled output")) {
        self.result = result
    }

    @Sendable func run() async -> (any Event<FeatureEvent>)? {
        started.raise()
        await withTaskCancellationHandler {
            await release.wait()
        } onCancel: {
            sawCancellation.raise()
            release.raise()
        }
        return result
    }
}

/// Makes a policy with `Cancel`'s deprecated historical spelling, which must keep building
/// and behaving like `whenCurrentState:`.
protocol HistoricalCancelSpelling {
    static func cancel() -> Cancel<FeatureState, FeatureEvent>
}

/// Called through ``HistoricalCancelSpelling``, so that the test of a deprecated initialiser
/// builds without a deprecation warning: only this deprecated witness spells it.
enum HistoricalSpelling: HistoricalCancelSpelling {
    @available(*, deprecated, message: "uses Cancel(whencurrentState:on:) on purpose")
    static func cancel() -> Cancel<FeatureState, FeatureEvent> {
        Cancel(whencurrentState: DataIsLoading.self, on: DidTick.self)
    }

    /// The policy, through the protocol's requirement (which is not deprecated).
    static func policy() -> Cancel<FeatureState, FeatureEvent> {
        (Self.self as any HistoricalCancelSpelling.Type).cancel()
    }
}

@Suite("Outputs: cancellation, restart, failure, priority", .timeLimit(.minutes(1)))
struct OutputTests {
    /// Idle --DidRequestLoading--> Loading (starts `effect` with `policy`);
    /// Loading --DidTick--> Loading; Loading --DidRequestReloading--> Loaded("cancelled");
    /// Loading --DidSucceedToLoad--> Loaded(data).
    func machine(
        _ effect: ControlledSideEffect,
        policy: Cancel<FeatureState, FeatureEvent>,
        asModifier: Bool = false
    ) -> AsyncStateMachine<FeatureState, FeatureEvent> {
        let output =
            asModifier
            ? Output(sideEffect: effect.run).cancellationPolicy(cancel: policy)
            : Output(sideEffect: effect.run, cancellationPolicy: policy)
        return AsyncStateMachine<FeatureState, FeatureEvent>(initial: DataIsIdle()) {
            When(state: DataIsIdle.self) {
                On(event: DidRequestLoading.self) { _, event in
                    Transition(state: DataIsLoading(id: event.id))
                    output
                }
            }
            // A result that leaked out of a cancelled output would show as DataIsLoaded(data:).
            When(state: DataIsLoaded.self) {
                On(event: DidSucceedToLoad.self) { _, event in Transition(state: DataIsLoaded(data: event.data)) }
            }
            When(state: DataIsLoading.self) {
                On(event: DidTick.self) { state, _ in Transition(state: state) }
                On(event: DidRequestReloading.self) { _, _ in Transition(state: DataIsLoaded(data: "cancelled")) }
                On(event: DidSucceedToLoad.self) { _, event in Transition(state: DataIsLoaded(data: event.data)) }
            }
        }.disableLog()
    }

    static let policies: [(String, Cancel<FeatureState, FeatureEvent>, any Event<FeatureEvent>)] = [
        ("Cancel(on:)", Cancel(on: DidRequestReloading.self), DidRequestReloading()),
        (
            "Cancel(on:) on an event with no route", Cancel(on: DidFailToLoad.self),
            DidFailToLoad(error: LoadingFailed())
        ),
        ("Cancel(whenCurrentState:on:)", Cancel(whenCurrentState: DataIsLoading.self, on: DidTick.self), DidTick()),
        ("Cancel(whencurrentState:on:), deprecated", HistoricalSpelling.policy(), DidTick()),
        ("Cancel(whenNewState:)", Cancel(whenNewState: DataIsLoaded.self), DidRequestReloading()),
        (
            "Cancel(predicate:)",
            Cancel { current, event, new in current is DataIsLoading && event is DidTick && new != nil }, DidTick()
        ),
        ("cancellationPolicy(cancel:) modifier", Cancel(on: DidTick.self), DidTick()),
    ]

    @Test(
        "each Cancel form cancels the running output, which observes it, and its result never reaches the machine",
        arguments: 0..<policies.count
    )
    func cancelForms(index: Int) async {
        let (name, policy, trigger) = Self.policies[index]
        let effect = ControlledSideEffect()
        let machine = self.machine(effect, policy: policy, asModifier: name.contains("modifier"))
        machine.send(event: DidRequestLoading(id: "1"))
        await within("\(name): output start") { await effect.started.wait() }
        await machine.sendAndWait(event: trigger)
        await within("\(name): cancellation") { await effect.sawCancellation.wait() }
        // Wait until the output's task has exited, then put a barrier behind anything it fed.
        await within("\(name): output exit") { await machine.core.cancelAllOutputsAndWait() }
        await machine.sendAndWait(event: DidTick(), until: .transitionCommitted)
        await machine.finishAndWait()
        let states = await take(10, from: machine)
        #expect(!states.contains { ($0 as? DataIsLoaded)?.data == "from a cancelled output" }, "\(name)")
    }

    @Test("a cancellation policy does not cancel on events it does not match, nor on the event that started the output")
    func policyDoesNotMatch() async {
        let effect = ControlledSideEffect(result: DidSucceedToLoad(data: "kept"))
        let machine = machine(effect, policy: Cancel(on: DidRequestLoading.self))
        await machine.sendAndWait(event: DidRequestLoading(id: "1"), until: .transitionCommitted)
        await within { await effect.started.wait() }
        await machine.sendAndWait(event: DidTick())
        #expect(!effect.sawCancellation.isRaised)
        effect.release.raise()
        let states = await within { await take(4, from: machine) } ?? []
        #expect(states.last as? DataIsLoaded == DataIsLoaded(data: "kept"))
    }

    @Test("restartOnFailure(maxRestarts: 3) runs a failing side effect exactly 4 times and maps every failure")
    func restartOnFailureCount() async {
        let runs = Atomic(0)
        let failures = Recorder<String>()
        let machine = AsyncStateMachine<FeatureState, FeatureEvent>(initial: DataIsIdle()) {
            When(state: DataIsIdle.self) {
                On(event: DidRequestLoading.self) { _, _ in
                    Output(
                        sideEffect: { () async throws -> (any Event<FeatureEvent>)? in
                            runs.add(1, ordering: .relaxed)
                            throw LoadingFailed()
                        },
                        lifecyclePolicy: .restartOnFailure(maxRestarts: 3),
                        onFailure: { _ in
                            failures.append("failure")
                            return nil
                        }
                    )
                }
            }
        }.disableLog()
        await within { await machine.sendAndWait(event: DidRequestLoading(id: "1")) }
        #expect(runs.load(ordering: .relaxed) == 4)
        #expect(failures.count == 4)
    }

    @Test("restartOnCompletion restarts finished side effects, not failed ones; delay gets the restart number")
    func restartOnCompletion() async {
        let runs = Atomic(0)
        let delays = Recorder<Int>()
        let machine = AsyncStateMachine<FeatureState, FeatureEvent>(initial: DataIsIdle()) {
            When(state: DataIsIdle.self) {
                On(event: DidRequestLoading.self) { _, _ in
                    Output(
                        sideEffect: { () async throws -> (any Event<FeatureEvent>)? in
                            let run = runs.add(1, ordering: .relaxed).newValue
                            if run == 3 { throw LoadingFailed() }
                            return nil
                        },
                        lifecyclePolicy: .restartOnCompletion(delay: { delays.append($0) })
                    )
                }
            }
        }.disableLog()
        await within { await machine.sendAndWait(event: DidRequestLoading(id: "1")) }
        #expect(runs.load(ordering: .relaxed) == 3)
        #expect(delays.all == [1, 2])
    }

    @Test(
        "restartAlways with maxRestarts stops at the limit; none never restarts",
        arguments: [
            (LifecyclePolicy.restartAlways(maxRestarts: 2), 3),
            (LifecyclePolicy.none, 1),
            (LifecyclePolicy.restartOnFailure(), 1),
        ]
    )
    func restartLimits(policy: LifecyclePolicy, expectedRuns: Int) async {
        let runs = Atomic(0)
        let machine = AsyncStateMachine<FeatureState, FeatureEvent>(initial: DataIsIdle()) {
            When(state: DataIsIdle.self) {
                On(event: DidRequestLoading.self) { _, _ in
                    Output(sideEffect: { () async -> (any Event<FeatureEvent>)? in
                        runs.add(1, ordering: .relaxed)
                        return nil
                    })
                    .lifecyclePolicy(policy)
                }
            }
        }.disableLog()
        await within { await machine.sendAndWait(event: DidRequestLoading(id: "1")) }
        #expect(runs.load(ordering: .relaxed) == expectedRuns)
    }

    @Test("onFailure turns a thrown error into an event; CancellationError is neither mapped nor restarted")
    func onFailure() async {
        let mapped = Recorder<String>()
        let machine = AsyncStateMachine<FeatureState, FeatureEvent>(initial: DataIsIdle()) {
            When(state: DataIsIdle.self) {
                On(event: DidRequestLoading.self) { _, event in
                    Transition(state: DataIsLoading(id: event.id))
                    Output(sideEffect: { () async throws -> (any Event<FeatureEvent>)? in
                        if event.id == "cancel" { throw CancellationError() }
                        throw LoadingFailed()
                    })
                    .onFailure { error in
                        mapped.append(String(describing: error))
                        return DidFailToLoad(error: error)
                    }
                    .lifecyclePolicy(.restartAlways(maxRestarts: 5))
                }
            }
            When(state: DataIsLoading.self) {
                On(event: DidFailToLoad.self) { state, event in
                    Transition(state: DataIsInFailure(id: state.id, error: event.error))
                }
            }
            When(state: DataIsInFailure.self) {
                On(event: DidRequestLoading.self) { _, event in
                    Transition(state: DataIsLoading(id: event.id))
                    Output(sideEffect: { () async throws -> (any Event<FeatureEvent>)? in throw CancellationError() })
                        .onFailure { error in
                            mapped.append("cancellation mapped")
                            return nil
                        }
                }
            }
        }.disableLog()
        await within { await machine.sendAndWait(event: DidRequestLoading(id: "x")) }
        #expect(mapped.count == 6)
        #expect(machine.lastKnownState is DataIsInFailure)
        await within { await machine.sendAndWait(event: DidRequestLoading(id: "cancel")) }
        #expect(mapped.count == 6)
    }

    @Test("stream outputs: erased and concrete sequences feed every element, in order")
    func streamOutputs() async {
        let machine = AsyncStateMachine<CounterState, CounterEvent>(initial: Count(value: 0)) {
            When(state: Count.self) {
                On(event: Increment.self) { state, event in
                    Transition(state: Count(value: state.value + 1))
                    Output(sideEffect: { () async -> AsyncStream<Increment> in
                        AsyncStream { continuation in
                            if event.sender == 0 {
                                for sequence in 1...3 { continuation.yield(Increment(sender: 1, sequence: sequence)) }
                            }
                            continuation.finish()
                        }
                    })
                }
            }
        }.disableLog()
        let erased = Output<CounterState, CounterEvent>(sideEffect: {
            () async -> AsyncStream<any Event<CounterEvent>> in
            AsyncStream { continuation in
                continuation.yield(Increment(sender: 2, sequence: 0))
                continuation.finish()
            }
        })
        let erasedMachine = AsyncStateMachine(
            stateMachine: StateMachine<CounterState, CounterEvent>(initial: Count(value: 0))
                .when(state: Count.self, on: Increment.self) { state, event in
                    event.sender == 0
                        ? MealyTransition(transition: Transition(state: Count(value: state.value + 1)), output: erased)
                        : MealyTransition(transition: Transition(state: Count(value: state.value + 10)))
                }
        ).disableLog()
        machine.send(event: Increment(sender: 0, sequence: 0))
        erasedMachine.send(event: Increment(sender: 0, sequence: 0))
        let states = await within { await take(5, from: machine) } ?? []
        #expect(states.compactMap { ($0 as? Count)?.value } == [0, 1, 2, 3, 4])
        let erasedStates = await within { await take(3, from: erasedMachine) } ?? []
        #expect(erasedStates.compactMap { ($0 as? Count)?.value } == [0, 1, 11])
    }

    @Test("an output runs at its requested priority")
    func priority() async {
        let observed = Recorder<TaskPriority>()
        let machine = AsyncStateMachine<FeatureState, FeatureEvent>(initial: DataIsIdle()) {
            When(state: DataIsIdle.self) {
                On(event: DidRequestLoading.self) { _, _ in
                    Output(
                        priority: .high,
                        sideEffect: { () async -> (any Event<FeatureEvent>)? in
                            observed.append(Task.currentPriority)
                            return nil
                        }
                    )
                }
            }
        }.disableLog()
        await within { await machine.sendAndWait(event: DidRequestLoading(id: "1")) }
        #expect(observed.all.count == 1)
        #expect(observed.all.allSatisfy { $0 >= .high })
    }
}
