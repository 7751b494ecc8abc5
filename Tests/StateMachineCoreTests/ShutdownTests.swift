import Synchronization
import TestSupport
import Testing

@testable import StateMachineCore

@Suite("Runtime: finish, finishAndWait, deinit", .timeLimit(.minutes(1)))
struct ShutdownTests {
    @Test("finish drains the events already accepted and drops the later ones")
    func finishDrainsThenDrops() async {
        let machine = countingMachine()
        for sequence in 0..<50 { machine.send(event: Increment(sender: 0, sequence: sequence)) }
        machine.finish()
        for sequence in 50..<60 { machine.send(event: Increment(sender: 0, sequence: sequence)) }
        let returned: Void? = await within { await machine.sendAndWait(event: Increment(sender: 1, sequence: 0)) }
        #expect(returned != nil, "sendAndWait on a finished machine must return at once")
        let states = await within { await take(1_000, from: machine) } ?? []
        #expect(states.compactMap { ($0 as? Count)?.value } == Array(0...50))
        await machine.finishAndWait()
        #expect((machine.lastKnownState as? Count)?.value == 50)
    }

    @Test("events an output feeds after finish are rejected")
    func outputEventsAfterFinish() async {
        let release = Signal()
        let machine = AsyncStateMachine(
            stateMachine: loadingMachine { _ in
                await withTaskCancellationHandler {
                    await release.wait()
                } onCancel: {
                    release.raise()
                }
                return DidSucceedToLoad(data: "too late")
            }
        ).disableLog()
        await machine.sendAndWait(event: DidRequestLoading(id: "1"), until: .transitionCommitted)
        await within { await machine.finishAndWait() }
        #expect(machine.lastKnownState is DataIsLoading)
    }

    @Test("finishAndWait returns only after an output that ignores cancellation has exited")
    func finishAndWaitAwaitsUncooperativeOutputs() async {
        let started = Signal()
        let sawCancellation = Signal()
        let release = Signal()
        let exited = Signal()
        let machine = AsyncStateMachine(
            stateMachine: loadingMachine { _ in
                started.raise()
                await withTaskCancellationHandler {
                    await release.waitIgnoringCancellation()
                } onCancel: {
                    sawCancellation.raise()
                }
                exited.raise()
                return nil
            }
        ).disableLog()
        machine.send(event: DidRequestLoading(id: "1"))
        await within { await started.wait() }
        let finished = Signal()
        let finisher = Task {
            await machine.finishAndWait()
            #expect(exited.isRaised, "finishAndWait returned before the output exited")
            finished.raise()
        }
        // Shutdown has begun once the output has been cancelled; the output still runs.
        await within { await sawCancellation.wait() }
        #expect(!finished.isRaised, "finishAndWait returned while an output was still running")
        release.raise()
        await within { await finisher.value }
        #expect(finished.isRaised)
    }

    @Test("onDeinit fires once, after every other lifecycle callback, when the machine is released")
    func onDeinitOnce() async {
        let calls = Recorder<String>()
        let deinitialized = Signal()
        var machine: AsyncStateMachine<CounterState, CounterEvent>? = countingMachine()
            .onInitialState { _, _ in calls.append("initial") }
            .onTransition { _, _, _, _ in calls.append("transition") }
            .onDeinit { _ in
                calls.append("deinit")
                deinitialized.raise()
            }
        machine?.send(event: Increment(sender: 0, sequence: 0))
        machine = nil
        await within { await deinitialized.wait() }
        #expect(calls.all == ["initial", "transition", "deinit"])
    }

    @Test("a released machine that was never started still reports its initial state to hooks")
    func deinitStartsForHooks() async {
        let initial = Signal()
        var machine: AsyncStateMachine<CounterState, CounterEvent>? = countingMachine()
            .onInitialState { _, state in if (state as? Count)?.value == 0 { initial.raise() } }
        _ = machine
        machine = nil
        await within { await initial.wait() }
    }

