import StateMachineSupport
import Synchronization
import TestSupport
import Testing

@testable import StateMachineCore

/// The synchronous flavour of `On` and the drainer's path that runs it without suspending:
/// both flavours must behave the same, in the same order, and lose nothing.
@Suite("Runtime: synchronous routes, publication and lastKnownState", .timeLimit(.minutes(1)))
struct SynchronousRouteTests {
    /// How many of the routes of (`state`, `event`) are synchronous, and how many there are.
    func flavours<S, E>(
        _ machine: StateMachine<FeatureState, FeatureEvent>,
        _ state: S.Type,
        _ event: E.Type
    ) -> (synchronous: Int, routes: Int) {
        let list = machine.routeTable[TypesIdentifier(lhsType: state, rhsType: event)]
        return (list?.synchronous.count ?? 0, list?.routes.count ?? 0)
    }

    @Test("closures that do not await make synchronous routes; a closure that awaits makes its pair asynchronous")
    func overloadSelection() {
        @Sendable func slowGuard() async -> Bool { true }
        let machine = StateMachine<FeatureState, FeatureEvent>(initial: DataIsIdle()) {
            When(state: DataIsIdle.self) {
                On(event: DidRequestLoading.self) { _, event in Transition(state: DataIsLoading(id: event.id)) }
                On(event: .loadingWasRequested) { _, _ in Transition(state: DataIsLoading(id: "token")) }
                On(event: DidTick.self) { _, _ in
                    await slowGuard()
                } transition: { _, _ in
                    Transition(state: DataIsLoaded(data: "tick"))
                }
            }
            When(states: DataIsLoaded.self, DataIsInFailure.self) {
                On(events: DidRequestReloading.self) { _, _ in Transition(state: DataIsLoading(id: "again")) }
                On(events: .didTick) { _, _ in
                    await slowGuard()
                } transition: { _, _ in
                    Transition(state: DataIsIdle())
                }
            }
        }
        #expect(flavours(machine, DataIsIdle.self, DidRequestLoading.self) == (2, 2))
        #expect(flavours(machine, DataIsIdle.self, DidTick.self) == (0, 1))
        #expect(flavours(machine, DataIsLoaded.self, DidRequestReloading.self) == (1, 1))
        #expect(flavours(machine, DataIsInFailure.self, DidRequestReloading.self) == (1, 1))
        #expect(flavours(machine, DataIsLoaded.self, DidTick.self) == (0, 1))
        let registered = machine.when(state: DataIsLoading.self, on: DidTick.self, synchronously: nil) { _, _ in
            MealyTransition(transition: Transition(state: DataIsIdle()))
        }
        #expect(flavours(registered, DataIsLoading.self, DidTick.self) == (1, 1))
    }

    @Test("a pair mixing synchronous and asynchronous routes tries them in declaration order")
    func mixedPairKeepsOrder() async {
        let evaluated = Recorder<String>()
        @Sendable func asyncYes() async -> Bool { true }
        let machine = AsyncStateMachine<FeatureState, FeatureEvent>(initial: DataIsIdle()) {
            When(state: DataIsIdle.self) {
                On(event: DidRequestLoading.self) { _, _ in
                    evaluated.append("first guard")
                    return false
                } transition: { _, _ in
                    Transition(state: DataIsLoaded(data: "first"))
                }
                On(event: DidRequestLoading.self) { _, _ in
                    evaluated.append("second guard")
                    return await asyncYes()
                } transition: { _, _ in
                    Transition(state: DataIsLoaded(data: "second"))
                }
                On(event: DidRequestLoading.self) { _, _ in
                    evaluated.append("third guard")
                    return true
                } transition: { _, _ in
                    Transition(state: DataIsLoaded(data: "third"))
                }
            }
        }.disableLog()
        #expect(flavours(machine.stateMachine, DataIsIdle.self, DidRequestLoading.self) == (0, 3))
        await within { await machine.sendAndWait(event: DidRequestLoading(id: "1")) }
        #expect(machine.lastKnownState as? DataIsLoaded == DataIsLoaded(data: "second"))
        #expect(evaluated.all == ["first guard", "second guard"])
        await machine.finishAndWait()
    }

