/// The running machine behind a `Statechart`: the active configuration, the event queue
/// and the step algorithm. Not generic, so that a step runs as plain specialised code
/// whatever the chart's identifier and payload types; user blocks are reached through
/// `EngineHooks` only when a state or handler has one.
///
/// `@unchecked Sendable` invariant: the mutable stored properties marked drainer-confined
/// (`current`, `joinProgress`, `joinArrivals`, `started`, `stepPayload`, `stepEvent`, `log`,
/// `stepScopes`)
/// are read and written only by the current drainer, the single thread or task that set
/// `pump.draining` to true under the `pump` lock. Ownership passes only through that lock,
/// which orders every access of one drainer before those of the next.
final class StatechartEngine: @unchecked Sendable {
    let topology: Topology
    let hooks: any EngineHooks
    let pump: PumpLock<Pump>
    let subscriptions: SubscriptionCount
    let options: StatechartOptions
    private let reverseRegionExit: Bool
    private let resolvesConflicts: Bool

    // Drainer-confined state (see the type's invariant).
    private var current: [Int32]
    private var joinProgress: [[Bool]]
    private var joinArrivals: [Int]
    private var started = false
    private var stepPayload: (any Sendable)?
    private var stepEvent: Int32 = -1
    private var log: DebugLog?
    /// Exit-scope regions of the transitions taken in the current step (drainer-confined;
    /// kept only for `ConflictResolution.documentOrder`).
    private var stepScopes: [Int32] = []

    init(topology: Topology, hooks: any EngineHooks, subscriptions: SubscriptionCount, options: StatechartOptions) {
        self.topology = topology
        self.options = options
        reverseRegionExit = options.regionExitOrder == .reverseDocumentOrder
        resolvesConflicts = options.conflictResolution == .documentOrder
        self.hooks = hooks
        self.subscriptions = subscriptions
        pump = PumpLock(Pump(regionCount: topology.regions.count))
        current = [Int32](repeating: -1, count: topology.regions.count)
        joinProgress = topology.joins.map { [Bool](repeating: false, count: $0.sourceCount) }
        joinArrivals = [Int](repeating: 0, count: topology.joins.count)
    }

    // MARK: Submitting

    /// Queues `item` without running anything on the caller's thread; when the queue
    /// was idle, a new task drains it.
    func enqueue(_ item: QueueItem) {
        let startDrainer = pump.withLock { pump -> Bool in
            pump.append(item)
            if pump.draining { return false }
            pump.draining = true
            return true
        }
        if startDrainer {
            Task { _ = self.drain(first: nil) }
        }
    }

    /// Queues the item built by `makeItem` and, when no step is running, runs the queue on
    /// the caller's thread until it is empty, returning the outcome of that item.
    /// `makeItem` learns whether the caller will drain, so it can choose the completion.
    func submit(_ makeItem: (_ drainsHere: Bool) -> QueueItem) -> Result<StatechartStepOutcome, StatechartError>? {
        // Fast path: an idle, empty queue lets the caller run its item directly, without
        // passing it through the queue.
        var direct: QueueItem?
        let drainHere = pump.withLock { pump -> Bool in
            let drains = !pump.draining
            if drains {
                pump.draining = true
                if pump.pendingCount == 0 {
                    direct = makeItem(true)
                    return true
                }
            }
            pump.append(makeItem(drains))
            return drains
        }
        return drainHere ? drain(first: direct) : nil
    }

    /// Drops the queued events, delivering `.discarded` to their waiters, and queues a stop.
    func submitStop(payload: (any Sendable)?) {
        let (dropped, drainHere) = pump.withLock { pump -> ([QueueItem], Bool) in
            let dropped = pump.removePendingEvents()
            let drains = !pump.draining
            pump.append(QueueItem(request: .stop, payload: payload, completion: drains ? .inline : nil))
            if drains { pump.draining = true }
            return (dropped, drains)
        }
        for item in dropped { item.completion?.deliver(.success(.discarded)) }
        if drainHere { _ = drain(first: nil) }
    }

