import StateMachineCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The latest state of one live machine, as the dump records it.
///
/// `StateMachineDump.dump { stateContexts in ... }` hands these to its closure (the
/// seed's name). `StateMachineBroadcast`'s record of a step is named apart
/// (`BroadcastStateContext`), so the two modules import together without ambiguity.
///
/// Equality: a context is equal to itself; two distinct contexts are equal when they
/// belong to the same machine and their states are `Equatable`, of the same type and
/// equal. The time stamp plays no part, and two distinct contexts whose state is not
/// `Equatable` are never equal.
///
/// Encoding (see ``jsonData(of:prettyPrinted:)``) writes `stateMachineId`, `superStateType`,
/// `stateType`, `state` (the state's `description`), `superState` (only when the super
/// state is `Encodable`) and `timeStamp`.
public struct StateContext: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The id of the machine (`AsyncStateMachine.id`).
    public let stateMachineId: UUID
    /// The machine's latest state.
    public let state: any State
    /// When the state was observed.
    public let timeStamp: Date
    /// Distinguishes this context from every other, so that it is always equal to itself.
    private let identity = UUID()

    /// A context for `state`, the latest state of machine `stateMachineId`.
    public init(stateMachineId: UUID, state: any State, timeStamp: Date = Date()) {
        self.stateMachineId = stateMachineId
        self.state = state
        self.timeStamp = timeStamp
    }

    /// The state's type, module-qualified (`"MyFeature.DataIsLoading"`).
    public var stateType: String { String(reflecting: type(of: state)) }

    /// The state's super state type, module-qualified (`"MyFeature.FeatureState"`).
    public var superStateType: String { superStateTypeName(of: state) }

    /// The state's super state, as `Any`.
    public var superState: Any { superStateValue(of: state) }

    /// `"[<SuperState type>] <state> at <time stamp>"`, as the samples print it.
    public var description: String {
        "[\(String(describing: superStateTypeName(of: state, qualified: false)))] \(state) at \(timeStamp)"
    }

    /// See the type's documentation.
    public static func == (lhs: StateContext, rhs: StateContext) -> Bool {
        if lhs.identity == rhs.identity { return true }
        guard lhs.stateMachineId == rhs.stateMachineId, let state = lhs.state as? any Equatable else { return false }
        return isEqual(state, rhs.state)
    }

    private enum CodingKeys: String, CodingKey {
        case stateMachineId, superStateType, stateType, state, superState, timeStamp
    }

    /// Encodes the context; `superState` is written only when it is `Encodable`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(stateMachineId, forKey: .stateMachineId)
        try container.encode(superStateType, forKey: .superStateType)
        try container.encode(stateType, forKey: .stateType)
        try container.encode(String(describing: state), forKey: .state)
        if let superState = superState as? any Encodable {
            try container.encode(superState, forKey: .superState)
        }
        try container.encode(timeStamp, forKey: .timeStamp)
    }
}

private func isEqual<Value: Equatable>(_ value: Value, _ other: Any) -> Bool {
    guard let other = other as? Value else { return false }
    return value == other
}

private func superStateValue<S: State>(of state: S) -> Any {
    state.superState
}

private func superStateTypeName<S: State>(of state: S, qualified: Bool = true) -> String {
    qualified ? String(reflecting: S.SuperState.self) : String(describing: S.SuperState.self)
}
