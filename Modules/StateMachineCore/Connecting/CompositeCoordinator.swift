import StateMachineSupport

/// Runs the composites of a parent machine: starts their children when the parent enters
/// an owning state type, routes events between parent and children, evaluates joins, and
/// finishes the children when the parent leaves that state type or shuts down.
///
/// An activation "generation" tags every child callback, so that a late callback from an
/// earlier activation is dropped.
@usableFromInline
final class CompositeCoordinator<SuperState, SuperEvent>: Sendable {
    @usableFromInline typealias AnyState = any State<SuperState>
    @usableFromInline typealias AnyEvent = any Event<SuperEvent>

    struct Instance: Sendable {
        let definition: CompositeDefinition<SuperState, SuperEvent>
        var children: [RunningChild?]
        var lastStates: [(any State)?]
        var joinsFired: [Bool]
    }

    struct Activation: Sendable {
        let stateType: ObjectIdentifier
        let generation: Int
        var parentState: AnyState
        var instances: [Instance]
    }

    struct Storage: Sendable {
        var active: Activation?
        var generation = 0
    }

    private let definitions: [ObjectIdentifier: [CompositeDefinition<SuperState, SuperEvent>]]
    private let raise: @Sendable (AnyEvent) -> Void
    private let storage = Lock(Storage())

    /// A coordinator for `definitions`; `raise` queues an event in the parent.
    init(
        definitions: [ObjectIdentifier: [CompositeDefinition<SuperState, SuperEvent>]],
        raise: @escaping @Sendable (AnyEvent) -> Void
    ) {
        self.definitions = definitions
        self.raise = raise
    }

    // MARK: Called by the parent's command loop

    /// Starts the composites the state's type owns (the initial state, or a new state of
    /// another type).
    @usableFromInline
    func activate(for state: AnyState, isLogEnabled: Bool) {
        let stateType = ObjectIdentifier(type(of: state))
        guard let definitions = definitions[stateType] else { return }
        let generation = storage.withLock { storage -> Int in
            storage.generation += 1
            storage.active = Activation(
                stateType: stateType,
                generation: storage.generation,
                parentState: state,
                instances: definitions.map { definition in
                    Instance(
                        definition: definition,
                        children: Array(repeating: nil, count: definition.children.count),
                        lastStates: Array(repeating: nil, count: definition.children.count),
                        joinsFired: Array(repeating: false, count: definition.joins.count)
                    )
                }
            )
            return storage.generation
        }
        for (instance, definition) in definitions.enumerated() {
            for (position, child) in definition.children.enumerated() {
                let running = child.start(
                    isLogEnabled,
                    { [weak self] state in
                        await self?.childDidChange(generation, instance, position, event: nil, state: state)
                    },
                    { [weak self] event, state in
                        await self?.childDidChange(generation, instance, position, event: event, state: state)
                    }
                )
                storage.withLock { storage in
                    guard storage.active?.generation == generation else { return }
                    storage.active?.instances[instance].children[position] = running
                }
            }
        }
    }

    /// Runs the parent-event handlers of the active composites, before the parent commits
    /// the event's new state.
    @usableFromInline
    func routeParentEvent(_ state: AnyState, _ event: AnyEvent) async {
        let eventType = ObjectIdentifier(type(of: event))
        let (generation, handlers) = storage.withLock {
            storage -> (Int, [CompositeDefinition<SuperState, SuperEvent>.ParentHandler]) in
            guard let active = storage.active, active.stateType == ObjectIdentifier(type(of: state)) else {
                return (0, [])
            }
            let handlers = active.instances.flatMap {
                $0.definition.parentHandlers.filter { $0.eventType == eventType }
            }
            return (active.generation, handlers)
        }
        for handler in handlers {
            apply(await handler.run(state, event), generation: generation)
        }
    }

    /// Follows a committed parent state: same type, the children stay; another type, they
    /// are finished and the new type's composites (if any) start.
    @usableFromInline
    func parentDidCommit(_ state: AnyState, isLogEnabled: Bool) async {
        let stateType = ObjectIdentifier(type(of: state))
        let previous = storage.withLock { storage -> Activation? in
            if storage.active?.stateType == stateType {
                storage.active?.parentState = state
                return nil
            }
            defer { storage.active = nil }
            return storage.active
        }
        if let previous { await finish(previous) }
        let isActive = storage.withLock { $0.active?.stateType == stateType }
        if !isActive { activate(for: state, isLogEnabled: isLogEnabled) }
    }

    /// Finishes every running child (parent shutdown).
    @usableFromInline
    func deactivateAll() async {
        let previous = storage.withLock { storage -> Activation? in
            defer { storage.active = nil }
            return storage.active
        }
        if let previous { await finish(previous) }
    }

    private func finish(_ activation: Activation) async {
        for instance in activation.instances {
            for child in instance.children.compactMap({ $0 }) {
                await child.finishAndWait()
            }
        }
    }

    // MARK: Called by the children's lifecycle callbacks

    private func childDidChange(
        _ generation: Int,
        _ instance: Int,
        _ position: Int,
        event: (any Event)?,
        state: any State
    ) async {
        let handlers = storage.withLock {
            storage -> [(CompositeDefinition<SuperState, SuperEvent>.ChildHandler, AnyState)]? in
            guard var active = storage.active, active.generation == generation else { return nil }
            active.instances[instance].lastStates[position] = state
            storage.active = active
            guard let event else { return [] }
            let definition = active.instances[instance].definition
            let childID = definition.children[position].id
            let eventType = ObjectIdentifier(type(of: event))
            return definition.childHandlers
                .filter { $0.eventType == eventType && ($0.child == nil || $0.child == childID) }
                .map { ($0, active.parentState) }
        }
        guard let handlers else { return }
        if let event {
            for (handler, parentState) in handlers {
                apply(await handler.run(parentState, event), generation: generation)
            }
        }
        await evaluateJoins(generation, instance)
    }

    private func evaluateJoins(_ generation: Int, _ instance: Int) async {
        // The flag is taken before the handler runs, so a join fires once per activation
        // even when several children reach their join state concurrently.
        let ready = storage.withLock { storage -> [CompositeDefinition<SuperState, SuperEvent>.Join] in
            guard var active = storage.active, active.generation == generation else { return [] }
            var ready: [CompositeDefinition<SuperState, SuperEvent>.Join] = []
            let lastTypes = active.instances[instance].lastStates.map { $0.map { ObjectIdentifier(type(of: $0)) } }
            for (index, join) in active.instances[instance].definition.joins.enumerated()
            where !active.instances[instance].joinsFired[index] && lastTypes == join.stateTypes.map(Optional.some) {
                active.instances[instance].joinsFired[index] = true
                ready.append(join)
            }
            storage.active = active
            return ready
        }
        for join in ready {
            apply(await join.run(), generation: generation)
        }
    }

    private func apply(_ effects: [CompositeEffect<SuperEvent>], generation: Int) {
        for effect in effects {
            switch effect {
            case .raise(let event):
                raise(event)
            case .forward(let child, let event):
                let targets = storage.withLock { storage -> [RunningChild] in
                    guard let active = storage.active, active.generation == generation else { return [] }
                    return active.instances.flatMap { instance in
                        zip(instance.definition.children, instance.children).compactMap { definition, running in
                            definition.id?.id == child ? running : nil
                        }
                    }
                }
                for target in targets { target.send(event) }
            }
        }
    }
}
