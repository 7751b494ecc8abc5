// Entering states and what exits need besides the traversal: regions and their initial
// states, histories, what a state starts and stops besides its blocks (timers, tasks),
// final states and done events. The order of exits, and what each visit does at an exited
// state, is `StatechartEngine+Traversal.swift`.

extension StatechartEngine {
    /// Makes the next entries follow what `history` recorded.
    func restoreRecord(of history: Int) {
        for slot in topology.historyRegionSlots(history) {
            slots.restoreTargets[Int(topology.historyRegions[slot])] = slots.historyStates[slot]
        }
    }

    /// Undoes ``restoreRecord(of:)``.
    func clearRestoreTargets(of history: Int) {
        for slot in topology.historyRegionSlots(history) {
            slots.restoreTargets[Int(topology.historyRegions[slot])] = -1
        }
    }

    /// For a switch that targets history pseudo states: makes the entries follow each
    /// history's record or, when it has none, its default transition (whose content runs
    /// once the owner is entered).
    func applyHistories(of change: Int32) {
        let entry = tables.switches[Int(change)]
        guard entry.historyCount > 0 else { return }
        for slot in Int(entry.historyStart)..<Int(entry.historyStart + entry.historyCount) {
            let history = Int(topology.switchHistories[slot])
            if slots.historyRecorded[history] {
                restoreRecord(of: history)
                continue
            }
            let node = topology.histories[history]
            for (region, state) in zip(node.defaultRegions, node.defaultStates) {
                slots.restoreTargets[Int(region)] = state
            }
            if node.hasDefaultAction { pendingHistoryDefaults.append(Int32(history)) }
        }
    }

    /// Undoes ``applyHistories(of:)`` once the switch's entries are done.
    func clearHistories(of change: Int32) {
        let entry = tables.switches[Int(change)]
        guard entry.historyCount > 0 else { return }
        for slot in Int(entry.historyStart)..<Int(entry.historyStart + entry.historyCount) {
            let history = Int(topology.switchHistories[slot])
            clearRestoreTargets(of: history)
            for region in topology.histories[history].defaultRegions { slots.restoreTargets[Int(region)] = -1 }
        }
        pendingHistoryDefaults.removeAll(keepingCapacity: true)
    }

    /// Runs the content of the default transitions of histories owned by `owner`, which
    /// has just been entered.
    func runHistoryDefaults(owner: Int32) {
        var index = 0
        while index < pendingHistoryDefaults.count {
            let history = pendingHistoryDefaults[index]
            guard topology.histories[Int(history)].owner == owner else {
                index += 1
                continue
            }
            pendingHistoryDefaults.remove(at: index)
            hooks.runHistoryDefaultAction(of: history, payload: blockPayload, event: stepEvent)
        }
    }

    /// Enters `region`: the state switch `plan` names for it, else its initial state.
    /// `plan` is -1 for a plain default entry.
    func enterRegion(_ region: Int32, plan: Int32) {
        let explicit = plan >= 0 ? explicitChild(of: region, in: plan) : nil
        var target = explicit ?? tables.regionInitial[Int(region)]
        if explicit == nil {
            if topology.hasHistories, slots.restoreTargets[Int(region)] >= 0 {
                target = slots.restoreTargets[Int(region)]
            } else if topology.hasRegionDefaults, topology.regionDefaults[Int(region)] >= 0 {
                enterThroughInitialTransition(region)
                return
            }
        }
        slots.current[Int(region)] = target
        enterState(target, plan: plan)
    }

    /// SCXML's default entry: the initial transition's content runs after the owner's
    /// entry, then its targets (states anywhere below, or histories) are entered.
    func enterThroughInitialTransition(_ region: Int32) {
        let change = topology.regionDefaults[Int(region)]
        if topology.hasInitialActions { hooks.runInitialAction(of: region, payload: blockPayload, event: stepEvent) }
        applyHistories(of: change)
        let owner = tables.regionParents[Int(region)]
        if topology.hasHistoryDefaultActions, owner >= 0 { runHistoryDefaults(owner: owner) }
        var target = explicitChild(of: region, in: change) ?? tables.regionInitial[Int(region)]
        if topology.hasHistories, slots.restoreTargets[Int(region)] >= 0,
            explicitChild(of: region, in: change) == nil
        {
            target = slots.restoreTargets[Int(region)]
        }
        slots.current[Int(region)] = target
        enterState(target, plan: change)
        clearHistories(of: change)
    }

