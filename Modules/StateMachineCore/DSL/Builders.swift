/// Builds the list of ``When`` blocks of a ``StateMachine``.
@resultBuilder
public enum StateMachineBuilder<SuperState, SuperEvent> {
    /// The `When` blocks, in declaration order.
    public static func buildBlock(_ whens: When<SuperState, SuperEvent>...) -> [When<SuperState, SuperEvent>] {
        whens
    }
}

/// Builds the items of a ``When`` block: ``On`` routes and, under `When(state:)`,
/// ``Composite``s.
@resultBuilder
public enum WhenBuilder<S, SuperState, SuperEvent> {
    /// An `On` route.
    @inlinable
    public static func buildExpression(
        _ on: On<S, SuperState, SuperEvent>
    ) -> [WhenComponent<S, SuperState, SuperEvent>] {
        [WhenComponent(kind: .on(on))]
    }

    /// The items, in declaration order.
    @inlinable
    public static func buildBlock(
        _ components: [WhenComponent<S, SuperState, SuperEvent>]...
    ) -> [WhenComponent<S, SuperState, SuperEvent>] {
        components.flatMap { $0 }
    }
}

extension WhenBuilder where S: State, S.SuperState == SuperState {
    /// A `Composite` of child machines, only under `When(state:)` (a single state).
    public static func buildExpression(
        _ composite: Composite<S, SuperState, SuperEvent>
    ) -> [WhenComponent<S, SuperState, SuperEvent>] {
        [WhenComponent(kind: .composite(composite.definition))]
    }
}

/// Builds the body of an ``On`` route: a `Transition`, an `Output`, or a `Transition`
/// followed by an `Output`.
@resultBuilder
public enum MealyTransitionBuilder<SuperState, SuperEvent> {
    /// A `Transition` line.
    public static func buildExpression(_ transition: Transition<SuperState>) -> Transition<SuperState> {
        transition
    }

    /// An `Output` line.
    public static func buildExpression(_ output: Output<SuperState, SuperEvent>) -> Output<SuperState, SuperEvent> {
        output
    }

    /// A transition only.
    public static func buildBlock(_ transition: Transition<SuperState>) -> MealyTransition<SuperState, SuperEvent> {
        MealyTransition(transition: transition)
    }

    /// An output only: the state does not change.
    public static func buildBlock(_ output: Output<SuperState, SuperEvent>) -> MealyTransition<SuperState, SuperEvent> {
        MealyTransition(output: output)
    }

    /// A transition, then the output it starts.
    public static func buildBlock(
        _ transition: Transition<SuperState>,
        _ output: Output<SuperState, SuperEvent>
    ) -> MealyTransition<SuperState, SuperEvent> {
        MealyTransition(transition: transition, output: output)
    }
}
