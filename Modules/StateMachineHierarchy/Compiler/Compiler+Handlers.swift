// Phase 4 of compiling a chart: the handlers, in state order then registration order. Each
// gets its event (a user event, or a synthetic one for eventless, delayed and done
// transitions) and its effect, with the switches (exit scope and entry plan) it makes
// registered. Then the handler table: for every (state, event) pair, the handlers to try in
// order, one lookup per event.

extension Statechart.Compiler {
    /// Compiles every state's handlers.
    mutating func compileHandlers() throws {
        // Each handler adds one entry to each of these (and most add one switch): room for all of
        // them at once, rather than the slack of growing by doubling.
        let count = states.reduce(0) { $0 + $1.handlers.count }
        handlers.reserveCapacity(handlers.count + count)
        handlerNames.reserveCapacity(handlerNames.count + count)
        guards.reserveCapacity(guards.count + count)
        actions.reserveCapacity(actions.count + count)
        listings.reserveCapacity(listings.count + count)
        switches.reserveCapacity(adding: count)
        for sourceIndex in states.indices {
            for handler in states[sourceIndex].handlers {
                try compileHandler(handler, of: Int32(sourceIndex))
            }
        }
    }

    /// Compiles `handler` of state `source`: its event, its effect and its name.
    private mutating func compileHandler(_ handler: HandlerSpec, of source: Int32) throws {
        let (event, eventName, listedUnder) = try trigger(of: handler, source: source)
        let (effect, name) = try effect(of: handler, source: source, eventName: eventName)
        handlers.append(
            HandlerNode(
                source: source,
                hasGuard: handler.guardBlock != nil,
                hasAction: handler.action != nil,
                effect: effect
            )
        )
        handlerNames.append(name)
        guards.append(GuardBlock.boxing(handler.guardBlock))
        actions.append(ActionBlock.boxing(handler.action))
        let handler = Int32(handlers.count - 1)
        if let listedUnder {
            for event in listedUnder { listings.append((handler, event)) }
        } else {
            listings.append((handler, event))
        }
    }

    /// The event that fires `handler` of state `source`, the name traces give it, and (with
    /// prefix matching) the event classes it is listed under.
    private mutating func trigger(
        of handler: HandlerSpec,
        source: Int32
    ) throws -> (event: Int32, name: String, listedUnder: [Int32]?) {
        let sourceIndex = Int(source)
        let sourceName = states[sourceIndex].name
        let event: Int32
        let eventName: String
        var listedUnder: [Int32]?
        switch handler.trigger {
        case .event(let id):
            eventName = statechartName(id)
            for other in [id] + handler.extraEvents where statechartName(other).isEmpty {
                throw StatechartError.emptyName(
                    what: "An event",
                    location: "a handler of state '\(states[sourceIndex].path)'"
                )
            }
            event = eventIndex[id]!
            let own = ([id] + handler.extraEvents).map { eventIndex[$0]! }
            listedUnder = matching.classes(matchedByAnyOf: own)
        case .eventless:
            eventName = "eventless"
            if eventlessEvent < 0 { eventlessEvent = newSyntheticEvent(eventName) }
            event = eventlessEvent
        case .after(let delay):
            eventName = "after \(delay) in \(sourceName)"
            event = newSyntheticEvent(eventName)
            stateTimers[sourceIndex].append(Int32(timers.count))
            timers.append(TimerNode(state: source, event: event, delay: max(delay, .zero)))
        case .done(let id):
            let completing =
                try id.map {
                    try lookup($0, referencedBy: "a done handler of '\(states[sourceIndex].path)'")
                } ?? source
            guard states[Int(completing)].kind != .simple else {
                throw StatechartError.invalidTransition(
                    source: states[sourceIndex].path,
                    reason:
                        "'\(states[Int(completing)].path)' is a simple state, so it raises no done event"
                )
            }
            eventName = "done.state.\(states[Int(completing)].name)"
            if doneEvents[Int(completing)] < 0 {
                doneEvents[Int(completing)] = newSyntheticEvent(eventName)
            }
            event = doneEvents[Int(completing)]
        }
        return (event, eventName, listedUnder)
    }

