import Foundation
import StateMachineSupport
import TestSupport
import Testing

@testable import StateMachineCore

// A second feature that receives events: a counter of loads.
struct LoadsState: Equatable, Sendable { let count: Int }
enum LoadsEvent {}
struct LoadsCounted: State, Equatable {
    let count: Int
    var superState: LoadsState { LoadsState(count: count) }
}
struct DidObserveLoad: Event {
    typealias SuperEvent = LoadsEvent
    let id: String
}

@Suite("Mediator", .timeLimit(.minutes(1)))
struct MediatorTests {
    func counter() -> AsyncStateMachine<LoadsState, LoadsEvent> {
        AsyncStateMachine<LoadsState, LoadsEvent>(initial: LoadsCounted(count: 0)) {
            When(state: LoadsCounted.self) {
                On(event: DidObserveLoad.self) { state, _ in Transition(state: LoadsCounted(count: state.count + 1)) }
            }
        }.disableLog()
    }

    @Test("every connectAsSender variant filters as its name says and reaches every receiver")
    func senderVariants() async {
        let mediator = Mediator<LoadsEvent>()
        let first = counter().connectAsReceiver(to: mediator)
        let second = counter().connectAsReceiver(to: mediator)
        #expect(mediator.receiverCount == 2)
        let sent = Recorder<String>()
        let source = AsyncStateMachine(stateMachine: loadingMachine()).disableLog()
            .connectAsSender(to: mediator) { _, _, _, new in
                sent.append("any -> \(type(of: new))")
                return DidObserveLoad(id: "any")
            }
            .connectAsSender(to: mediator, whenCurrentState: DataIsIdle.self) { _, _, _ in
                sent.append("from idle")
                return nil
            }
            .connectAsSender(to: mediator, on: DidSucceedToLoad.self) { _, event, _ in
                sent.append("on success \(event.data)")
                return nil
            }
            .connectAsSender(to: mediator, whenCurrentState: DataIsIdle.self, on: DidRequestLoading.self) { _, event in
                sent.append("idle + request \(event.id)")
                return nil
            }
            .connectAsSender(to: mediator, whenCurrentState: DataIsLoading.self, on: DidSucceedToLoad.self) {
                state,
                _,
                _ in
                sent.append("loading \(state.id) + success")
                return nil
            }
            .connectAsSender(to: mediator, whenNewState: DataIsLoaded.self) { _, _, new in
                sent.append("into loaded \(new.data)")
                return nil
            }
        await source.sendAndWait(event: DidRequestLoading(id: "7"))
        // Two transitions, each forwarded once by the unfiltered sender, to both receivers.
        let firstStates = await within { await take(3, from: first) } ?? []
        let secondStates = await within { await take(3, from: second) } ?? []
        #expect(firstStates.compactMap { ($0 as? LoadsCounted)?.count } == [0, 1, 2])
        #expect(secondStates.compactMap { ($0 as? LoadsCounted)?.count } == [0, 1, 2])
        await source.finishAndWait()
        #expect(
            Set(sent.all) == [
                "any -> DataIsLoading", "any -> DataIsLoaded", "from idle", "on success data",
                "idle + request 7", "loading 7 + success", "into loaded data",
            ]
        )
        #expect(sent.count == 7)
    }

    @Test("receivers are held weakly and unregister when released")
    func weakReceivers() async {
        let mediator = Mediator<LoadsEvent>()
        let unregistered = Signal()
        var receiver: AsyncStateMachine<LoadsState, LoadsEvent>? = counter()
            .connectAsReceiver(to: mediator)
            .onDeinit { _ in unregistered.raise() }
        #expect(mediator.receiverCount == 1)
        weak let weakReceiver = receiver
        receiver = nil
        #expect(weakReceiver == nil, "the mediator kept its receiver alive")
        await within { await unregistered.wait() }
        // onDeinit handlers run concurrently; the mediator's own one may still be running.
        mediator.sendToReceivers(event: DidObserveLoad(id: "after release"))
    }

    /// Holds a machine until a receiver releases it.
    final class Holder: Sendable {
        let machine = Lock<AsyncStateMachine<LoadsState, LoadsEvent>?>(nil)
    }

    @Test("a receiver released while an event is being delivered is skipped, the others still receive it")
    func releasedMidDelivery() async {
        let mediator = Mediator<LoadsEvent>()
        let survivor = counter().connectAsReceiver(to: mediator)
        let holder = Holder()
        let doomed = counter()
        weak let weakDoomed = doomed
        holder.machine.withLock { $0 = doomed.connectAsReceiver(to: mediator) }
        _ = consume doomed
        // A receiver that releases the doomed machine during delivery (before or after the
        // doomed machine's own turn, whichever order the snapshot has).
        let releaserID = UUID()
        mediator.receivers.withLock { receivers in
            receivers[releaserID] = { _ in holder.machine.withLock { $0 = nil } }
        }
        mediator.sendToReceivers(event: DidObserveLoad(id: "1"))
        #expect(weakDoomed == nil)
        mediator.sendToReceivers(event: DidObserveLoad(id: "2"))
        let states = await within { await take(3, from: survivor) } ?? []
        #expect(states.compactMap { ($0 as? LoadsCounted)?.count } == [0, 1, 2])
    }
}
