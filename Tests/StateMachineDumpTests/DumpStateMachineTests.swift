import Foundation
import TestSupport
import Testing

@testable import StateMachineCore
@testable import StateMachineDump

@Suite("The dump machine", .timeLimit(.minutes(1)))
struct DumpStateMachineTests {
    @Test("the spec's sequence: {} -> {id1: Loading} -> {id1, id2: Loaded} -> {id1} after id2 is released")
    func specSequence() async {
        let dumpMachine = makeDumpStateMachine()
        let (id1, id2) = (UUID(), UUID())
        let loading = StateContext(stateMachineId: id1, state: DataIsLoading(id: "1"))
        let loaded = StateContext(stateMachineId: id2, state: DataIsLoaded(data: "2"))
        dumpMachine.send(event: DidObserveTransition(context: loading))
        dumpMachine.send(event: DidObserveTransition(context: loaded))
        dumpMachine.send(event: DidObserveDeinit(stateMachineId: id2))
        let exported = Recorder<[StateContext]>()
        await dumpMachine.sendAndWait(event: DidRequestDump { exported.append($0) })
        dumpMachine.finish()
        let states = await within {
            var states: [DumpState] = []
            for await state in dumpMachine { states.append(state as! DumpState) }
            return states
        }
        #expect(
            states == [
                DumpState(),
                DumpState(stateContexts: [loading]),
                DumpState(stateContexts: [loading, loaded]),
                DumpState(stateContexts: [loading]),
            ]
        )
        #expect(states?.map(\.stateMachineIds) == [[], [id1], [id1, id2], [id1]])
        #expect(exported.all == [[loading]])
    }

    @Test("a new state for a known machine updates it in place; an unknown release changes nothing")
    func updateInPlace() async {
        let dumpMachine = makeDumpStateMachine()
        let (id1, id2) = (UUID(), UUID())
        for context in [
            StateContext(stateMachineId: id1, state: DataIsIdle()),
            StateContext(stateMachineId: id2, state: DataIsIdle()),
            StateContext(stateMachineId: id1, state: DataIsLoading(id: "1")),
        ] {
            dumpMachine.send(event: DidObserveTransition(context: context))
        }
        dumpMachine.send(event: DidObserveDeinit(stateMachineId: UUID()))
        let exported = Recorder<[StateContext]>()
        await dumpAndWait(dumpStateMachine: dumpMachine) { exported.append($0) }
        let contexts = exported.all.first ?? []
        #expect(contexts.map(\.stateMachineId) == [id1, id2])
        #expect(contexts.first?.state as? DataIsLoading == DataIsLoading(id: "1"))
        #expect(dumpMachine.lastKnownState as? DumpState == DumpState(stateContexts: contexts))
        await dumpMachine.finishAndWait()
    }

    @Test("machines that activateDump reach a dump machine connected to their mediator, and leave it when released")
    func machinesReportThroughTheMediator() async {
        let mediator = Mediator<DumpEvent>()
        let dumpMachine = makeDumpStateMachine().connectAsReceiver(to: mediator)
        let kept = makeLoadingMachine(load: { _ in nil }).activateDump(dumpMediator: mediator)
        var released: AsyncStateMachine<FeatureState, FeatureEvent>? = makeLoadingMachine().activateDump(
            dumpMediator: mediator
        )
        let releasedId = released!.id
        await kept.sendAndWait(event: DidRequestLoading(id: "kept"))
        await released!.sendAndWait(event: DidRequestLoading(id: "released"))
        var iterator = dumpMachine.makeAsyncIterator()
        /// Consumes dump states until one satisfies `condition`.
        func awaitDump(_ what: String, _ condition: (DumpState) -> Bool) async -> DumpState? {
            while let state = await iterator.next() as? DumpState {
                if condition(state) { return state }
            }
            Issue.record("the dump machine ended before \(what)")
            return nil
        }
        let both = await awaitDump("both machines are recorded") { dump in
            dump[stateMachineId: kept.id]?.state is DataIsLoading
                && dump[stateMachineId: releasedId]?.state is DataIsLoaded
        }
        #expect(both?.stateMachineIds.count == 2)
        released = nil
        let afterRelease = await awaitDump("the released machine is forgotten") { dump in
            dump[stateMachineId: releasedId] == nil
        }
        #expect(afterRelease?.stateMachineIds == [kept.id])
        #expect(afterRelease?[stateMachineId: kept.id]?.state as? DataIsLoading == DataIsLoading(id: "kept"))
        _ = released
    }

    @Test("trackDeinit: false keeps a released machine's last state")
    func untrackedDeinit() async {
        let mediator = Mediator<DumpEvent>()
        let dumpMachine = makeDumpStateMachine().connectAsReceiver(to: mediator)
        var machine: AsyncStateMachine<FeatureState, FeatureEvent>? = makeLoadingMachine()
            .activateDump(trackDeinit: false, dumpMediator: mediator)
        let id = machine!.id
        await machine!.sendAndWait(event: DidRequestLoading(id: "1"))
        // A marker machine released after the untracked one: its release, forgotten by
        // the dump, proves the untracked release had its chance to arrive first.
        var marker: AsyncStateMachine<FeatureState, FeatureEvent>? = makeLoadingMachine().activateDump(
            dumpMediator: mediator
        )
        let markerId = marker!.id
        await machine!.finishAndWait()
        await marker!.sendAndWait(event: DidRequestLoading(id: "marker"))
        machine = nil
        marker = nil
        var iterator = dumpMachine.makeAsyncIterator()
        var seenMarker = false
        var last: DumpState?
        while let state = await iterator.next() as? DumpState {
            last = state
            if state[stateMachineId: markerId] != nil { seenMarker = true }
            if seenMarker, state[stateMachineId: markerId] == nil { break }
        }
        #expect(last?[stateMachineId: id]?.state is DataIsLoaded)
        _ = (machine, marker)
    }
}