    // MARK: Draining

    /// Runs queued items one run-to-completion step at a time until the queue is empty,
    /// then gives up the drainer role. Must be called only by the drainer.
    private func drain(first: QueueItem?) -> Result<StatechartStepOutcome, StatechartError>? {
        var inlineResult: Result<StatechartStepOutcome, StatechartError>?
        if let first {
            let sink = pump.withLock { $0.debugSink }
            let result = run(first, sink: sink)
            if first.completion?.isInline == true {
                inlineResult = result
            } else {
                first.completion?.deliver(result)
            }
        }
        while true {
            var sink: StatechartDebugSink?
            let next = pump.withLock { pump -> QueueItem? in
                publish(into: &pump)
                if let item = pump.popFirst() {
                    sink = pump.debugSink
                    return item
                }
                pump.draining = false
                return nil
            }
            guard let item = next else { break }
            let result = run(item, sink: sink)
            if item.completion?.isInline == true {
                inlineResult = result
            } else {
                item.completion?.deliver(result)
            }
        }
        return inlineResult
    }

    private func publish(into pump: inout Pump) {
        pump.started = started
        for index in current.indices { pump.snapshot[index] = current[index] }
    }

    private func run(_ item: QueueItem, sink: StatechartDebugSink?) -> Result<StatechartStepOutcome, StatechartError> {
        guard let sink else { return perform(item) }
        let log = DebugLog(sink: sink)
        self.log = log
        defer { self.log = nil }
        let clock = ContinuousClock()
        let start = clock.now
        let result = perform(item)
        let elapsed = clock.now - start
        if item.isEvent {
            let pending = pump.withLock { $0.pendingEventNames(topology) }
            log.stepFinished(root: topology.name, duration: elapsed, pending: pending)
        }
        if case .failure(let error) = result { log.write("[\(topology.name)]: error: \(error)") }
        log.flush()
        return result
    }

    private func perform(_ item: QueueItem) -> Result<StatechartStepOutcome, StatechartError> {
        stepPayload = item.payload
        switch item.request {
        case .start:
            stepEvent = -1
            guard !started else { return .success(.unhandled) }
            log?.write("[\(topology.name)] setup data: \(describe(stepPayload))")
            enterRegion(0, plan: -1)
            started = true
            return .success(.handled)
        case .stop:
            stepEvent = -1
            guard started else { return .success(.unhandled) }
            tearDownRegion(0)
            started = false
            return .success(.handled)
        case .event(let index, let unknownName):
            stepEvent = index
            if let log {
                let name = index >= 0 ? topology.eventNames[Int(index)] : unknownName ?? "?"
                log.write("[\(topology.name)]: attempt to handle event '\(name)' data: \(describe(stepPayload))")
            }
            guard started else { return .success(.discarded) }
            guard index >= 0 else { return .success(.unhandled) }
            stepScopes.removeAll(keepingCapacity: true)
            do {
                return .success(try dispatch(region: 0, event: index) ? .handled : .unhandled)
            } catch let error as StatechartError {
                return .failure(error)
            } catch {
                preconditionFailure("steps throw only StatechartError")
            }
        }
    }

    // MARK: The step

    /// TBStateMachine's `handleEvent:`: the active child gets the event first (every region
    /// of a parallel state, in order); only if none handled it does this region's active
    /// state try its own handlers, in registration order.
    private func dispatch(region: Int32, event: Int32) throws -> Bool {
        let active = current[Int(region)]
        guard active >= 0 else { return false }
        let state = topology.hot[Int(active)]
        switch state.kind {
        case .simple:
            break
        case .composite:
            if try dispatch(region: topology.childRegions[Int(state.regionStart)], event: event) { return true }
        case .parallel:
            var handled = false
            for slot in Int(state.regionStart)..<Int(state.regionStart + state.regionCount) {
                if try dispatch(region: topology.childRegions[slot], event: event) { handled = true }
            }
            if handled { return true }
        }
        let range = topology.handlerRange(state: active, event: event)
        guard !range.isEmpty else { return false }
        if let log {
            log.write(
                "[\(topology.states[Int(active)].name)] will handle event '\(topology.eventNames[Int(event)])' data: \(describe(stepPayload))"
            )
        }
        for slot in range {
            if try fire(Int(topology.handlerList[slot])) { return true }
        }
        return false
    }