    @Test("the command loop does not keep its machine alive")
    func loopDoesNotRetainMachine() async {
        weak var weakMachine: AsyncStateMachine<CounterState, CounterEvent>?
        let deinitialized = Signal()
        do {
            let machine = countingMachine().onDeinit { _ in deinitialized.raise() }
            weakMachine = machine
            await machine.sendAndWait(event: Increment(sender: 0, sequence: 0))
        }
        await within { await deinitialized.wait() }
        #expect(weakMachine == nil)
    }
}

@Suite("Runtime: lifecycle callbacks", .timeLimit(.minutes(1)))
struct LifecycleTests {
    @Test("onLifecycleEvent sees the initial state, then each transition, in order")
    func lifecycleOrder() async {
        let events = Recorder<String>()
        let machine = AsyncStateMachine(stateMachine: loadingMachine()).disableLog()
            .onLifecycleEvent { event in
                switch event {
                case .initialState(_, let state):
                    events.append("initial \(type(of: state))")
                case .transition(_, let state, let event, let newState):
                    events.append("\(type(of: state)) + \(type(of: event)) -> \(type(of: newState))")
                }
                #expect((event.receivedEvent == nil) == (event.newState == nil))
            }
        await machine.sendAndWait(event: DidRequestLoading(id: "1"))
        await machine.finishAndWait()
        #expect(
            events.all == [
                "initial DataIsIdle",
                "DataIsIdle + DidRequestLoading -> DataIsLoading",
                "DataIsLoading + DidSucceedToLoad -> DataIsLoaded",
            ]
        )
    }

    @Test("events are serialized while the handlers of one event run concurrently; the machine does not wait")
    func handlersConcurrentEventsSerialized() async {
        let firstHandlerStarted = Signal()
        let secondHandlerStarted = Signal()
        let release = Signal()
        let transitionSeen = Signal()
        let machine = AsyncStateMachine(stateMachine: loadingMachine()).disableLog()
            .onInitialState { _, _ in
                firstHandlerStarted.raise()
                await release.wait()
            }
            .onInitialState { _, _ in
                secondHandlerStarted.raise()
                await release.wait()
            }
            .onTransition { _, _, _, _ in transitionSeen.raise() }
        let committed: Void? = await within {
            await machine.sendAndWait(event: DidRequestLoading(id: "1"), until: .transitionCommitted)
        }
        #expect(committed != nil, "the machine waited for a blocked lifecycle handler")
        // Both initial handlers are running at once (neither returns before `release`).
        await within { await firstHandlerStarted.wait() }
        await within { await secondHandlerStarted.wait() }
        #expect(!transitionSeen.isRaised, "a transition was delivered before the initial-state handlers finished")
        release.raise()
        await within { await transitionSeen.wait() }
        await machine.finishAndWait()
    }

    @Test("lifecycleCallbacksDelivered returns once the callbacks of what was committed before it have run")
    func callbacksDelivered() async {
        let handlerStarted = Signal()
        let release = Signal()
        let seen = Recorder<String>()
        let machine = AsyncStateMachine(stateMachine: loadingMachine()).disableLog()
            .onTransition { _, _, _, newState in
                handlerStarted.raise()
                await release.wait()
                seen.append("\(type(of: newState))")
            }
        // Both transitions (the load's output sends the second) are committed.
        await machine.sendAndWait(event: DidRequestLoading(id: "1"))
        await within { await handlerStarted.wait() }
        // The first transition's callback is held: what the wait sees when it returns is
        // everything, not what had run when it was called (nothing).
        let afterWait = Task { () -> [String] in
            await machine.lifecycleCallbacksDelivered()
            return seen.all
        }
        release.raise()
        let delivered = await within { await afterWait.value }
        #expect(delivered == ["DataIsLoading", "DataIsLoaded"])
        await machine.finishAndWait()
    }
}
