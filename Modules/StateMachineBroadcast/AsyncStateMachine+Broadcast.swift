import StateMachineCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension AsyncStateMachine {
    /// Broadcasts this machine's initial state and every transition to every subscriber
    /// made by ``makeStateContextBroadcaster(bufferingPolicy:)``.
    ///
    /// Contexts are built from the machine's lifecycle callbacks, so they are delivered
    /// in lifecycle order, shortly after each commit; the machine never waits for
    /// subscribers. Call it once per machine: each call registers another broadcast.
    @discardableResult
    public func activateBroadcast() -> Self {
        onLifecycleEvent { event in
            let context: BroadcastStateContext
            switch event {
            case .initialState(let id, let state):
                context = BroadcastStateContext(stateMachineId: id, currentState: state)
            case .transition(let id, let state, let event, let newState):
                context = BroadcastStateContext(
                    stateMachineId: id,
                    currentState: state,
                    event: event,
                    newState: newState
                )
            }
            BroadcastRegistry.shared.broadcast(context)
        }
    }
}