    private func fire(_ index: Int) throws -> Bool {
        let handler = topology.handlers[index]
        if handler.hasGuard, !hooks.passes(guardOf: index, payload: stepPayload, event: stepEvent) { return false }
        switch handler.effect {
        case .internalAction:
            logTransition(index, scope: topology.regions[Int(topology.hot[Int(handler.source)].parent)].name)
            if handler.hasAction { hooks.runAction(of: index, payload: stepPayload, event: stepEvent) }
            notify(.internalTransition, state: handler.source)
        case .transition(let change), .fork(let change):
            if conflicts(change) { return true }
            logTransition(index, scope: topology.switchScopeNames[Int(change)])
            perform(change, handler: handler.hasAction ? index : nil)
        case .join(let join, let slot, let change):
            if conflicts(change) { return true }
            logTransition(index, scope: topology.switchScopeNames[Int(change)])
            if arrive(at: Int(join), slot: Int(slot)) {
                // As in TBStateMachine, a join's own transition has no action.
                perform(change, handler: nil)
            }
        case .junction(let junctionIndex, let firstPath):
            let junction = Int(junctionIndex)
            guard let chosen = hooks.junctionPath(junction, payload: stepPayload, event: stepEvent) else {
                throw StatechartError.noOutgoingJunctionPath(
                    junction: topology.junctionNames[junction],
                    event: topology.eventNames[Int(stepEvent)]
                )
            }
            let change = firstPath + Int32(chosen)
            if conflicts(change) { return true }
            logTransition(index, scope: topology.switchScopeNames[Int(change)])
            perform(change, handler: handler.hasAction ? index : nil, junctionPath: (junction, chosen))
        }
        return true
    }

    /// With `ConflictResolution.documentOrder`: whether `change` would exit states in a
    /// region that a transition already taken in this step exits (or contains it).
    private func conflicts(_ change: Int32) -> Bool {
        guard resolvesConflicts, !stepScopes.isEmpty else { return false }
        let entry = topology.switches[Int(change)]
        for slot in Int(entry.scopeStart)..<Int(entry.scopeStart + entry.scopeCount) {
            let region = topology.scopeRegions[slot]
            for taken in stepScopes
            where region == taken || isRegion(region, inside: taken) || isRegion(taken, inside: region) {
                return true
            }
        }
        return false
    }

    /// Whether `region` lies (at any depth) inside `outer`.
    private func isRegion(_ region: Int32, inside outer: Int32) -> Bool {
        var current = region
        while true {
            let owner = topology.regions[Int(current)].parent
            guard owner >= 0 else { return false }
            current = topology.hot[Int(owner)].parent
            if current == outer { return true }
        }
    }

    /// Records a join source; true when every source has arrived (the progress resets).
    private func arrive(at join: Int, slot: Int) -> Bool {
        if joinProgress[join][slot] { return false }
        joinProgress[join][slot] = true
        joinArrivals[join] += 1
        guard joinArrivals[join] == topology.joins[join].sourceCount else { return false }
        resetJoin(join)
        return true
    }

    private func resetJoin(_ join: Int) {
        guard joinArrivals[join] > 0 else { return }
        for slot in joinProgress[join].indices { joinProgress[join][slot] = false }
        joinArrivals[join] = 0
    }