    @Test("a synchronous route whose commit must suspend (a factory, a cancellable output) keeps the order of steps")
    func commitsThatSuspend() async {
        let steps = Recorder<String>()
        let started = Signal()
        let cancelled = Signal()
        let machine = AsyncStateMachine<FeatureState, FeatureEvent>(initial: DataIsIdle()) {
            When(state: DataIsIdle.self) {
                On(event: DidRequestLoading.self) { _, event in
                    Transition(state: { DataIsLoading(id: event.id) })
                    Output(
                        sideEffect: { () async -> (any Event<FeatureEvent>)? in
                            started.raise()
                            await withTaskCancellationHandler {
                                await cancelled.wait()
                            } onCancel: {
                                steps.append("output cancelled")
                                cancelled.raise()
                            }
                            return nil
                        },
                        cancellationPolicy: Cancel(on: DidTick.self)
                    )
                }
            }
            When(state: DataIsLoading.self) {
                On(event: DidTick.self) { _, _ in Transition(state: DataIsLoaded(data: "ticked")) }
            }
        }
        .disableLog()
        .onTransition { _, _, _, newState in steps.append("hook \(newState)") }
        await machine.sendAndWait(event: DidRequestLoading(id: "7"), until: .transitionCommitted)
        #expect(machine.lastKnownState as? DataIsLoading == DataIsLoading(id: "7"))
        await within { await started.wait() }
        await machine.sendAndWait(event: DidTick(), until: .transitionCommitted)
        #expect(machine.lastKnownState as? DataIsLoaded == DataIsLoaded(data: "ticked"))
        await machine.finishAndWait()
        let all = steps.all
        #expect(all.contains("output cancelled"))
        #expect(all.filter { $0.hasPrefix("hook") } == ["hook DataIsLoading", "hook DataIsLoaded"])
        let states = await take(3, from: machine)
        #expect(states.names == ["DataIsIdle", "DataIsLoading", "DataIsLoaded"])
    }

    @Test("hooks registered while the machine runs see exactly the later transitions")
    func hooksRegisteredLater() async {
        let seen = Recorder<Int>()
        let machine = countingMachine()
        for sequence in 0..<10 { machine.send(event: Increment(sender: 0, sequence: sequence)) }
        await machine.sendAndWait(event: Increment(sender: 0, sequence: 10), until: .transitionCommitted)
        #expect((machine.lastKnownState as? Count)?.value == 11)
        machine.onTransition { _, _, _, newState in seen.append((newState as! Count).value) }
        for sequence in 11..<20 { machine.send(event: Increment(sender: 0, sequence: sequence)) }
        await machine.finishAndWait()
        #expect(seen.all == Array(12...20))
    }

    @Test(
        "sendAndWait returns with lastKnownState up to date, while the pass that processed the output's event goes on"
    )
    func lastKnownStateWhenOutputFinished() async {
        let outputStarted = Signal()
        let outputGate = Signal()
        let drainGate = Signal()
        let checkGate = Signal()
        // Sender 0 starts an output that feeds sender 2; senders 1 and 3 hold the drainer.
        let machine = AsyncStateMachine<CounterState, CounterEvent>(initial: Count(value: 0)) {
            When(state: Count.self) {
                On(event: Increment.self) { state, event in
                    if event.sender == 1 { await drainGate.wait() }
                    if event.sender == 3 { await checkGate.wait() }
                    guard event.sender == 0 else {
                        return MealyTransition(transition: Transition(state: Count(value: state.value + 1)))
                    }
                    return MealyTransition(
                        transition: Transition(state: Count(value: state.value + 1)),
                        output: Output(sideEffect: { () async -> (any Event<CounterEvent>)? in
                            outputStarted.raise()
                            await outputGate.wait()
                            return Increment(sender: 2, sequence: 0)
                        })
                    )
                }
            }
        }.disableLog()
        let waiter = Task {
            await machine.sendAndWait(event: Increment(sender: 0, sequence: 0))
            let seen = (machine.lastKnownState as? Count)?.value
            checkGate.raise()
            return seen
        }
        await within { await outputStarted.wait() }
        machine.send(event: Increment(sender: 1, sequence: 0))
        outputGate.raise()
        // The output's event and the signal that ends the wait are queued behind the held pass;
        // a slow event follows them into the next pass.
        await within { while machine.core.shared.withLock({ $0.queue.count }) < 2 { await Task.yield() } }
        machine.send(event: Increment(sender: 3, sequence: 0))
        drainGate.raise()
        let seen = await within { await waiter.value }
        #expect(seen == 3)
        await machine.finishAndWait()
        #expect((machine.lastKnownState as? Count)?.value == 4)
    }

