import Foundation
import Observation
import TestSupport
import Testing

@testable import StateMachineCore
@testable import StateMachineUI

@Suite("UIStateMachine", .timeLimit(.minutes(1)))
@MainActor
struct UIStateMachineTests {
    @Test("the initial UI state is the mapped last known state, before start")
    func initialState() async {
        let machine = loadingMachine()
        await machine.sendAndWait(event: DidRequestLoading(id: "1"))
        await machine.sendAndWait(event: DidSucceedToLoad(data: "x"))
        let plain = UIStateMachine(asyncStateMachine: machine)
        #expect(plain.state == FeatureState(isLoaded: true))
        let mapped = UIStateMachine(asyncStateMachine: machine) { $0.isLoaded ? "loaded" : "not loaded" }
        #expect(mapped.state == "loaded")
        #expect(!mapped.isObserving)
        #expect(mapped.stateMachineId == machine.id)
    }

    @Test("machineStateDescription names the machine's state, not the mapped one, as it changes")
    func machineStateDescription() async {
        let machine = loadingMachine()
        let ui = UIStateMachine(asyncStateMachine: machine) { $0.isLoaded ? "loaded" : "not loaded" }
        #expect(ui.machineStateDescription == "DataIsIdle")
        await machine.sendAndWait(event: DidRequestLoading(id: "1"))
        #expect(ui.machineStateDescription == "\(DataIsLoading(id: "1"))")
        #expect(ui.machineStateDescription != "DataIsIdle")
    }

    @Test("deduplication: Idle -> Loading -> Loading -> Loaded with equal super states publishes two values")
    func deduplication() async {
        let machine = loadingMachine()
        let ui = UIStateMachine(asyncStateMachine: machine)
        let counter = ChangeCounter(ui)
        #expect(ui.state == FeatureState(isLoaded: false))
        ui.start()
        ui.send(DidRequestLoading(id: "1"))
        ui.send(DidRequestLoading(id: "2"))
        ui.send(DidSucceedToLoad(data: "x"))
        await waitUntil(ui) { $0.isLoaded }
        // Published: the initial value, then `loaded`, assigned once.
        #expect(counter.changes == 1)
        // The machine went through all four states.
        #expect(machine.lastKnownState as? DataIsLoaded == DataIsLoaded(data: "x"))
    }

    @Test("a mapping runs on every state; only changed mapped values are assigned")
    func mapping() async {
        let machine = counterMachine()
        let ui = UIStateMachine(asyncStateMachine: machine) { $0.isEven ? "even" : "odd" }
        let counter = ChangeCounter(ui)
        ui.start()
        for value in [2, 4, 5, 7, 8] { ui.send(DidSetValue(value: value)) }
        await ui.sendAndWait(DidSetValue(value: 10))
        await waitUntil(ui) { $0 == "even" }
        // 0 -> 2 -> 4 (even, unchanged) -> 5 (odd) -> 7 -> 8 (even) -> 10: two assignments,
        // once the last state has been applied.
        await waitUntil(ui, "the last state is applied") { _ in counter.changes == 2 }
        #expect(counter.changes == 2)
    }

    @Test("send and sendAndWait, with and without labels")
    func sending() async {
        let machine = counterMachine()
        let ui = UIStateMachine(asyncStateMachine: machine)
        ui.send(DidRequestIncrease())
        await ui.sendAndWait(DidRequestIncrease())
        #expect(machine.lastKnownState as? Count == Count(value: 2))
        // Not observing: the UI state has not moved.
        #expect(ui.state == CounterState(value: 0))
        ui.start()
        await waitUntil(ui) { $0.value == 2 }
    }

