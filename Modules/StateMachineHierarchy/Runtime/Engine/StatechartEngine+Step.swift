// The step: one microstep for one event. TBStateMachine's dispatch (below) and SCXML's
// selection (`StatechartEngine+Selection.swift`) choose handlers differently, but both
// resolve a handler's effect with `choose(_:)` and take what they chose with `take(_:)`,
// so each effect case, and the order of taking a transition (exits, content, entries), is
// written once; what is done at each state exited or entered is the traversal's
// (`StatechartEngine+Traversal.swift`).

extension StatechartEngine {
    /// A transition chosen for the running step: the handler, and what its effect resolved
    /// to (the switch it makes, and the junction path or history record it took). Plain
    /// 32-bit numbers, so that one travels in registers.
    struct Pick {
        /// The handler, an index into `TopologyTables.handlers`.
        var handler: Int32
        /// The switch the transition makes (an index into `TopologyTables.switches`), or
        /// ``internalTransition``, or ``joinArrival``.
        var change: Int32
        /// For a junction: the junction and the outgoing path whose guard passed; -1 else.
        var junction: Int32 = -1
        var path: Int32 = -1
        /// For a history target with a record: the history whose record the entry
        /// follows; -1 else.
        var history: Int32 = -1

        /// `change` of an internal transition: its action runs, nothing is exited or entered.
        static let internalTransition: Int32 = -1
        /// `change` of a join source's arrival that completes nothing: the event is handled,
        /// nothing else happens.
        static let joinArrival: Int32 = -2

        /// Whether the transition exits and enters states.
        var moves: Bool { change >= 0 }
    }

    /// One microstep for `event`: TBStateMachine's dispatch, or SCXML's selection with
    /// `ConflictResolution.documentOrder`. True when a handler fired.
    func step(event: Int32) throws(StatechartError) -> Bool {
        resolvesConflicts ? try select(event: event) : try dispatch(event: event)
    }

    /// TBStateMachine's dispatch (see ``dispatch(region:event:)``), started from the regions
    /// whose states have handlers for `event` (`TopologyTables.candidateRegions`) rather
    /// than from the root: when only one active state with handlers for it is found there,
    /// the recursive dispatch would try its handlers and no others (every other state it
    /// visits has none), so they are tried at once. With two or more, their order is the
    /// recursion's to decide, and it runs.
    @inline(__always)
    private func dispatch(event: Int32) throws(StatechartError) -> Bool {
        guard Int(event) < tables.candidateEventCount else { return false }
        let candidates = Int(tables.candidateStart[Int(event)])..<Int(tables.candidateStart[Int(event) + 1])
        var found: Int32 = -1
        var handlers = 0..<0
        if candidates.count == 1 {
            // The usual case: the event's handlers are all in one region.
            let region = tables.candidateRegions[candidates.lowerBound]
            found = slots.current[Int(region)]
            guard found >= 0 else { return false }
            handlers = handlerRange(state: found, event: event)
            guard !handlers.isEmpty, isActive(region: region) else { return false }
        } else {
            guard let (state, range) = soleCandidate(candidates, event: event) else {
                return try dispatch(region: 0, event: event)
            }
            guard state >= 0 else { return false }
            found = state
            handlers = range
        }
        if let log { logWillHandle(state: found, event: event, log) }
        for slot in handlers {
            if let pick = try choose(Int(tables.handlerList[slot])) {
                take(pick)
                return true
            }
        }
        return false
    }

    /// Among the candidate regions `candidates` of `event`, the only active state with
    /// handlers for it and their slots: (-1, empty) when there is none, nil when there are
    /// several (the recursive dispatch then decides). Out of line, so that the usual event,
    /// whose handlers are in one region, carries none of this loop.
    @inline(never)
    private func soleCandidate(_ candidates: Range<Int>, event: Int32) -> (Int32, Range<Int>)? {
        var found: Int32 = -1
        var handlers = 0..<0
        for slot in candidates {
            let region = tables.candidateRegions[slot]
            let active = slots.current[Int(region)]
            guard active >= 0 else { continue }
            let range = handlerRange(state: active, event: event)
            guard !range.isEmpty, isActive(region: region) else { continue }
            guard found < 0 else { return nil }
            found = active
            handlers = range
        }
        return (found, handlers)
    }

