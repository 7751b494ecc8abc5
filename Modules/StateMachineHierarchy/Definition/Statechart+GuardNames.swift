// Named guards: the same handlers as `on(_:to:kind:action:guard:)`, with a name that
// diagrams print in the transition's label (`event [name]`). A guard given without a
// name is drawn as `[guard]`.

extension Statechart.State {
    /// Adds a handler for `event` to the state `target`, guarded by `guardBlock`, whose
    /// name `guardName` labels the transition in diagrams (`event [guardName]`).
    public func on(
        _ event: EventID,
        to target: StateID,
        kind: StatechartTransitionKind = .external,
        action: Statechart.Action? = nil,
        guard guardBlock: @escaping Statechart.Guard,
        guardName: String
    ) -> Statechart.State {
        on(event, to: .state(target), kind: kind, action: action, guard: guardBlock, guardName: guardName)
    }

    /// Adds a handler for `event` to a state or pseudo state, guarded by `guardBlock`,
    /// whose name `guardName` labels the transition in diagrams.
    public func on(
        _ event: EventID,
        to target: Statechart.Target,
        kind: StatechartTransitionKind = .external,
        action: Statechart.Action? = nil,
        guard guardBlock: @escaping Statechart.Guard,
        guardName: String
    ) -> Statechart.State {
        var copy = on(event, to: target, kind: kind, action: action, guard: guardBlock)
        copy.spec.handlers[copy.spec.handlers.count - 1].guardName = guardName
        return copy
    }
}

extension Statechart.Definition {
    /// Sets the guard of the transition(s) for event `name` and the name diagrams show
    /// for it; see ``setGuard(forTransition:from:_:)``.
    /// - Throws: ``StatechartError/unknownTransition(name:)`` or
    ///   ``StatechartError/ambiguousTransition(name:sources:)``.
    public mutating func setGuard(
        forTransition name: EventID,
        from source: String? = nil,
        named guardName: String,
        _ guardBlock: @escaping Statechart.Guard
    ) throws {
        try modifyHandler(named: name, from: source) {
            $0.guardBlock = guardBlock
            $0.guardName = guardName
        }
    }
}
