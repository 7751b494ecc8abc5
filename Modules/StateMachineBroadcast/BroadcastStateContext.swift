import StateMachineCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One step in the life of a broadcasting machine, as subscribers receive it: the initial
/// state (`event` and `newState` are nil), or a transition.
///
/// `StateMachineDump` has its own, different `BroadcastStateContext`; when a file imports both
/// modules, qualify the name (`StateMachineBroadcast.StateContext`).
public struct BroadcastStateContext: Sendable, CustomStringConvertible {
    /// The id of the machine that took the step (`AsyncStateMachine.id`).
    public let stateMachineId: UUID
    /// The state before the step; for the initial state, the initial state itself.
    public let currentState: any State
    /// The event of a transition; nil for the initial state.
    public let event: (any Event)?
    /// The state after a transition; nil for the initial state.
    public let newState: (any State)?
    /// When the step was observed (when the machine's lifecycle callback ran, which is
    /// shortly after the transition was committed).
    public let timeStamp: Date

    /// A context; `event` and `newState` are nil for an initial state.
    public init(
        stateMachineId: UUID,
        currentState: any State,
        event: (any Event)? = nil,
        newState: (any State)? = nil,
        timeStamp: Date = Date()
    ) {
        self.stateMachineId = stateMachineId
        self.currentState = currentState
        self.event = event
        self.newState = newState
        self.timeStamp = timeStamp
    }

    /// Whether this context is the machine's initial state rather than a transition.
    public var isInitialState: Bool { event == nil && newState == nil }

    /// `"[<id>] <state>"` for the initial state, `"[<id>] <current> + <event> => <new>"`
    /// for a transition.
    public var description: String {
        if let event, let newState {
            return "[\(stateMachineId)] \(currentState) + \(event) => \(newState)"
        }
        return "[\(stateMachineId)] \(currentState)"
    }
}

/// The former name of ``BroadcastStateContext``, which `StateMachineDump.StateContext`
/// shared; the `SwiftStateMachine` umbrella's `StateContext` is the dump's.
@available(*, deprecated, renamed: "BroadcastStateContext")
public typealias StateContext = BroadcastStateContext