    /// Whether `region` is active: its owner and the owner's ancestors are (the root
    /// region is while the chart runs). Between microsteps a region holds a state exactly
    /// when its owner is active, so one test per level tells.
    @inline(__always)
    private func isActive(region: Int32) -> Bool {
        var owner = tables.regionParents[Int(region)]
        while owner >= 0 {
            let above = tables.hot[Int(owner)].parent
            guard slots.current[Int(above)] == owner else { return false }
            owner = tables.regionParents[Int(above)]
        }
        return true
    }

    /// TBStateMachine's `handleEvent:`: the active child gets the event first (every region
    /// of a parallel state, in order); only if none handled it does this region's active
    /// state try its own handlers, in registration order, taking the first that fires.
    private func dispatch(region: Int32, event: Int32) throws(StatechartError) -> Bool {
        let active = slots.current[Int(region)]
        guard active >= 0 else { return false }
        let state = tables.hot[Int(active)]
        switch state.kind {
        case .simple:
            break
        case .composite:
            if try dispatch(region: tables.childRegions[Int(state.regionStart)], event: event) { return true }
        case .parallel:
            var handled = false
            for slot in Int(state.regionStart)..<Int(state.regionStart + state.regionCount) {
                if try dispatch(region: tables.childRegions[slot], event: event) { handled = true }
            }
            if handled { return true }
        }
        let range = handlerRange(state: active, event: event)
        guard !range.isEmpty else { return false }
        if let log { logWillHandle(state: active, event: event, log) }
        for slot in range {
            let index = Int(tables.handlerList[slot])
            if let pick = try choose(index) {
                take(pick)
                return true
            }
        }
        return false
    }

    /// Resolves handler `index` for the running step: nil when its guard fails (or, with
    /// `JoinSemantics.simultaneous`, a join's other sources are not all active); else what
    /// it does, with its junction path chosen and its history's record looked up. A join
    /// source arriving under `JoinSemantics.rememberArrivals` is recorded here.
    @inline(__always)
    func choose(_ index: Int) throws(StatechartError) -> Pick? {
        let handler = tables.handlers[index]
        if handler.hasGuard, !runBlock(.guard, index) { return nil }
        let number = Int32(truncatingIfNeeded: index)
        switch handler.effect {
        case .internalAction:
            return Pick(handler: number, change: Pick.internalTransition)
        case .transition(let change), .fork(let change):
            return Pick(handler: number, change: change)
        case .join(let join, let slot, let change):
            if joinsSimultaneously {
                return allSourcesActive(Int(join)) ? Pick(handler: number, change: change) : nil
            }
            return Pick(handler: number, change: arrive(at: Int(join), slot: Int(slot)) ? change : Pick.joinArrival)
        case .junction(let junction, let firstPath):
            let path = Int32(truncatingIfNeeded: try junctionPath(Int(junction)))
            return Pick(handler: number, change: firstPath + path, junction: junction, path: path)
        case .history(let history, let remembered, let fallback):
            let hasRecord = hasRecord(history, afterExitsOf: remembered)
            return Pick(handler: number, change: hasRecord ? remembered : fallback, history: hasRecord ? history : -1)
        }
    }

    /// Takes one chosen transition: exits, content, entries (see ``take(_:to:_:)``, written
    /// once for every visit, and ``takePicks()``, the same order for several). This
    /// only picks the visit, in a few tests inlined into the dispatch: a plain move between
    /// siblings (see `Topology.directTarget(of:)`) is taken here; every other transition
    /// out of line, with the debug log's lines, or plainly for a switch with nothing to run
    /// but observers, blocks of exited states and content (`TopologyTables.isPlainSwitch`),
    /// or quietly.
    @inline(__always)
    func take(_ pick: Pick) {
        let target = tables.directTargets[Int(pick.handler)]
        guard target >= 0, log == nil else {
            if log != nil {
                takeOutOfLine(pick, LoggedVisit.self)
            } else if pick.moves, pick.history < 0, tables.isPlainSwitch[Int(pick.change)] {
                takeOutOfLine(pick, PlainVisit.self)
            } else {
                takeOutOfLine(pick, QuietVisit.self)
            }
            return
        }
        take(pick, to: target, BareVisit.self)
    }

