extension StateMachine {
    /// A copy with a route for state type `S` and event type `E`.
    ///
    /// - Parameters:
    ///   - state: the state type the route applies to.
    ///   - event: the event type the route applies to.
    ///   - guard: evaluated first; when it returns false the route does not apply.
    ///   - mealyTransition: the route's transition and/or output.
    public func when<S: State, E: Event>(
        state: S.Type,
        on event: E.Type,
        guard: (@Sendable (S, E) async -> Bool)? = nil,
        mealyTransition: @escaping @Sendable (S, E) async -> MealyTransition<SuperState, SuperEvent>
    ) -> Self where S.SuperState == SuperState, E.SuperEvent == SuperEvent {
        var copy = self
        copy.register(
            states: [TypeKey(state)],
            events: [TypeKey(event)],
            resolve: .asynchronous { state, event in
                let (state, event) = (
                    Route<SuperState, SuperEvent>.state(state, as: S.self),
                    Route<SuperState, SuperEvent>.event(event, as: E.self)
                )
                if let `guard`, await !`guard`(state, event) { return nil }
                return await mealyTransition(state, event)
            }
        )
        return copy
    }

    /// A copy with a route for state type `S` and event type `E` whose guard and body are
    /// synchronous.
    public func when<S: State, E: Event>(
        state: S.Type,
        on event: E.Type,
        synchronously guard: (@Sendable (S, E) -> Bool)? = nil,
        mealyTransition: @escaping @Sendable (S, E) -> MealyTransition<SuperState, SuperEvent>
    ) -> Self where S.SuperState == SuperState, E.SuperEvent == SuperEvent {
        var copy = self
        copy.register(
            states: [TypeKey(state)],
            events: [TypeKey(event)],
            resolve: .synchronous { state, event in
                let (state, event) = (
                    Route<SuperState, SuperEvent>.state(state, as: S.self),
                    Route<SuperState, SuperEvent>.event(event, as: E.self)
                )
                if let `guard`, !`guard`(state, event) { return nil }
                return mealyTransition(state, event)
            }
        )
        return copy
    }

    /// A copy with a route for every state of `states` and event type `E`.
    public func when<E: Event>(
        _ states: OneOfStates<SuperState>,
        on event: E.Type,
        guard: (@Sendable (AnyState, E) async -> Bool)? = nil,
        mealyTransition: @escaping @Sendable (AnyState, E) async -> MealyTransition<SuperState, SuperEvent>
    ) -> Self where E.SuperEvent == SuperEvent {
        var copy = self
        copy.register(
            states: states.keys,
            events: [TypeKey(event)],
            resolve: .asynchronous { state, event in
                let event = Route<SuperState, SuperEvent>.event(event, as: E.self)
                if let `guard`, await !`guard`(state, event) { return nil }
                return await mealyTransition(state, event)
            }
        )
        return copy
    }

    /// A copy with a route for state type `S` and every event of `events`.
    public func when<S: State>(
        state: S.Type,
        on events: OneOfEvents<SuperEvent>,
        guard: (@Sendable (S, AnyEvent) async -> Bool)? = nil,
        mealyTransition: @escaping @Sendable (S, AnyEvent) async -> MealyTransition<SuperState, SuperEvent>
    ) -> Self where S.SuperState == SuperState {
        var copy = self
        copy.register(
            states: [TypeKey(state)],
            events: events.keys,
            resolve: .asynchronous { state, event in
                let state = Route<SuperState, SuperEvent>.state(state, as: S.self)
                if let `guard`, await !`guard`(state, event) { return nil }
                return await mealyTransition(state, event)
            }
        )
        return copy
    }

    /// A copy with a route for every pair of `states` and `events`.
    public func when(
        _ states: OneOfStates<SuperState>,
        on events: OneOfEvents<SuperEvent>,
        guard: GuardFunction? = nil,
        mealyTransition: @escaping MealyTransitionFunction
    ) -> Self {
        var copy = self
        copy.register(
            states: states.keys,
            events: events.keys,
            resolve: .asynchronous { state, event in
                if let `guard`, await !`guard`(state, event) { return nil }
                return await mealyTransition(state, event)
            }
        )
        return copy
    }
}
