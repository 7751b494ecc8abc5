import StateMachineCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Records `state` as the latest state of the machine `stateMachineId`, for a machine that
/// is not an `AsyncStateMachine` (a transition table, a statechart): call it with the
/// initial state and after every step, and the dump lists the machine next to the
/// `activateDump` ones. Nothing removes the record; like `activateDump(trackDeinit: false)`
/// the dump keeps the last state. Costs one event sent to `dumpMediator`; it reaches a dump
/// machine only while it is collecting.
public func recordState(
    _ state: any State,
    of stateMachineId: UUID,
    dumpMediator: Mediator<DumpEvent> = defaultDumpMediator
) {
    dumpMediator.sendToReceivers(
        event: DidObserveTransition(context: StateContext(stateMachineId: stateMachineId, state: state))
    )
}