    /// ``take(_:to:_:)`` in a function of its own per visit, so that the dispatch carries
    /// only the plain move's copy.
    @inline(never)
    private func takeOutOfLine<V: StepVisit>(_ pick: Pick, _ visit: V.Type) {
        take(pick, to: -1, V.self)
    }

    /// Takes `pick` as `visit` says: the debug log names the transition, the switch's scope
    /// is exited (``exitScope(of:_:)``), the content runs, the targets are entered
    /// (``enterTargets(of:_:)``). A ``BareVisit`` is a plain move to `target` in the
    /// source's region, the one state of its scope.
    @inline(__always)
    private func take<V: StepVisit>(_ pick: Pick, to target: Int32, _ visit: V.Type) {
        if V.writesLog { logTaking(pick) }
        if V.observersOnly {
            let source = tables.handlers[Int(pick.handler)].source
            let region = Int(tables.hot[Int(source)].parent)
            exit(source, V.self)
            slots.current[region] = -1
            runContent(of: pick, V.self)
            slots.current[region] = target
            notify(.entered, state: target)
            return
        }
        guard V.isPlain || pick.moves else {
            runContent(of: pick, V.self)
            return
        }
        exitScope(of: pick.change, V.self)
        runContent(of: pick, V.self)
        enterTargets(of: pick, V.self)
    }

    /// Takes the transitions the selection picked (``picks``) together, as one W3C
    /// microstep: every exit (regions in `regionExitOrder`), then every transition's content
    /// (in pick order), then every entry (document order). With one pick, the usual
    /// microstep, this is ``take(_:)`` of the pick read out of the array: passing the array
    /// would retain and release its buffer, two atomic operations an event. As there, the
    /// debug log names the transitions before their exits. Inlined into the selection, its
    /// one caller.
    @inline(__always)
    func takePicks() {
        guard picks.count > 1 else {
            if let pick = picks.first { take(pick) }
            return
        }
        if log != nil {
            take(together: picks, LoggedVisit.self)
        } else {
            take(together: picks, QuietVisit.self)
        }
    }

    /// ``takePicks()`` as `visit` says.
    private func take<V: StepVisit>(together picks: [Pick], _ visit: V.Type) {
        if V.writesLog { for pick in picks { logTaking(pick) } }
        pickScopes.removeAll(keepingCapacity: true)
        for pick in picks where pick.moves {
            let entry = tables.switches[Int(pick.change)]
            for slot in Int(entry.scopeStart)..<Int(entry.scopeStart + entry.scopeCount) {
                pickScopes.append((tables.scopeRegions[slot], pick.change))
            }
        }
        // Regions are numbered in document order (pre-order), and the scopes of kept picks
        // are disjoint subtrees: sorted, they are in document order.
        pickScopes.sort { $0.region < $1.region }
        forEachInExitOrder(pickScopes.indices) { slot in leave(region: pickScopes[slot].region, V.self) }
        for pick in picks { runContent(of: pick, V.self) }
        for pick in picks where pick.moves { followHistories(of: pick) }
        for scope in pickScopes { enterRegion(scope.region, plan: scope.change) }
        for pick in picks where pick.moves { forgetHistories(of: pick) }
    }

    /// What a transition runs between its exits and its entries: the handler's action (a
    /// join's own transition has none, as in TBStateMachine), the chosen junction path's
    /// action, and for an internal transition its observers.
    /// A ``BareVisit``'s transition is a plain `.transition` (see `Topology.directTarget(of:)`):
    /// its action alone.
    @inline(__always)
    private func runContent<V: StepVisit>(of pick: Pick, _ visit: V.Type) {
        let index = Int(pick.handler)
        if settles { lastFired = index }
        let handler = tables.handlers[index]
        if V.observersOnly {
            if handler.hasAction { _ = runBlock(.action, index) }
            return
        }
        switch pick.change {
        case Pick.internalTransition:
            if handler.hasAction { _ = runBlock(.action, index) }
            if stepEvent < topology.userEventCount { notify(.internalTransition, state: handler.source) }
        case Pick.joinArrival:
            break
        default:
            if handler.hasAction, !handler.isJoin {
                _ = runBlock(.action, index)
            }
            if pick.junction >= 0 {
                hooks.runJunctionAction(
                    Int(pick.junction),
                    path: Int(pick.path),
                    payload: blockPayload,
                    event: stepEvent
                )
            }
        }
    }