    /// A final state was entered in `region`: the root region finishes the chart; a state
    /// whose regions are all in final states raises its done event (if anything handles it).
    func regionCompleted(_ region: Int32) {
        let owner = tables.regionParents[Int(region)]
        guard owner >= 0 else {
            finished = true
            // The final configuration's exit blocks run once the microstep is over (see
            // `exitFinalConfiguration`), as W3C's `exitInterpreter` follows the macrostep.
            if exitsFinalConfiguration { finishing = true }
            dirtyExtras.insert(.finished)
            sends?.cancelAll()
            return
        }
        guard topology.doneEvents[Int(owner)] >= 0 || topology.raisesEveryDoneEvent else { return }
        let state = tables.hot[Int(owner)]
        for slot in Int(state.regionStart)..<Int(state.regionStart + state.regionCount) {
            let active = slots.current[Int(tables.childRegions[slot])]
            guard active >= 0, tables.hot[Int(active)].isFinal else { return }
        }
        raiseDone(owner)
        // SCXML: a parallel state whose children are all in final states completes too.
        guard topology.completesThroughChildren else { return }
        let parallel = tables.regionParents[Int(state.parent)]
        if parallel >= 0, tables.hot[Int(parallel)].kind == .parallel, isInFinalState(parallel) {
            raiseDone(parallel)
        }
    }

    /// Queues the done event of `state` (internally), named as SCXML names it when the
    /// chart raises every done event.
    func raiseDone(_ state: Int32) {
        let done = topology.doneEvents[Int(state)]
        let name = topology.raisesEveryDoneEvent ? "done.state.\(topology.states[Int(state)].name)" : nil
        internalQueue.append(InternalEvent(index: done, name: name, payload: nil))
    }

    /// SCXML's `isInFinalState`: a composite state whose active child is final, or a
    /// parallel state whose regions' states all are in final states.
    func isInFinalState(_ index: Int32) -> Bool {
        let state = tables.hot[Int(index)]
        switch state.kind {
        case .simple:
            return false
        case .composite:
            let active = slots.current[Int(tables.childRegions[Int(state.regionStart)])]
            return active >= 0 && tables.hot[Int(active)].isFinal
        case .parallel:
            for slot in Int(state.regionStart)..<Int(state.regionStart + state.regionCount) {
                let active = slots.current[Int(tables.childRegions[slot])]
                guard active >= 0, tables.hot[Int(active)].isFinal || isInFinalState(active) else { return false }
            }
            return true
        }
    }

    /// Starts what an active state runs besides its blocks: its delayed transitions' timers
    /// (when restoring, only those in `remaining`, each for its remaining time) and its task.
    func activate(_ index: Int32, remaining: [Int32: Duration]? = nil) {
        slots.generations[Int(index)] &+= 1
        let generation = slots.generations[Int(index)]
        let state = tables.hot[Int(index)]
        for slot in Int(state.timerStart)..<Int(state.timerStart + state.timerCount) {
            let timer = topology.stateTimers[slot]
            // Restoring: only the timers that were pending when the snapshot was taken.
            guard let delay = remaining == nil ? topology.timers[Int(timer)].delay : remaining?[timer] else { continue }
            // The hooks hold the engine weakly, so a pending timer keeps no dropped chart alive
            // and arming forms no weak reference of its own. A manual clock holds them once,
            // registered, and its timers name them by number.
            if let (sequence, deadline) = manualClock?.scheduleChartTimer(
                after: delay,
                target: manualTimerTarget,
                timer: timer,
                generation: generation
            ) {
                pendingTimers[Int(timer)] = .manual(sequence)
                slots.timerDeadlines[Int(timer)] = deadline
            } else {
                let hooks = self.hooks
                let selfFed = delay <= .zero
                let handle = clock.schedule(after: delay) {
                    hooks.timerFired(timer, generation: generation, selfFed: selfFed)
                }
                pendingTimers[Int(timer)] = .handle(handle)
                slots.timerDeadlines[Int(timer)] = clock.now + delay
            }
            dirtyExtras.insert(.timers)
        }
        if state.hasTask {
            tasks[Int(index)] = hooks.startTask(of: index, payload: blockPayload, generation: generation)
        }
    }

