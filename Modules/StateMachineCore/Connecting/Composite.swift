/// Child state machines that run while the parent machine is in one state: declared inside
/// `When(state:)`, they are started fresh each time the parent enters that state type and
/// finished (outputs cancelled and awaited) when it leaves it, or when the parent finishes.
///
/// ```swift
/// When(state: RootRunning.self) {
///     Composite {
///         StateMachine<AuthState, AuthEvent>(id: AuthMachine.self, initial: AuthIdle()) { ... }
///         StateMachine<SyncState, SyncEvent>(id: SyncMachine.self, initial: SyncIdle()) { ... }
///     }
///     .on(parentEvent: RootCancellationWasRequested.self) { _, _ in
///         Forward(to: AuthMachine.self, event: AuthCancel())
///         Forward(to: SyncMachine.self, event: SyncCancel())
///     }
///     .on(childEvent: AuthSucceeded.self) { _, event in Raise(event: RootAuthenticated()) }
///     .join(whenChildStates: AuthFinished.self, SyncFinished.self) { Raise(event: RootWasSuccessful()) }
/// }
/// ```
///
/// - Parent events: every parent event processed while the owning state is active runs the
///   matching `.on(parentEvent:)` handlers, whether or not the parent has a route for it,
///   before the parent's new state is committed. The event that makes the parent enter the
///   owning state is not routed to the children it starts.
/// - Child events: `.on(childEvent:)` handlers run for child events that caused a committed
///   child transition.
/// - Join: fires once per activation, when every child's last state has exactly the rule's
///   type (types in child declaration order).
/// - Any number of children; each must be declared with `StateMachine(id:initial:)` so that
///   `Forward` can address it. A child without an id, or two children with the same id, make
///   the composite invalid: the error is reported when the parent definition is built (see
///   ``StateMachine/definitionErrors``) and that composite is never started. A `Composite`
///   in a `When` that names several states does not compile.
/// - `Forward` of an event that is not of the child's event set, or to an unknown child, is
///   dropped; `Raise` queues an event in the parent, after the events already queued.
/// - Children log their transitions only when the parent does (see `disableLog()`).
public struct Composite<S: State, SuperState, SuperEvent>: Sendable where S.SuperState == SuperState {
    @usableFromInline let children: [ChildMachine]
    @usableFromInline var parentHandlers: [CompositeDefinition<SuperState, SuperEvent>.ParentHandler] = []
    @usableFromInline var childHandlers: [CompositeDefinition<SuperState, SuperEvent>.ChildHandler] = []
    @usableFromInline var joins: [CompositeDefinition<SuperState, SuperEvent>.Join] = []

    /// A composite of the child machines the builder lists.
    public init(@CompositeBuilder _ children: () -> [ChildMachine]) {
        self.children = children()
    }

    /// Runs `effects` for every parent event of type `E` processed while the owning state
    /// is active; the closure receives the parent's current state and the event.
    public func on<E: Event>(
        parentEvent: E.Type,
        @CompositeEffectBuilder<SuperEvent> effects: @escaping @Sendable (S, E) async -> [CompositeEffect<SuperEvent>]
    ) -> Self where E.SuperEvent == SuperEvent {
        var copy = self
        copy.parentHandlers.append(
            .init(eventType: ObjectIdentifier(E.self)) { state, event in
                guard let state = state as? S, let event = event as? E else { return [] }
                return await effects(state, event)
            }
        )
        return copy
    }

    /// Runs `effects` for every committed child transition caused by an event of type `E`
    /// (from any child); the closure receives the parent's current state and the event.
    public func on<E: Event>(
        childEvent: E.Type,
        @CompositeEffectBuilder<SuperEvent> effects: @escaping @Sendable (S, E) async -> [CompositeEffect<SuperEvent>]
    ) -> Self {
        on(childEvent: childEvent, fromChild: nil, effects: effects)
    }