    /// Writes the debug log's line for a transition about to be taken, named with the
    /// region it switches in (a join arrival's: the join's).
    @inline(never)
    private func logTaking(_ pick: Pick) {
        let index = Int(pick.handler)
        let handler = tables.handlers[index]
        switch pick.change {
        case Pick.internalTransition:
            logTransition(index, scope: topology.regions[Int(tables.hot[Int(handler.source)].parent)].name)
        case Pick.joinArrival:
            if case .join(_, _, let change) = handler.effect {
                logTransition(index, scope: topology.switchScopeNames[Int(change)])
            }
        default:
            logTransition(index, scope: topology.switchScopeNames[Int(pick.change)])
        }
    }

    /// The first outgoing path of `junction` whose guard passes.
    private func junctionPath(_ junction: Int) throws(StatechartError) -> Int {
        guard let chosen = hooks.junctionPath(junction, payload: blockPayload, event: stepEvent) else {
            throw StatechartError.noOutgoingJunctionPath(
                junction: topology.junctionNames[junction],
                event: topology.eventNames[Int(stepEvent)]
            )
        }
        return chosen
    }

    /// Whether `history` will have a record when its state is entered by `change` (its
    /// switch to the history's owner): it has one now, or the switch exits the owner, whose
    /// exit makes one. W3C reads a history's value after the transition's exits, so a
    /// transition from the owner to its own history returns to what was active in it.
    private func hasRecord(_ history: Int32, afterExitsOf change: Int32) -> Bool {
        guard !slots.historyRecorded[Int(history)] else { return true }
        let owner = topology.histories[Int(history)].owner
        guard isActiveInStep(owner) else { return false }
        let entry = tables.switches[Int(change)]
        for slot in Int(entry.scopeStart)..<Int(entry.scopeStart + entry.scopeCount) {
            let region = tables.scopeRegions[slot]
            var state = owner
            while true {
                let parent = tables.hot[Int(state)].parent
                if parent == region { return true }
                let above = tables.regionParents[Int(parent)]
                guard above >= 0 else { break }
                state = above
            }
        }
        return false
    }

    /// Whether every source of `join` is active (`JoinSemantics.simultaneous`).
    private func allSourcesActive(_ join: Int) -> Bool {
        topology.joins[join].sources.allSatisfy { slots.current[Int(tables.hot[Int($0)].parent)] == $0 }
    }

    /// Records a join source; true when every source has arrived (the progress resets).
    private func arrive(at join: Int, slot: Int) -> Bool {
        let sources = slots.sources(ofJoin: join)
        if slots.joinArrived[sources.lowerBound + slot] { return false }
        slots.joinArrived[sources.lowerBound + slot] = true
        slots.joinArrivals[join] &+= 1
        dirtyExtras.insert(.joins)
        guard slots.joinArrivals[join] == sources.count else { return false }
        resetJoin(join)
        return true
    }

    /// Forgets the sources that have arrived at `join`.
    func resetJoin(_ join: Int) {
        guard slots.joinArrivals[join] > 0 else { return }
        for slot in slots.sources(ofJoin: join) { slots.joinArrived[slot] = false }
        slots.joinArrivals[join] = 0
        dirtyExtras.insert(.joins)
    }

    /// The slots in `handlerList` of the handlers `state` has for `event`.
    @inline(__always)
    func handlerRange(state: Int32, event: Int32) -> Range<Int> {
        tables.handlerRange(state: state, event: event)
    }
}

extension HandlerNode {
    /// Whether the handler is a join source.
    var isJoin: Bool {
        if case .join = effect { return true }
        return false
    }
}
