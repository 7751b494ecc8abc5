/// One entry of the Mealy table.
@usableFromInline
struct Route<SuperState, SuperEvent>: Sendable {
    /// A route whose guard and body do not suspend.
    @usableFromInline
    typealias SynchronousResolver =
        @Sendable (any State<SuperState>, any Event<SuperEvent>) -> MealyTransition<SuperState, SuperEvent>?
    /// A route that may suspend; it runs on its caller's executor (the machine's drainer).
    @usableFromInline
    typealias AsynchronousResolver =
        nonisolated(nonsending) @Sendable (any State<SuperState>, any Event<SuperEvent>) async -> MealyTransition<
            SuperState, SuperEvent
        >?

    /// Runs the route's guard, then its body; nil when the guard refuses.
    ///
    /// A route declared with synchronous closures keeps them synchronous, so the runtime can
    /// process its events without suspending (no async frame, no executor hop).
    @usableFromInline
    enum Resolver: Sendable {
        case synchronous(SynchronousResolver)
        case asynchronous(AsynchronousResolver)

        /// Runs the route, suspending only when it is asynchronous.
        @inlinable
        nonisolated(nonsending) func callAsFunction(
            _ state: any State<SuperState>,
            _ event: any Event<SuperEvent>
        ) async -> MealyTransition<SuperState, SuperEvent>? {
            switch self {
            case .synchronous(let resolve): return resolve(state, event)
            case .asynchronous(let resolve): return await resolve(state, event)
            }
        }
    }

    let diagnostic: RouteDiagnostic
    @usableFromInline let resolve: Resolver

    /// `state` as `S`, the type a route's closures receive: either the erased state itself,
    /// or its dynamic type. The Mealy table calls a route only for values of the exact types
    /// it was declared for, so a checked cast (`as!`, a walk of the runtime's cast
    /// machinery per call) would only repeat what the table's key already proved; this
    /// copies the value out of its existential box instead.
    @inlinable
    static func state<S>(_ state: any State<SuperState>, as type: S.Type) -> S {
        // The grouped forms receive the erased state itself: a checked cast, which cannot fail.
        if S.self == (any State<SuperState>).self { return state as! S }
        func project<Value: State<SuperState>>(_ value: Value) -> S {
            precondition(Value.self == S.self, "a route was called for a state of another type")
            return withUnsafePointer(to: value) { UnsafeRawPointer($0).load(as: S.self) }
        }
        return project(state)
    }

    /// `event` as `E`, its dynamic type, as ``state(_:as:)`` does for states.
    @inlinable
    static func event<E: Event>(_ event: any Event<SuperEvent>, as type: E.Type) -> E {
        func project<Value: Event<SuperEvent>>(_ value: Value) -> E {
            precondition(Value.self == E.self, "a route was called for an event of another type")
            return withUnsafePointer(to: value) { UnsafeRawPointer($0).load(as: E.self) }
        }
        return project(event)
    }
}

/// Where a resolved route was declared: the state and event type names (as
/// `String(reflecting:)` spells them) and its position among all declared routes.
public struct RouteDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// The route's state type.
    public let stateTypeName: String
    /// The route's event type.
    public let eventTypeName: String
    /// The 0-based position of the route among every (state, event) route of the machine,
    /// state-major within each `When`/`On`.
    public let declarationOrder: Int

    /// A readable summary: `State + Event (route #n)`.
    public var description: String { "\(stateTypeName) + \(eventTypeName) (route #\(declarationOrder))" }
}

/// A route that matched a (state, event) pair, with where it was declared.
public struct ResolvedTransition<SuperState, SuperEvent>: Sendable {
    /// What the route produced.
    public let transition: MealyTransition<SuperState, SuperEvent>
    /// Which route produced it.
    public let diagnostic: RouteDiagnostic
}

extension StateMachine {
    /// Resolves the route for `state` and `event`: the first route of the exact
    /// (state type, event type) pair whose guard passes, or nil when none does. Later routes
    /// are not evaluated.
    public func resolveTransition(
        state: any State<SuperState>,
        event: any Event<SuperEvent>
    ) async -> ResolvedTransition<SuperState, SuperEvent>? {
        guard let (route, transition) = await firstPassingRoute(state: state, event: event) else { return nil }
        return ResolvedTransition(transition: transition, diagnostic: route.diagnostic)
    }

    /// The Mealy transition for `state` and `event`, or nil when no route applies.
    public func transition(
        state: any State<SuperState>,
        event: any Event<SuperEvent>
    ) async -> MealyTransition<SuperState, SuperEvent>? {
        await firstPassingRoute(state: state, event: event)?.transition
    }

    /// The first route of the exact (state type, event type) pair whose guard passes, with
    /// what it produced. The runtime's hot path: specialised in the caller's module.
    @inlinable
    nonisolated(nonsending) func firstPassingRoute(
        state: any State<SuperState>,
        event: any Event<SuperEvent>
    ) async -> (route: Route<SuperState, SuperEvent>, transition: MealyTransition<SuperState, SuperEvent>)? {
        guard let list = routes(for: state, event) else { return nil }
        for route in list.routes {
            if let transition = await route.resolve(state, event) { return (route, transition) }
        }
        return nil
    }

    /// The routes of the exact (state type, event type) pair of `state` and `event`.
    @inlinable
    func routes(
        for state: any State<SuperState>,
        _ event: any Event<SuperEvent>
    ) -> RouteList<SuperState, SuperEvent>? {
        routeTable[TypesIdentifier(lhsType: type(of: state), rhsType: type(of: event))]
    }

    /// What resolving `state` and `event` synchronously gave.
    @usableFromInline
    enum SynchronousResolution {
        /// The routes ran: the transition of the first that passed, or nil.
        case resolved(MealyTransition<SuperState, SuperEvent>?)
        /// A route of the pair is asynchronous; nothing ran.
        case needsSuspension
    }

    /// Resolves the route for `state` and `event` without suspending when every route of the
    /// pair is synchronous; otherwise runs nothing.
    @inlinable
    func resolveWithoutSuspending(
        state: any State<SuperState>,
        event: any Event<SuperEvent>
    ) -> SynchronousResolution {
        guard let list = routes(for: state, event) else { return .resolved(nil) }
        guard !list.synchronous.isEmpty else { return .needsSuspension }
        for resolve in list.synchronous {
            if let transition = resolve(state, event) { return .resolved(transition) }
        }
        return .resolved(nil)
    }
}