    /// Like ``on(childEvent:effects:)``, only for transitions of the child named `child`.
    public func on<E: Event, ID>(
        childEvent: E.Type,
        from child: ID.Type,
        @CompositeEffectBuilder<SuperEvent> effects: @escaping @Sendable (S, E) async -> [CompositeEffect<SuperEvent>]
    ) -> Self {
        on(childEvent: childEvent, fromChild: MachineIdentifier(child), effects: effects)
    }

    private func on<E: Event>(
        childEvent: E.Type,
        fromChild child: MachineIdentifier?,
        effects: @escaping @Sendable (S, E) async -> [CompositeEffect<SuperEvent>]
    ) -> Self {
        var copy = self
        copy.childHandlers.append(
            .init(eventType: ObjectIdentifier(E.self), child: child) { state, event in
                guard let state = state as? S, let event = event as? E else { return [] }
                return await effects(state, event)
            }
        )
        return copy
    }

    /// Runs `effects` once per activation, as soon as every child's last state has exactly
    /// the type at its position in `states` (one type per child, in declaration order).
    public func join(
        whenChildStates states: any State.Type...,
        @CompositeEffectBuilder<SuperEvent> effects: @escaping @Sendable () async -> [CompositeEffect<SuperEvent>]
    ) -> Self {
        var copy = self
        copy.joins.append(.init(stateTypes: states.map { ObjectIdentifier($0) }, run: effects))
        return copy
    }

    /// The erased definition the parent machine stores.
    @usableFromInline
    var definition: CompositeDefinition<SuperState, SuperEvent> {
        var errors: [String] = []
        var seen = Set<MachineIdentifier>()
        for (index, child) in children.enumerated() {
            guard let id = child.id else {
                errors.append(
                    "Composite in When(state: \(S.self)): child #\(index + 1) (\(child.typeName)) has no id; "
                        + "declare it with StateMachine(id:initial:) so that Forward can address it"
                )
                continue
            }
            if !seen.insert(id).inserted {
                errors.append("Composite in When(state: \(S.self)): two children share the id \(id)")
            }
        }
        for join in joins where join.stateTypes.count != children.count {
            errors.append(
                "Composite in When(state: \(S.self)): join(whenChildStates:) names \(join.stateTypes.count) "
                    + "state types for \(children.count) children"
            )
        }
        return CompositeDefinition(
            owner: "\(S.self)",
            children: children,
            parentHandlers: parentHandlers,
            childHandlers: childHandlers,
            joins: joins,
            errors: errors
        )
    }
}

/// What a composite handler does: forward an event to a child, or raise one in the parent.
public enum CompositeEffect<SuperEvent>: Sendable {
    /// Sends `event` to the child machine identified by `child`.
    case forward(child: ObjectIdentifier, event: any Event)
    /// Queues `event` in the parent machine.
    case raise(any Event<SuperEvent>)
}

/// Sends an event to the child machine declared with `StateMachine(id: ID.self, ...)`.
public struct Forward: Sendable {
    let child: ObjectIdentifier
    let event: any Event

    /// Forwards `event` to the child named `child`.
    public init<ID>(to child: ID.Type, event: any Event) {
        self.child = ObjectIdentifier(child)
        self.event = event
    }
}

/// Queues an event in the parent machine.
public struct Raise<SuperEvent>: Sendable {
    let event: any Event<SuperEvent>

    /// Raises `event` in the parent.
    public init(event: any Event<SuperEvent>) {
        self.event = event
    }
}

/// Builds the effects of a composite handler: a list of `Forward` and `Raise`.
@resultBuilder
public enum CompositeEffectBuilder<SuperEvent> {
    /// A `Forward` line.
    public static func buildExpression(_ forward: Forward) -> [CompositeEffect<SuperEvent>] {
        [.forward(child: forward.child, event: forward.event)]
    }

    /// A `Raise` line.
    public static func buildExpression(_ raise: Raise<SuperEvent>) -> [CompositeEffect<SuperEvent>] {
        [.raise(raise.event)]
    }

    /// The lines, in order.
    public static func buildBlock(_ effects: [CompositeEffect<SuperEvent>]...) -> [CompositeEffect<SuperEvent>] {
        effects.flatMap { $0 }
    }
}

