/// What a route produces: a transition, an output, or both.
public struct MealyTransition<SuperState, SuperEvent>: Sendable {
    /// The transition to perform, if any.
    public let transition: Transition<SuperState>?
    /// The side effect to start, if any.
    public let output: Output<SuperState, SuperEvent>?

    /// A route result with a transition and/or an output.
    ///
    /// - Precondition: at least one of `transition` and `output` is non-nil.
    public init(transition: Transition<SuperState>?, output: Output<SuperState, SuperEvent>?) {
        precondition(transition != nil || output != nil, "a MealyTransition needs a transition or an output")
        self.transition = transition
        self.output = output
    }

    /// A route result with a transition only.
    public init(transition: Transition<SuperState>) {
        self.transition = transition
        self.output = nil
    }

    /// A route result with an output only (the state does not change).
    public init(output: Output<SuperState, SuperEvent>) {
        self.transition = nil
        self.output = output
    }
}
