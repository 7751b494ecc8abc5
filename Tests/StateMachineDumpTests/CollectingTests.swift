import Foundation
import StateMachineCore
import StateMachineDump
import TestSupport
import Testing

/// Dumps `dumpStateMachine` until `condition` holds for the exported contexts. The dump
/// travels asynchronously from the machines' lifecycle callbacks, so the test awaits the
/// fact (each iteration is a full round trip through the dump machine), bounded by `within`.
func eventuallyDump(
    _ what: String,
    dumpStateMachine: AsyncStateMachine<DumpState, DumpEvent> = defaultDumpStateMachine,
    sourceLocation: SourceLocation = #_sourceLocation,
    until condition: @escaping @Sendable ([StateContext]) -> Bool
) async -> [StateContext]? {
    await within(what, sourceLocation: sourceLocation) {
        while !Task.isCancelled {
            let exported = Recorder<[StateContext]>()
            await StateMachineDump.dumpAndWait(dumpStateMachine: dumpStateMachine) { exported.append($0) }
            if let contexts = exported.all.first, condition(contexts) { return contexts }
            await Task.yield()
        }
        return []
    }
}

// Serialized: a collecting session is process wide.
@Suite("startCollecting / dump / stopCollecting", .serialized, .timeLimit(.minutes(1)))
struct CollectingTests {
    @Test("the seed's flow, module-qualified: start, activate, dump, stop")
    func seedFlow() async {
        StateMachineDump.startCollecting()
        let collecting = StateMachineDump.isCollecting
        #expect(collecting)
        let machine = makeLoadingMachine(load: { _ in nil }).activateDump()
        await machine.sendAndWait(event: DidRequestLoading(id: "42"))
        let contexts = await eventuallyDump("the machine is dumped as loading") { contexts in
            contexts.contains { $0.stateMachineId == machine.id && $0.state is DataIsLoading }
        }
        #expect(contexts?.filter { $0.stateMachineId == machine.id }.count == 1)
        let printed = Recorder<String>()
        StateMachineDump.dump { stateContexts in
            for context in stateContexts where context.stateMachineId == machine.id { printed.append("\(context)") }
        }
        _ = await eventuallyDump("the fire-and-forget dump has run") { _ in !printed.all.isEmpty }
        #expect(printed.all.first?.hasPrefix("[FeatureState] DataIsLoading at ") == true)
        StateMachineDump.stopCollecting()
        let stillCollecting = StateMachineDump.isCollecting
        #expect(!stillCollecting)
        StateMachineDump.stopCollecting()
        // Stopping forgets the records, and nothing is recorded any more.
        await machine.sendAndWait(event: DidSucceedToLoad(data: "x"))
        let afterStop = await eventuallyDump("the dump is empty after stop") { $0.isEmpty }
        #expect(afterStop == [])
    }

    @Test("a released machine leaves the dump; starting again replaces the session")
    func releaseAndRestart() async {
        let mediator = Mediator<DumpEvent>()
        let dumpMachine = makeDumpStateMachine()
        StateMachineDump.startCollecting(dumpStateMachine: dumpMachine, dumpMediator: mediator)
        // Starting again ends the first session (its drain task hands over the iterator).
        StateMachineDump.startCollecting(dumpStateMachine: dumpMachine, dumpMediator: mediator)
        #expect(mediator.receiverCount == 1)
        let kept = makeLoadingMachine(load: { _ in nil }).activateDump(dumpMediator: mediator)
        var released: AsyncStateMachine<FeatureState, FeatureEvent>? = makeLoadingMachine().activateDump(
            dumpMediator: mediator
        )
        let releasedId = released!.id
        await kept.sendAndWait(event: DidRequestLoading(id: "1"))
        await released!.sendAndWait(event: DidRequestLoading(id: "2"))
        let both = await eventuallyDump("both machines are dumped", dumpStateMachine: dumpMachine) { contexts in
            contexts.map(\.stateMachineId) == [kept.id, releasedId] && contexts[1].state is DataIsLoaded
        }
        #expect(both?.count == 2)
        released = nil
        let one = await eventuallyDump("the released machine is forgotten", dumpStateMachine: dumpMachine) {
            $0.map(\.stateMachineId) == [kept.id]
        }
        #expect(one?.first?.state as? DataIsLoading == DataIsLoading(id: "1"))
        StateMachineDump.stopCollecting()
        #expect(mediator.receiverCount == 0)
        _ = released
    }
}