    @Test("start is idempotent; stop ends observation; start again carries on")
    func startStop() async {
        let machine = counterMachine()
        let ui = UIStateMachine(asyncStateMachine: machine)
        ui.start()
        ui.start()
        #expect(ui.isObserving)
        await ui.sendAndWait(DidSetValue(value: 1))
        await waitUntil(ui) { $0.value == 1 }
        ui.stop()
        #expect(!ui.isObserving)
        await ui.sendAndWait(DidSetValue(value: 2))
        // A stopped UI machine assigns nothing, even once the main actor is free to.
        await Task.yield()
        #expect(ui.state == CounterState(value: 1))
        ui.start()
        ui.stop()
        ui.start()
        await waitUntil(ui) { $0.value == 2 }
        await ui.sendAndWait(DidSetValue(value: 3))
        await waitUntil(ui) { $0.value == 3 }
        // The stopped observations have ended by now; they did not clear the live one.
        #expect(ui.isObserving)
    }

    @Test("observation ends by itself when the machine finishes")
    func machineFinishes() async {
        let machine = counterMachine()
        let ui = UIStateMachine(asyncStateMachine: machine)
        ui.start()
        await machine.sendAndWait(event: DidSetValue(value: 1))
        machine.finish()
        await waitUntil(ui) { $0.value == 1 }
        let ended = await within("the observation ends") { @MainActor in
            while ui.isObserving { await Task.yield() }
            return true
        }
        #expect(ended == true)
    }

    @Test("a second UI machine observing the same machine directly gets no states (observation is unicast)")
    func secondObserverOfOneMachine() async {
        let machine = counterMachine()
        let first = UIStateMachine(asyncStateMachine: machine)
        let second = UIStateMachine(asyncStateMachine: machine)
        first.start()
        await first.sendAndWait(DidSetValue(value: 1))
        await waitUntil(first) { $0.value == 1 }
        // The first UI machine holds the machine's only iterator: the second one's ends at
        // once (the machine reports the misuse on standard error).
        second.start()
        let ended = await within("the second observation ends") { @MainActor in
            while second.isObserving { await Task.yield() }
            return true
        }
        #expect(ended == true)
        await machine.sendAndWait(event: DidSetValue(value: 2))
        await waitUntil(first) { $0.value == 2 }
        #expect(second.state == CounterState(value: 0))
    }

    @Test("a singleton factory: UI machines stay in sync, a late one starts from the last state")
    func singletonFactory() async {
        let factory = AsyncStateMachineFactory(lifecycle: .singleton) { counterMachine() }
        let first = UIStateMachine(asyncStateMachineFactory: factory)
        let second = UIStateMachine(asyncStateMachineFactory: factory) { "\($0.value)" }
        first.start()
        second.start()
        await first.sendAndWait(DidSetValue(value: 5))
        await waitUntil(first) { $0.value == 5 }
        await waitUntil(second) { $0 == "5" }
        let late = UIStateMachine(asyncStateMachineFactory: factory)
        #expect(late.state == CounterState(value: 5))
        late.start()
        await late.sendAndWait(DidRequestIncrease())
        await waitUntil(first) { $0.value == 6 }
        await waitUntil(second) { $0 == "6" }
        await waitUntil(late) { $0.value == 6 }
        #expect(factory.makeAsyncStateMachine().id == late.stateMachineId)
    }

    @Test("an instance factory gives each UI machine its own machine")
    func instanceFactory() async {
        let factory = AsyncStateMachineFactory { counterMachine() }
        let first = UIStateMachine(asyncStateMachineFactory: factory)
        let second = UIStateMachine(asyncStateMachineFactory: factory)
        #expect(first.stateMachineId != second.stateMachineId)
        first.start()
        second.start()
        await first.sendAndWait(DidSetValue(value: 3))
        await waitUntil(first) { $0.value == 3 }
        #expect(second.state == CounterState(value: 0))
    }

    @Test("releasing the UI machine ends its observation and releases an unshared machine")
    func releaseStopsObservation() async {
        let released = AsyncStream<Void>.makeStream()
        var ui: UIStateMachine<CounterState, CounterEvent>? = UIStateMachine(
            asyncStateMachine: counterMachine().onDeinit { _ in released.continuation.finish() }
        )
        ui?.start()
        await ui?.sendAndWait(DidSetValue(value: 1))
        await waitUntil(ui!) { $0.value == 1 }
        ui = nil
        let ended = await within("the machine is released") {
            for await _ in released.stream {}
            return true
        }
        #expect(ended == true)
    }
}
