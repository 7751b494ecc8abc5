#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A step in the life of a running machine, as `onLifecycleEvent` handlers receive it.
public enum LifecycleEvent<SuperState, SuperEvent>: Sendable {
    /// The machine started in `state`.
    case initialState(id: UUID, state: any State<SuperState>)
    /// The machine went from `state` to `newState` on `event`.
    case transition(
        id: UUID,
        state: any State<SuperState>,
        event: any Event<SuperEvent>,
        newState: any State<SuperState>
    )

    /// The machine's id.
    public var id: UUID {
        switch self {
        case .initialState(let id, _), .transition(let id, _, _, _): return id
        }
    }

    /// The state before the step (the initial state for `.initialState`).
    public var currentState: any State<SuperState> {
        switch self {
        case .initialState(_, let state), .transition(_, let state, _, _): return state
        }
    }

    /// The event of a transition; nil for the initial state.
    public var receivedEvent: (any Event<SuperEvent>)? {
        if case .transition(_, _, let event, _) = self { return event }
        return nil
    }

    /// The state after a transition; nil for the initial state.
    public var newState: (any State<SuperState>)? {
        if case .transition(_, _, _, let newState) = self { return newState }
        return nil
    }
}

/// What `sendAndWait(event:until:)` waits for.
public enum SendCompletion: Sendable, Equatable {
    /// The event has been processed: its transition (if any) is committed.
    case transitionCommitted
    /// The event has been processed, the output it started (restarts included) has ended,
    /// and the events that output produced have been processed.
    case outputFinished
}
