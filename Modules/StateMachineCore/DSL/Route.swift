/// One entry of the Mealy table.
@usableFromInline
struct Route<SuperState, SuperEvent>: Sendable {
    /// Runs the route's guard, then its body; nil when the guard refuses. It runs on its
    /// caller's executor (the machine's drainer), so calling it costs no executor switch.
    @usableFromInline
    typealias Resolver =
        nonisolated(nonsending) @Sendable (any State<SuperState>, any Event<SuperEvent>) async -> MealyTransition<
            SuperState, SuperEvent
        >?

    let diagnostic: RouteDiagnostic
    @usableFromInline let resolve: Resolver
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
        guard let routes = mealyTable[TypesIdentifier(lhsType: type(of: state), rhsType: type(of: event))] else {
            return nil
        }
        for route in routes {
            if let transition = await route.resolve(state, event) { return (route, transition) }
        }
        return nil
    }
}
