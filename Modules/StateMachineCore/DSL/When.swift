/// The routes that apply while the machine is in one of some state types.
///
/// ```swift
/// When(state: DataIsLoading.self) {
///     On(event: DidSucceedToLoad.self) { _, event in Transition(state: DataIsLoaded(data: event.data)) }
/// }
/// When(states: DataIsIdle.self, DataIsLoaded.self) {
///     On(event: DidRequestLoading.self) { _, event in Transition(state: DataIsLoading(id: event.id)) }
/// }
/// ```
public struct When<SuperState, SuperEvent>: Sendable {
    /// Any state of the machine.
    public typealias AnyState = any State<SuperState>

    @usableFromInline
    struct RouteGroup: Sendable {
        @usableFromInline let events: [TypeKey]
        @usableFromInline let resolve: Route<SuperState, SuperEvent>.Resolver

        @inlinable
        init(events: [TypeKey], resolve: Route<SuperState, SuperEvent>.Resolver) {
            self.events = events
            self.resolve = resolve
        }
    }

    @usableFromInline let states: [TypeKey]
    @usableFromInline let routes: [RouteGroup]
    @usableFromInline let composites: [CompositeDefinition<SuperState, SuperEvent>]

    /// Routes for state type `S`; the closures receive the concrete state.
    @inlinable
    public init<S: State>(
        state: S.Type,
        @WhenBuilder<S, SuperState, SuperEvent> _ content: () -> [WhenComponent<S, SuperState, SuperEvent>]
    ) where S.SuperState == SuperState {
        let components = content()
        self.states = [TypeKey(state)]
        self.routes = components.compactMap { component in
            guard case .on(let on) = component.kind else { return nil }
            return RouteGroup(events: on.events, resolve: on.resolve)
        }
        self.composites = components.compactMap { component in
            guard case .composite(let composite) = component.kind else { return nil }
            return composite
        }
    }

    /// Routes for the state type a token names (`When(state: .isIdle)`).
    public init<S: State>(
        state: StateType<S>,
        @WhenBuilder<S, SuperState, SuperEvent> _ content: () -> [WhenComponent<S, SuperState, SuperEvent>]
    ) where S.SuperState == SuperState {
        self.init(state: S.self, content)
    }

    /// Routes shared by several state types declared with a builder; the closures receive
    /// the erased state.
    public init(
        @OneOfStatesBuilder<SuperState> _ states: () -> [StateSetType<SuperState>],
        @WhenBuilder<AnyState, SuperState, SuperEvent> transitions: () -> [WhenComponent<
            AnyState, SuperState, SuperEvent
        >]
    ) {
        self.init(keys: states().map(\.key), content: transitions())
    }

    /// Routes shared by several state types; the closures receive the erased state.
    public init(
        states: any State<SuperState>.Type...,
        @WhenBuilder<AnyState, SuperState, SuperEvent> transitions content: () -> [WhenComponent<
            AnyState, SuperState, SuperEvent
        >]
    ) {
        self.init(keys: states.map { TypeKey($0) }, content: content())
    }

    /// Routes shared by the state types several tokens name; the closures receive the
    /// erased state.
    public init(
        states: StateSetType<SuperState>...,
        @WhenBuilder<AnyState, SuperState, SuperEvent> transitions content: () -> [WhenComponent<
            AnyState, SuperState, SuperEvent
        >]
    ) {
        self.init(keys: states.map(\.key), content: content())
    }

    /// Routes shared by the state types of a set; the closures receive the erased state.
    public init(
        _ states: OneOfStates<SuperState>,
        @WhenBuilder<AnyState, SuperState, SuperEvent> transitions content: () -> [WhenComponent<
            AnyState, SuperState, SuperEvent
        >]
    ) {
        self.init(keys: states.keys, content: content())
    }

    @inlinable
    init(keys: [TypeKey], content: [WhenComponent<AnyState, SuperState, SuperEvent>]) {
        self.states = keys.uniqued()
        self.routes = content.compactMap { component in
            guard case .on(let on) = component.kind else { return nil }
            return RouteGroup(events: on.events, resolve: on.resolve)
        }
        // The grouped forms' builder does not accept a Composite: it needs a single state.
        self.composites = []
    }
}

/// One item of a ``When`` block.
public struct WhenComponent<S, SuperState, SuperEvent>: Sendable {
    @usableFromInline
    enum Kind: Sendable {
        case on(On<S, SuperState, SuperEvent>)
        case composite(CompositeDefinition<SuperState, SuperEvent>)
    }

    @usableFromInline let kind: Kind

    @inlinable
    init(kind: Kind) {
        self.kind = kind
    }
}