/// Builds the children of a ``Composite``: any number of `StateMachine` definitions.
@resultBuilder
public enum CompositeBuilder {
    /// A child machine definition.
    public static func buildExpression<ChildState, ChildEvent>(
        _ machine: StateMachine<ChildState, ChildEvent>
    ) -> [ChildMachine] {
        [ChildMachine(machine)]
    }

    /// The children, in declaration order.
    public static func buildBlock(_ children: [ChildMachine]...) -> [ChildMachine] {
        children.flatMap { $0 }
    }
}

/// A child machine definition, erased so that children of different types sit together.
public struct ChildMachine: Sendable {
    let id: MachineIdentifier?
    let typeName: String
    /// Starts a fresh machine; the callbacks receive its initial state and transitions. A
    /// child logs its transitions only when its parent does.
    let start:
        @Sendable (
            _ isLogEnabled: Bool,
            _ onInitialState: @escaping @Sendable (any State) async -> Void,
            _ onTransition: @escaping @Sendable (any Event, any State) async -> Void
        ) -> RunningChild

    init<ChildState, ChildEvent>(_ machine: StateMachine<ChildState, ChildEvent>) {
        self.id = machine.identifier
        self.typeName = "StateMachine<\(ChildState.self), \(ChildEvent.self)>"
        self.start = { isLogEnabled, onInitialState, onTransition in
            let child = AsyncStateMachine(stateMachine: machine)
            if !isLogEnabled { child.disableLog() }
            child
                .onInitialState { _, state in await onInitialState(state) }
                .onTransition { _, _, event, new in await onTransition(event, new) }
            // Nothing can iterate a child: its states reach the parent through the callbacks
            // above, and buffering them for an observer would keep every one until the
            // parent leaves the owning state. Finished before the start, which may emit the
            // initial state at once.
            child.core.finishObservation()
            child.core.start()
            return RunningChild(
                send: { event in
                    guard let event = event as? any Event<ChildEvent> else { return }
                    child.send(event: event)
                },
                finishAndWait: { await child.finishAndWait() }
            )
        }
    }
}

/// A started child: how to send it events and how to stop it (it lives as long as this).
struct RunningChild: Sendable {
    let send: @Sendable (any Event) -> Void
    let finishAndWait: @Sendable () async -> Void
}

/// A composite, erased from its owning state type, as the parent's definition stores it.
@usableFromInline
struct CompositeDefinition<SuperState, SuperEvent>: Sendable {
    @usableFromInline
    struct ParentHandler: Sendable {
        let eventType: ObjectIdentifier
        let run: @Sendable (any State<SuperState>, any Event<SuperEvent>) async -> [CompositeEffect<SuperEvent>]
        @usableFromInline
        init(
            eventType: ObjectIdentifier,
            run:
                @escaping @Sendable (any State<SuperState>, any Event<SuperEvent>) async -> [CompositeEffect<
                    SuperEvent
                >]
        ) {
            self.eventType = eventType
            self.run = run
        }
    }

    @usableFromInline
    struct ChildHandler: Sendable {
        let eventType: ObjectIdentifier
        let child: MachineIdentifier?
        let run: @Sendable (any State<SuperState>, any Event) async -> [CompositeEffect<SuperEvent>]
        init(
            eventType: ObjectIdentifier,
            child: MachineIdentifier?,
            run: @escaping @Sendable (any State<SuperState>, any Event) async -> [CompositeEffect<SuperEvent>]
        ) {
            self.eventType = eventType
            self.child = child
            self.run = run
        }
    }

    @usableFromInline
    struct Join: Sendable {
        let stateTypes: [ObjectIdentifier]
        let run: @Sendable () async -> [CompositeEffect<SuperEvent>]
        @usableFromInline
        init(stateTypes: [ObjectIdentifier], run: @escaping @Sendable () async -> [CompositeEffect<SuperEvent>]) {
            self.stateTypes = stateTypes
            self.run = run
        }
    }

    let owner: String
    let children: [ChildMachine]
    let parentHandlers: [ParentHandler]
    let childHandlers: [ChildHandler]
    let joins: [Join]
    let errors: [String]
}