    @Test(
        "a long pass hands every state to a suspended observer, in order, whether or not publications within it wake it",
        arguments: [255, 256, 257, 512, 513, 5_000],
        [Duration.zero, .seconds(3_600)]
    )
    func longPassReachesSuspendedObserver(length: Int, wakeInterval: Duration) async {
        let release = Signal()
        let blocked = Signal()
        let sawInitial = Signal()
        // The machine's core, whose observer the burst waits for (set once the machine exists).
        let observedCore = Lock<MachineCore<CounterState, CounterEvent>?>(nil)
        let machine = AsyncStateMachine<CounterState, CounterEvent>(initial: Count(value: 0)) {
            When(state: Count.self) {
                // Holds the drainer (one pass) until the burst is queued behind it.
                On(event: Increment.self) { state, _ in
                    blocked.raise()
                    await release.wait()
                    return MealyTransition(transition: Transition(state: Count(value: state.value + 1)))
                }
                // The burst: its first event waits until the observer, woken by the end of the
                // previous pass, is suspended again, so that the publications of this pass
                // find it suspended.
                On(event: DidTickCounter.self) { state, event in
                    if event.isFirst, let core = observedCore.withLock({ $0 }) {
                        while core.shared.withLock({ $0.observer == nil }) { await Task.yield() }
                    }
                    return MealyTransition(transition: Transition(state: Count(value: state.value + 1)))
                }
            }
        }.disableLog()
        let core = machine.core
        observedCore.withLock { $0 = core }
        // .zero: every publication within the pass wakes the observer; an hour: none does,
        // and only the end of the pass may hand the last states over.
        core.midPassWakeInterval = wakeInterval
        let observed = Task {
            var values: [Int] = []
            for await state in machine {
                values.append((state as! Count).value)
                if values.count == 1 { sawInitial.raise() }
                if values.count == length + 2 { break }
            }
            return values
        }
        await within { await sawInitial.wait() }
        machine.send(event: Increment(sender: 0, sequence: 0))
        await within { await blocked.wait() }
        for index in 0..<length { machine.send(event: DidTickCounter(isFirst: index == 0)) }
        release.raise()
        let values = await within { await observed.value } ?? []
        #expect(values == Array(0...(length + 1)))
        #expect((machine.lastKnownState as? Count)?.value == length + 1)
        await machine.finishAndWait()
    }

    @Test("a route's state and event reach its closures as their own types, and erased under grouped forms")
    func routeCasts() async {
        let received = Recorder<String>()
        let machine = AsyncStateMachine<FeatureState, FeatureEvent>(initial: DataIsLoading(id: "x")) {
            When(state: DataIsLoading.self) {
                On(event: DidSucceedToLoad.self) { state, event in
                    received.append("\(state.id) \(event.data)")
                    return MealyTransition(transition: Transition(state: DataIsLoaded(data: event.data)))
                }
            }
            When(states: DataIsLoaded.self, DataIsIdle.self) {
                On(events: DidRequestReloading.self, DidTick.self) { state, event in
                    received.append("\(state) \(event)")
                    return MealyTransition(transition: Transition(state: DataIsIdle()))
                }
            }
        }.disableLog()
        machine.send(event: DidSucceedToLoad(data: "payload with a long string that lives on the heap"))
        machine.send(event: DidTick())
        await machine.sendAndWait(event: DidRequestReloading())
        #expect(
            received.all == [
                "x payload with a long string that lives on the heap", "DataIsLoaded DidTick",
                "DataIsIdle DidRequestReloading",
            ]
        )
        await machine.finishAndWait()
    }
}

/// A second event type of the counter.
struct DidTickCounter: Event {
    typealias SuperEvent = CounterEvent
    var isFirst = false
}
