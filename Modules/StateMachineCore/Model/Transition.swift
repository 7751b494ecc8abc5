/// The state a transition leads to.
///
/// Keep the factory pure: side effects belong in an ``Output``.
public struct Transition<SuperState>: Sendable {
    @usableFromInline
    enum Target: Sendable {
        case value(any State<SuperState>)
        case factory(@Sendable () async -> any State<SuperState>)
    }

    @usableFromInline let target: Target

    /// A transition to a fixed state.
    @inlinable
    public init(state: some State<SuperState>) {
        self.target = .value(state)
    }

    /// A transition to the state a factory returns when the transition is performed.
    ///
    /// The DSL's `Transition { DataIsLoading(id: id) }` form uses this initialiser.
    public init(state: @escaping @Sendable () async -> any State<SuperState>) {
        self.target = .factory(state)
    }

    /// The factory that produces the new state.
    public var state: @Sendable () async -> any State<SuperState> {
        switch target {
        case .value(let state): return { state }
        case .factory(let factory): return factory
        }
    }
}
