// Named blocks: enter and exit blocks, transition actions and guards given a name that
// diagrams print and the SCXML export (`SCXMLDocument.export` in StateMachineSCXML) writes
// as a placeholder. A block without a name still runs; it is drawn as `action` or `guard`
// and the export reports it as something SCXML cannot express.

extension Statechart.State {
    /// Runs `action` whenever the state is entered, as ``onEnter(_:)`` does, and names it
    /// `name` for diagrams and the SCXML export.
    public func onEnter(named name: String, _ action: @escaping Statechart.Action) -> Statechart.State {
        var copy = onEnter(action)
        copy.spec.enterName = name
        return copy
    }

    /// Runs `action` whenever the state is exited, as ``onExit(_:)`` does, and names it
    /// `name` for diagrams and the SCXML export.
    public func onExit(named name: String, _ action: @escaping Statechart.Action) -> Statechart.State {
        var copy = onExit(action)
        copy.spec.exitName = name
        return copy
    }

    /// Names the action and the guard of the transition added just before (by `on`,
    /// `onInternal`, `always`, `after` or `onDone`), for diagrams and the SCXML export:
    /// `.after(.seconds(2), to: "off", action: blink).naming(action: "blink")`. A name
    /// left nil keeps the name the transition has. Used on a state that has no transition
    /// yet, it makes compiling the chart fail with
    /// ``StatechartError/invalidTransition(source:reason:)``, naming the state.
    public func naming(action actionName: String? = nil, guard guardName: String? = nil) -> Statechart.State {
        var copy = self
        guard let last = copy.spec.handlers.indices.last else {
            copy.spec.namesWithoutTransition = true
            return copy
        }
        if let actionName { copy.spec.handlers[last].actionName = actionName }
        if let guardName { copy.spec.handlers[last].guardName = guardName }
        return copy
    }
}

extension Statechart.Definition {
    /// Sets the action of the transition for event `name` and the name diagrams and the
    /// SCXML export show for it; see ``setGuard(forTransition:from:_:)``.
    /// - Throws: ``StatechartError/unknownTransition(name:)`` or
    ///   ``StatechartError/ambiguousTransition(name:sources:)``.
    public mutating func setAction(
        forTransition name: EventID,
        from source: String? = nil,
        named actionName: String,
        _ action: @escaping Statechart.Action
    ) throws {
        try modifyHandler(named: name, from: source) {
            $0.action = action
            $0.actionName = actionName
        }
    }

    /// Sets the block run when the state at `path` is entered, named `name` for diagrams
    /// and the SCXML export; see ``onEnter(at:_:)``.
    public mutating func onEnter(at path: String, named name: String, _ action: @escaping Statechart.Action) throws {
        let location = try locate(path)
        modify(at: location) {
            $0.enter = action
            $0.enterName = name
        }
    }

    /// Sets the block run when the state at `path` is exited, named `name` for diagrams
    /// and the SCXML export; see ``onExit(at:_:)``.
    public mutating func onExit(at path: String, named name: String, _ action: @escaping Statechart.Action) throws {
        let location = try locate(path)
        modify(at: location) {
            $0.exit = action
            $0.exitName = name
        }
    }
}
