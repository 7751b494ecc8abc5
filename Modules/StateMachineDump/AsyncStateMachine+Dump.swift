import StateMachineCore

extension AsyncStateMachine {
    /// Records this machine in the dump: its initial state, each new state and (when
    /// `trackDeinit` is true) its release, which removes it from the dump. The records go
    /// through `dumpMediator`; they reach a dump machine only while it is collecting
    /// (``startCollecting(dumpStateMachine:dumpMediator:)``).
    ///
    /// Records are sent from the machine's lifecycle callbacks, in lifecycle order, and
    /// the machine never waits for the dump. Call it once per machine.
    @discardableResult
    public func activateDump(trackDeinit: Bool = true, dumpMediator: Mediator<DumpEvent> = defaultDumpMediator) -> Self
    {
        onInitialState { id, state in
            dumpMediator.sendToReceivers(
                event: DidObserveTransition(context: StateContext(stateMachineId: id, state: state))
            )
        }
        onTransition { id, _, _, newState in
            dumpMediator.sendToReceivers(
                event: DidObserveTransition(context: StateContext(stateMachineId: id, state: newState))
            )
        }
        if trackDeinit {
            onDeinit { id in dumpMediator.sendToReceivers(event: DidObserveDeinit(stateMachineId: id)) }
        }
        return self
    }
}