    /// What `handler` of state `source` does, resolved against the pseudo states, and its
    /// name for traces (`source --> target`).
    private mutating func effect(
        of handler: HandlerSpec,
        source: Int32,
        eventName: String
    ) throws -> (Effect, String) {
        let sourceIndex = Int(source)
        let sourceName = states[sourceIndex].name
        let described = "the handler for event '\(eventName)' on '\(states[sourceIndex].path)'"
        let effect: Effect
        let name: String
        switch handler.target {
        case .state(let id) where !handler.extraTargets.isEmpty || compoundDomains:
            let targets = try ([handler.target] + handler.extraTargets).map {
                try resolveTarget($0, referencedBy: described)
            }
            if handler.kind == .internal {
                guard targets.count == 1, case .state(source) = targets[0] else {
                    throw StatechartError.internalTransitionTargetMismatch(
                        event: eventName,
                        source: states[sourceIndex].path,
                        target: statechartName(id)
                    )
                }
                effect = .internalAction
            } else {
                effect = .transition(
                    register(
                        makeTargetSwitch(from: source, to: targets, kind: handler.kind)
                    )
                )
            }
            name = "\(sourceName) --> \(targets.map(describe).joined(separator: ","))"
        case .history(let historyName) where compoundDomains:
            let target = try resolveTarget(handler.target, referencedBy: described)
            effect = .transition(
                register(
                    makeTargetSwitch(from: source, to: [target], kind: handler.kind)
                )
            )
            name = "\(sourceName) --> \(historyName)"
        case .state(let id):
            let target = try lookup(id, referencedBy: described)
            if handler.kind == .internal {
                guard target == source else {
                    throw StatechartError.internalTransitionTargetMismatch(
                        event: eventName,
                        source: states[sourceIndex].path,
                        target: states[Int(target)].path
                    )
                }
                effect = .internalAction
            } else {
                effect = .transition(register(makeSwitch(from: source, to: target, kind: handler.kind)))
            }
            name = "\(sourceName) --> \(states[Int(target)].name)"
        case .fork(let forkName):
            guard let fork = forkInfo[forkName] else {
                throw StatechartError.unknownPseudoState(name: forkName, referencedBy: described)
            }
            try rejectInternal(handler, event: eventName, source: source, pseudo: forkName)
            effect = .fork(register(makeForkSwitch(from: source, into: fork.region, targets: fork.targets)))
            let targetNames = fork.targets.map { states[Int($0)].name }.joined(separator: ",")
            name = "\(sourceName) --> \(forkName) --> \(states[Int(fork.region)].name)/[\(targetNames)]"
        case .join(let joinName):
            guard let join = joinInfo[joinName] else {
                throw StatechartError.unknownPseudoState(name: joinName, referencedBy: described)
            }
            try rejectInternal(handler, event: eventName, source: source, pseudo: joinName)
            guard let slot = join.sources.firstIndex(of: source) else {
                throw StatechartError.invalidCompoundTransition(
                    pseudoState: joinName,
                    reason:
                        "'\(states[sourceIndex].path)' handles '\(eventName)' with the join but is not one of its sources"
                )
            }
            effect = .join(
                join: join.index,
                slot: Int32(slot),
                change: register(makeSwitch(from: source, to: join.target, kind: .external))
            )
            let sourceNames = join.sources.map { states[Int($0)].name }.joined(separator: ",")
            name =
                "\(states[Int(join.region)].name)/[\(sourceNames)] --> \(joinName) --> \(states[Int(join.target)].name)"
        case .junction(let junctionName):
            guard let junction = junctionInfo[junctionName] else {
                throw StatechartError.unknownPseudoState(name: junctionName, referencedBy: described)
            }
            try rejectInternal(handler, event: eventName, source: source, pseudo: junctionName)
            let firstPath = Int32(switches.count)
            for target in junction.targets {
                _ = register(makeSwitch(from: source, to: target, kind: .external))
            }
            effect = .junction(junction: junction.index, firstPath: firstPath)
            let targetNames = junction.targets.map { states[Int($0)].name }.joined(separator: ",")
            name = "\(sourceName) --> \(junctionName) --> [\(targetNames)]"
        case .history(let historyName):
            guard let history = historyInfo[historyName] else {
                throw StatechartError.unknownPseudoState(name: historyName, referencedBy: described)
            }
            try rejectInternal(handler, event: eventName, source: source, pseudo: historyName)
            effect = .history(
                history: history.index,
                remembered: register(makeSwitch(from: source, to: history.owner, kind: handler.kind)),
                fallback: register(
                    makeSwitch(from: source, to: history.defaultTarget ?? history.owner, kind: handler.kind)
                )
            )
            name = "\(sourceName) --> \(historyName)"
        }
        return (effect, name)
    }

    /// With prefix matching, lists `onDone` handlers' done events under the handlers whose
    /// descriptors match them.
    mutating func listDoneEventsUnderMatchingHandlers() {
        // With prefix matching, the done event raised for `onDone` handlers is also the
        // event named `done.state.<id>`: the handlers whose descriptors match that name
        // (`done`, `done.state`, `*`, the name itself) are listed under it too, as they are
        // for the same name in a chart without `onDone` (and in SCXML).
        guard prefixMatching, doneEvents.contains(where: { $0 >= 0 }) else { return }
        var listed = Set(listings.map { Int64($0.handler) << 32 | Int64($0.event) })
        // Handlers were compiled state by state, each state's in registration order.
        var handler: Int32 = 0
        for state in states {
            for spec in state.handlers {
                defer { handler += 1 }
                guard case .event(let id) = spec.trigger else { continue }
                let descriptors = ([id] + spec.extraEvents).map { EventClasses.normalized(statechartName($0)) }
                for done in doneEvents where done >= 0 && !listed.contains(Int64(handler) << 32 | Int64(done)) {
                    let name = syntheticNames[Int(done) - userEventCount]
                    if descriptors.contains(where: { EventClasses.matches(descriptor: $0, event: name) }) {
                        listings.append((handler, done))
                        listed.insert(Int64(handler) << 32 | Int64(done))
                    }
                }
            }
        }
    }

    /// The handler table: for every (state, event) pair with handlers, those handlers in
    /// registration order (see `HandlerTable`).
    func handlerTable() -> HandlerTable {
        HandlerTable(stateCount: states.count, sources: handlers.map(\.source), listings: listings)
    }

    /// With prefix matching, every composite and parallel state raises its
    /// `done.state.<id>` (SCXML), handled by whatever descriptor matches it.
    mutating func assignDoneEventClasses() {
        // Done events: with prefix matching, every composite and parallel state raises
        // its `done.state.<id>` (SCXML), handled by whatever descriptor matches it.
        if prefixMatching {
            for index in states.indices where states[index].kind != .simple && doneEvents[index] < 0 {
                doneEvents[index] = matching.eventClass(of: "done.state.\(states[index].name)") ?? -1
            }
        }
    }
}