    /// Cancels the pending timer of delayed transition `timer`, if any.
    @inline(__always)
    func cancelTimer(_ timer: Int) {
        // Taken out, not copied: a copy would count a reference to the timer's closure.
        switch pendingTimers[timer].take() {
        case .manual(let sequence)?: manualClock?.cancel(sequence)
        case .handle(let handle)?: handle.cancel()
        case nil: break
        }
    }

    /// Queues the timeout of `timer`, armed in its state's `generation` (and runs it, if
    /// the chart is idle): what a delayed transition's timer does when it fires.
    func timerFired(_ timer: Int32, generation: UInt64, selfFed: Bool) {
        _ = submit { _ in
            QueueItem(request: .timeout(timer), payload: nil, completion: nil, generation: generation, selfFed: selfFed)
        }
    }

    /// Records the state's histories and stops its timers and task; called before its
    /// children exit, while the configuration below it is still active.
    func deactivate(_ index: Int32) {
        let state = tables.hot[Int(index)]
        for slot in Int(state.historyStart)..<Int(state.historyStart + state.historyCount) {
            let history = Int(topology.stateHistories[slot])
            for slot in topology.historyRegionSlots(history) {
                slots.historyStates[slot] = slots.current[Int(topology.historyRegions[slot])]
            }
            slots.historyRecorded[history] = true
            dirtyExtras.insert(.histories)
        }
        for slot in Int(state.timerStart)..<Int(state.timerStart + state.timerCount) {
            let timer = Int(topology.stateTimers[slot])
            cancelTimer(timer)
            slots.timerDeadlines[timer] = nil
            dirtyExtras.insert(.timers)
        }
        if state.hasTask {
            tasks[Int(index)]?.cancel()
            tasks[Int(index)] = nil
        }
    }

    /// The state switch `change` enters in `region` instead of its initial state, if any.
    @inline(__always)
    func explicitChild(of region: Int32, in change: Int32) -> Int32? {
        let entry = tables.switches[Int(change)]
        for slot in Int(entry.planStart)..<Int(entry.planStart + entry.planCount)
        where tables.planRegions[slot] == region {
            return tables.planStates[slot]
        }
        return nil
    }

    /// Whether an active state defers `event`.
    func isDeferred(_ event: Int32) -> Bool {
        isDeferred(event, below: 0)
    }

    /// Whether an active state at or below `region` defers `event`.
    func isDeferred(_ event: Int32, below region: Int32) -> Bool {
        let active = slots.current[Int(region)]
        guard active >= 0 else { return false }
        if topology.states[Int(active)].deferred.contains(event) { return true }
        let state = tables.hot[Int(active)]
        for slot in Int(state.regionStart)..<Int(state.regionStart + state.regionCount)
        where isDeferred(event, below: tables.childRegions[slot]) {
            return true
        }
        return false
    }

    /// Enters `index` (its region already names it) and then its regions: each enters the
    /// state switch `plan` names for it, else its initial (or restored) state.
    func enterState(_ index: Int32, plan: Int32) {
        log?.write("\tEnter '\(topology.states[Int(index)].name)' data: \(describe(stepPayload))")
        enterOnly(index)
        let state = tables.hot[Int(index)]
        switch state.kind {
        case .simple:
            break
        case .composite:
            enterRegion(tables.childRegions[Int(state.regionStart)], plan: plan)
        case .parallel:
            for slot in Int(state.regionStart)..<Int(state.regionStart + state.regionCount) {
                let inner = tables.childRegions[slot]
                if plan >= 0, explicitChild(of: inner, in: plan) != nil {
                    enterRegion(inner, plan: plan)
                } else {
                    log?.write("[\(topology.regions[Int(inner)].name)] setup data: \(describe(stepPayload))")
                    enterRegion(inner, plan: -1)
                }
            }
        }
    }

