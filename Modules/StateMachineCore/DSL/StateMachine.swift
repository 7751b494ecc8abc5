/// The definition of a feature: an initial state and a Mealy table of routes.
///
/// A `StateMachine` is an inert value; run it with ``AsyncStateMachine``.
///
/// ```swift
/// let definition = StateMachine<FeatureState, FeatureEvent>(initial: DataIsIdle()) {
///     When(state: DataIsIdle.self) {
///         On(event: DidRequestLoading.self) { _, event in
///             Transition(state: DataIsLoading(id: event.id))
///             Output(sideEffect: load(event.id))
///         }
///     }
/// }
/// ```
///
/// Routes are keyed by the exact (state type, event type) pair. Several routes may share a
/// key: they are tried in declaration order and the first whose guard passes wins; keeping
/// their guards mutually exclusive is the author's job. An event with no route is ignored.
public struct StateMachine<SuperState, SuperEvent>: Sendable {
    /// Any state of the machine.
    public typealias AnyState = any State<SuperState>
    /// Any event of the machine.
    public typealias AnyEvent = any Event<SuperEvent>
    /// A guard over erased values.
    public typealias GuardFunction = @Sendable (AnyState, AnyEvent) async -> Bool
    /// A route's body over erased values.
    public typealias MealyTransitionFunction =
        @Sendable (AnyState, AnyEvent) async -> MealyTransition<SuperState, SuperEvent>

    /// The state the machine starts in.
    public let initial: AnyState
    /// The identifier type given with ``init(id:initial:)``; children of a composite need one.
    let identifier: MachineIdentifier?
    /// The routes, keyed by (state type, event type), in declaration order per key.
    @usableFromInline var routeTable = RouteTable<SuperState, SuperEvent>()
    /// How many (state, event) routes were registered; the next route's declaration order.
    var routeCount = 0
    /// The composites owned by each state type.
    @usableFromInline var composites: [ObjectIdentifier: [CompositeDefinition<SuperState, SuperEvent>]] = [:]
    /// What is wrong with this definition (for example a composite child without an id);
    /// empty when it is sound. Each error is also reported in the package's log (the system
    /// log; see ``setLogger(function:)``) when the definition is built, and an invalid
    /// composite is never started.
    public private(set) var definitionErrors: [String] = []

    /// A machine with no routes.
    public init(initial: some State<SuperState>) {
        self.initial = initial
        self.identifier = nil
    }

    /// A machine with no routes, identified by `id` (a type used as a name, for example an
    /// empty enum), so that a composite can address it.
    public init<ID>(id: ID.Type, initial: some State<SuperState>) {
        self.initial = initial
        self.identifier = MachineIdentifier(id)
    }

    /// A machine declared with the DSL.
    public init(
        initial: some State<SuperState>,
        @StateMachineBuilder<SuperState, SuperEvent> builder: () -> [When<SuperState, SuperEvent>]
    ) {
        self.init(initial: initial)
        register(builder())
    }

    /// A machine declared with the DSL, identified by `id` so that a composite can address it.
    public init<ID>(
        id: ID.Type,
        initial: some State<SuperState>,
        @StateMachineBuilder<SuperState, SuperEvent> builder: () -> [When<SuperState, SuperEvent>]
    ) {
        self.init(id: id, initial: initial)
        register(builder())
    }

    /// The number of distinct (state type, event type) pairs that have at least one route.
    public var routedPairCount: Int { routeTable.count }

    mutating func register(_ whens: [When<SuperState, SuperEvent>]) {
        for when in whens {
            for route in when.routes {
                register(states: when.states, events: route.events, resolve: route.resolve)
            }
            for composite in when.composites {
                if composite.errors.isEmpty {
                    for state in when.states { composites[state.id, default: []].append(composite) }
                } else {
                    definitionErrors += composite.errors
                    composite.errors.forEach(Diagnostics.report)
                }
            }
        }
    }

    /// Adds one route per (state, event) pair, state-major, in declaration order.
    mutating func register(
        states: [TypeKey],
        events: [TypeKey],
        resolve: Route<SuperState, SuperEvent>.Resolver
    ) {
        for state in states {
            for event in events {
                let diagnostic = RouteDiagnostic(
                    stateTypeName: state.name,
                    eventTypeName: event.name,
                    declarationOrder: routeCount
                )
                routeCount += 1
                routeTable.append(
                    Route(diagnostic: diagnostic, resolve: resolve),
                    for: TypesIdentifier(lhsIdentifier: state.id, rhsIdentifier: event.id)
                )
            }
        }
    }
}

/// The name of a machine given with `StateMachine(id:initial:)`.
struct MachineIdentifier: Hashable, Sendable, CustomStringConvertible {
    /// The identity of the identifier type.
    let id: ObjectIdentifier
    /// The identifier type's name.
    let description: String

    init<ID>(_ type: ID.Type) {
        self.id = ObjectIdentifier(type)
        self.description = String(reflecting: type)
    }
}
