/// A set of state types of one machine, for routes shared by several states.
///
/// Duplicates are removed and the first-seen order is kept. Two sets are equal when they
/// hold the same types, whatever their order.
public struct OneOfStates<SuperState>: Sendable, Equatable {
    let keys: [TypeKey]

    /// A set of the given state types.
    public init(_ states: any State<SuperState>.Type...) {
        self.init(states)
    }

    /// A set of the state types of a sequence.
    public init<Types: Sequence>(_ states: Types) where Types.Element == any State<SuperState>.Type {
        self.keys = states.map { TypeKey($0) }.uniqued()
    }

    /// A set declared with a builder: `OneOfStates { DataIsIdle.self; DataIsLoaded.self }`.
    public init(@OneOfStatesBuilder<SuperState> builder: () -> [StateSetType<SuperState>]) {
        self.keys = builder().map(\.key).uniqued()
    }

    /// Equal when both sets hold the same types.
    public static func == (lhs: Self, rhs: Self) -> Bool { Set(lhs.keys) == Set(rhs.keys) }
}

/// Builds a list of state types: each line is a state metatype or a ``StateSetType`` token.
@resultBuilder
public enum OneOfStatesBuilder<SuperState> {
    /// A state metatype.
    public static func buildExpression<S: State>(_ type: S.Type) -> [StateSetType<SuperState>]
    where S.SuperState == SuperState {
        [StateSetType(type)]
    }

    /// A state set token.
    public static func buildExpression(_ token: StateSetType<SuperState>) -> [StateSetType<SuperState>] {
        [token]
    }

    /// The lines of the block, in order.
    public static func buildBlock(_ components: [StateSetType<SuperState>]...) -> [StateSetType<SuperState>] {
        components.flatMap { $0 }
    }
}