    /// What entering `index` itself runs (its region already names it): the observers, its
    /// enter block, the history defaults waiting for it, its timers and task, and its
    /// region's completion when it is final. Its regions are entered by the caller.
    @inline(__always)
    func enterOnly(_ index: Int32) {
        let state = tables.hot[Int(index)]
        notify(.entered, state: index)
        if state.hasEnter { _ = runBlock(.enter, Int(index)) }
        if topology.hasHistoryDefaultActions, !pendingHistoryDefaults.isEmpty { runHistoryDefaults(owner: index) }
        if state.hasExtras {
            activate(index)
            if state.isFinal { regionCompleted(state.parent) }
        }
    }

    /// Whether `state` is active in the configuration as the running step has left it so
    /// far (SCXML's `In()`). Drainer only.
    package func isActiveInStep(_ state: Int32) -> Bool {
        var current = state
        while true {
            let region = tables.hot[Int(current)].parent
            guard slots.current[Int(region)] == current else { return false }
            let owner = tables.regionParents[Int(region)]
            guard owner >= 0 else { return true }
            current = owner
        }
    }

    // MARK: Observation and logging

    /// Tells the chart's subscribers (through ``runBlock``) that `state` was entered or
    /// exited or took an internal transition (`kind` is `.entered`, `.exited` or
    /// `.internalTransition`), and the step observer that ``tracesStates`` that it was
    /// entered or exited (unless `traced` is false: a state leaving without its exit block,
    /// which the trace does not show); nothing when nobody subscribes.
    @inline(__always)
    func notify(_ kind: EngineBlockKind, state: Int32, traced: Bool = true) {
        guard subscriptions.isActive else { return }
        post(kind, state: state, traced: traced)
    }

    /// ``notify(_:state:traced:)`` once someone subscribes (a step observer that traces
    /// states counts as one subscription): out of line, so that a step without subscribers
    /// carries only the test.
    @inline(never)
    private func post(_ kind: EngineBlockKind, state: Int32, traced: Bool) {
        guard tracesStates else {
            _ = runBlock(kind, Int(state))
            return
        }
        if traced, kind != .internalTransition { traceState(entered: kind == .entered, state) }
        if subscriptions.value.load(ordering: .acquiring) > 1 {
            _ = runBlock(kind, Int(state))
        }
    }

    /// Tells the step observer that ``tracesStates`` that `state` was entered or exited,
    /// before its enter or exit block runs.
    func traceState(entered: Bool, _ state: Int32) {
        hooks.stateTraced(entered: entered, name: topology.states[Int(state)].name)
    }

    /// Writes the debug log's line for a transition taken in `scope`.
    func logTransition(_ handler: Int, scope: @autoclosure () -> String) {
        guard let log else { return }
        log.write(
            "[\(scope())] performing transition: \(topology.handlerNames[handler]) data: \(describe(stepPayload))"
        )
    }

    /// How the debug log shows a payload.
    func describe(_ payload: (any Sendable)?) -> String {
        payload.map { String(describing: $0) } ?? "nil"
    }

    /// Writes the debug log's line for a state about to try its handlers for `event`.
    func logWillHandle(state: Int32, event: Int32, _ log: DebugLog) {
        log.write(
            "[\(topology.states[Int(state)].name)] will handle event '\(topology.eventNames[Int(event)])' data: \(describe(stepPayload))"
        )
    }
}

/// An event on the internal queue (a done event, or one raised with
/// `RaisedEventOrder.internalQueue`): only what its microstep reads, so that queueing one
/// copies no completion.
struct InternalEvent {
    /// The event's index in the event table, -1 when no handler names it.
    let index: Int32
    /// The name traces give it when the table does not hold it as is.
    let name: String?
    let payload: (any Sendable)?
}
