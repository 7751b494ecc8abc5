/// The routes of one or several event types inside a ``When``.
///
/// `S` is what the route closures receive as the state: the concrete state type under
/// `When(state:)`, `any State<SuperState>` under the grouped forms.
///
/// ```swift
/// On(event: DidRequestLoading.self) { state, event in
///     Transition(state: DataIsLoading(id: event.id))
/// }
/// On(event: DidRequestLoading.self) { _, event in event.id.isEmpty == false } transition: { _, event in
///     Transition(state: DataIsLoading(id: event.id))
/// }
/// ```
///
/// Each form comes in two flavours. Swift picks the synchronous one when the closures do
/// not `await`, as above; the machine then processes the route's events without
/// suspending, which is several times cheaper per event. Closures that `await` pick the
/// asynchronous one. Both behave the same otherwise.
public struct On<S, SuperState, SuperEvent>: Sendable {
    /// Any event of the machine.
    public typealias AnyEvent = any Event<SuperEvent>
    /// Takes the erased state and event and hands them to the closures as `S` and the event
    /// type (see `Route.state(_:as:)`), which cannot fail: the table only calls a route for
    /// the exact types it was declared for.
    @usableFromInline typealias Resolver = Route<SuperState, SuperEvent>.Resolver

    @usableFromInline let events: [TypeKey]
    @usableFromInline let resolve: Resolver

    /// A route for events of type `E`, taken when `guard` (if any) passes.
    @inlinable
    public init<E: Event>(
        event: E.Type,
        guard: (@Sendable (S, E) async -> Bool)? = nil,
        @MealyTransitionBuilder<SuperState, SuperEvent> transition:
            @escaping @Sendable (S, E) async ->
            MealyTransition<SuperState, SuperEvent>
    ) where E.SuperEvent == SuperEvent {
        self.events = [TypeKey(event)]
        self.resolve = .asynchronous { state, event in
            let (state, event) = (
                Route<SuperState, SuperEvent>.state(state, as: S.self),
                Route<SuperState, SuperEvent>.event(event, as: E.self)
            )
            if let `guard`, await !`guard`(state, event) { return nil }
            return await transition(state, event)
        }
    }

    /// A route for events of type `E` whose guard and body do not suspend.
    @inlinable
    public init<E: Event>(
        event: E.Type,
        guard: (@Sendable (S, E) -> Bool)? = nil,
        @MealyTransitionBuilder<SuperState, SuperEvent> transition:
            @escaping @Sendable (S, E) ->
            MealyTransition<SuperState, SuperEvent>
    ) where E.SuperEvent == SuperEvent {
        self.events = [TypeKey(event)]
        self.resolve = .synchronous { state, event in
            let (state, event) = (
                Route<SuperState, SuperEvent>.state(state, as: S.self),
                Route<SuperState, SuperEvent>.event(event, as: E.self)
            )
            if let `guard`, !`guard`(state, event) { return nil }
            return transition(state, event)
        }
    }

    /// A route for the event type a token names (`On(event: .loadingWasRequested)`).
    public init<E: Event>(
        event: EventType<E>,
        guard: (@Sendable (S, E) async -> Bool)? = nil,
        @MealyTransitionBuilder<SuperState, SuperEvent> transition:
            @escaping @Sendable (S, E) async ->
            MealyTransition<SuperState, SuperEvent>
    ) where E.SuperEvent == SuperEvent {
        self.init(event: E.self, guard: `guard`, transition: transition)
    }

    /// A route for the event type a token names, whose guard and body do not suspend.
    public init<E: Event>(
        event: EventType<E>,
        guard: (@Sendable (S, E) -> Bool)? = nil,
        @MealyTransitionBuilder<SuperState, SuperEvent> transition:
            @escaping @Sendable (S, E) ->
            MealyTransition<SuperState, SuperEvent>
    ) where E.SuperEvent == SuperEvent {
        self.init(event: E.self, guard: `guard`, transition: transition)
    }