    /// Exits the scope's active states deeply, runs the handler's action (then, for a
    /// junction, the chosen path's), and enters down to the target(s).
    private func perform(_ change: Int32, handler: Int?, junctionPath: (Int, Int)? = nil) {
        let entry = topology.switches[Int(change)]
        let scope = Int(entry.scopeStart)..<Int(entry.scopeStart + entry.scopeCount)
        for slot in scope {
            let active = current[Int(topology.scopeRegions[slot])]
            if active >= 0 { exitState(active) }
            if resolvesConflicts { stepScopes.append(topology.scopeRegions[slot]) }
        }
        if let handler { hooks.runAction(of: handler, payload: stepPayload, event: stepEvent) }
        if let (junction, path) = junctionPath {
            hooks.runJunctionAction(junction, path: path, payload: stepPayload, event: stepEvent)
        }
        for slot in scope {
            enterRegion(topology.scopeRegions[slot], plan: change)
        }
    }

    /// Enters `region`: the state switch `plan` names for it, else its initial state.
    /// `plan` is -1 for a plain default entry.
    private func enterRegion(_ region: Int32, plan: Int32) {
        let explicit = plan >= 0 ? topology.explicitChild(of: region, in: plan) : nil
        let target = explicit ?? topology.regionInitial[Int(region)]
        current[Int(region)] = target
        enterState(target, plan: plan)
    }

    private func enterState(_ index: Int32, plan: Int32) {
        let state = topology.hot[Int(index)]
        log?.write("\tEnter '\(topology.states[Int(index)].name)' data: \(describe(stepPayload))")
        notify(.entered, state: index)
        if state.hasEnter { hooks.enter(index, payload: stepPayload, event: stepEvent) }
        switch state.kind {
        case .simple:
            break
        case .composite:
            enterRegion(topology.childRegions[Int(state.regionStart)], plan: plan)
        case .parallel:
            for slot in Int(state.regionStart)..<Int(state.regionStart + state.regionCount) {
                let inner = topology.childRegions[slot]
                if plan >= 0, topology.explicitChild(of: inner, in: plan) != nil {
                    enterRegion(inner, plan: plan)
                } else {
                    log?.write("[\(topology.regions[Int(inner)].name)] setup data: \(describe(stepPayload))")
                    enterRegion(inner, plan: -1)
                }
            }
        }
    }

    private func exitState(_ index: Int32) {
        let state = topology.hot[Int(index)]
        let regions = Int(state.regionStart)..<Int(state.regionStart + state.regionCount)
        if reverseRegionExit {
            for slot in regions.reversed() { tearDownRegion(topology.childRegions[slot]) }
        } else {
            for slot in regions { tearDownRegion(topology.childRegions[slot]) }
        }
        for slot in Int(state.joinStart)..<Int(state.joinStart + state.joinCount) {
            // Our decision (hierarchy.md): leaving the join's region drops a partial join.
            resetJoin(Int(topology.resetJoins[slot]))
        }
        log?.write("\tExit '\(topology.states[Int(index)].name)' data: \(describe(stepPayload))")
        notify(.exited, state: index)
        if state.hasExit { hooks.exit(index, payload: stepPayload, event: stepEvent) }
    }

    private func tearDownRegion(_ region: Int32) {
        log?.write("[\(topology.regions[Int(region)].name)] teardown data: \(describe(stepPayload))")
        let active = current[Int(region)]
        if active >= 0 { exitState(active) }
        current[Int(region)] = -1
    }

    // MARK: Observation and logging

    private func notify(_ tag: NotificationTag, state: Int32) {
        guard subscriptions.isActive else { return }
        hooks.notify(tag, state: state, payload: stepPayload, event: stepEvent)
    }

    private func logTransition(_ handler: Int, scope: @autoclosure () -> String) {
        guard let log else { return }
        log.write(
            "[\(scope())] performing transition: \(topology.handlerNames[handler]) data: \(describe(stepPayload))"
        )
    }

    private func describe(_ payload: (any Sendable)?) -> String {
        payload.map { String(describing: $0) } ?? "nil"
    }
}