    /// A route for several event types declared with a builder; the closures receive the
    /// erased event.
    public init(
        @OneOfEventsBuilder<SuperEvent> _ events: () -> [EventSetType<SuperEvent>],
        guard: (@Sendable (S, AnyEvent) async -> Bool)? = nil,
        @MealyTransitionBuilder<SuperState, SuperEvent> transition:
            @escaping @Sendable (S, AnyEvent) async ->
            MealyTransition<SuperState, SuperEvent>
    ) {
        self.init(keys: events().map(\.key), guard: `guard`, transition: transition)
    }

    /// A route for several event types declared with a builder, whose guard and body do not
    /// suspend.
    public init(
        @OneOfEventsBuilder<SuperEvent> _ events: () -> [EventSetType<SuperEvent>],
        guard: (@Sendable (S, AnyEvent) -> Bool)? = nil,
        @MealyTransitionBuilder<SuperState, SuperEvent> transition:
            @escaping @Sendable (S, AnyEvent) ->
            MealyTransition<SuperState, SuperEvent>
    ) {
        self.init(keys: events().map(\.key), guard: `guard`, transition: transition)
    }

    /// A route for several event types; the closures receive the erased event.
    public init(
        events: any Event<SuperEvent>.Type...,
        guard: (@Sendable (S, AnyEvent) async -> Bool)? = nil,
        @MealyTransitionBuilder<SuperState, SuperEvent> transition:
            @escaping @Sendable (S, AnyEvent) async ->
            MealyTransition<SuperState, SuperEvent>
    ) {
        self.init(keys: events.map { TypeKey($0) }, guard: `guard`, transition: transition)
    }

    /// A route for several event types, whose guard and body do not suspend.
    public init(
        events: any Event<SuperEvent>.Type...,
        guard: (@Sendable (S, AnyEvent) -> Bool)? = nil,
        @MealyTransitionBuilder<SuperState, SuperEvent> transition:
            @escaping @Sendable (S, AnyEvent) ->
            MealyTransition<SuperState, SuperEvent>
    ) {
        self.init(keys: events.map { TypeKey($0) }, guard: `guard`, transition: transition)
    }

    /// A route for the event types several tokens name; the closures receive the erased event.
    public init(
        events: EventSetType<SuperEvent>...,
        guard: (@Sendable (S, AnyEvent) async -> Bool)? = nil,
        @MealyTransitionBuilder<SuperState, SuperEvent> transition:
            @escaping @Sendable (S, AnyEvent) async ->
            MealyTransition<SuperState, SuperEvent>
    ) {
        self.init(keys: events.map(\.key), guard: `guard`, transition: transition)
    }

    /// A route for the event types several tokens name, whose guard and body do not suspend.
    public init(
        events: EventSetType<SuperEvent>...,
        guard: (@Sendable (S, AnyEvent) -> Bool)? = nil,
        @MealyTransitionBuilder<SuperState, SuperEvent> transition:
            @escaping @Sendable (S, AnyEvent) ->
            MealyTransition<SuperState, SuperEvent>
    ) {
        self.init(keys: events.map(\.key), guard: `guard`, transition: transition)
    }

    @inlinable
    init(
        keys: [TypeKey],
        guard: (@Sendable (S, AnyEvent) async -> Bool)?,
        transition: @escaping @Sendable (S, AnyEvent) async -> MealyTransition<SuperState, SuperEvent>
    ) {
        self.events = keys.uniqued()
        self.resolve = .asynchronous { state, event in
            let state = Route<SuperState, SuperEvent>.state(state, as: S.self)
            if let `guard`, await !`guard`(state, event) { return nil }
            return await transition(state, event)
        }
    }

    @inlinable
    init(
        keys: [TypeKey],
        guard: (@Sendable (S, AnyEvent) -> Bool)?,
        transition: @escaping @Sendable (S, AnyEvent) -> MealyTransition<SuperState, SuperEvent>
    ) {
        self.events = keys.uniqued()
        self.resolve = .synchronous { state, event in
            let state = Route<SuperState, SuperEvent>.state(state, as: S.self)
            if let `guard`, !`guard`(state, event) { return nil }
            return transition(state, event)
        }
    }
}
