// The one traversal of exits and entries. A step exits a scope's regions in
// `regionExitOrder`, each active state after everything below it, runs the content, then
// enters; what it does at each state depends on what the step knows about the states and
// whether a debug log is written, and that is a visit (`StepVisit`): the order is written
// once, here, and each visit is a type whose constants the compiler folds into a copy of
// its own (`exitDeeply(_:_:)` specialised for `QuietVisit` has no log lines and no test
// for them). A rule about what exiting or entering does goes in the per-state functions
// below (`exitItself`, `enterTargets`, `enterOnly`), once for every visit.

/// What a step does at each state it exits or enters: the constants of one visit of the
/// traversal (see `StatechartEngine+Traversal.swift`). Conformers are caseless enums,
/// used only as types, so that each visit is a specialised copy of the traversal.
protocol StepVisit {
    /// The states exited and entered have nothing to run but observers (no blocks, joins,
    /// histories, timers, tasks or finals): a plain move between siblings (see
    /// `Topology.directTarget(of:)`), whose scope is its source's region.
    static var observersOnly: Bool { get }
    /// Nothing at or below an exited state records a history or stops a timer or a task
    /// (`StateHot.exitsPlainly`), and the entries depend on the switch alone and run only
    /// observers (`TopologyTables.isPlainSwitch`).
    static var isPlain: Bool { get }
    /// The debug log's lines are written (a debug sink is set).
    static var writesLog: Bool { get }
    /// Only the exit blocks run: no histories, timers, tasks, joins or observers (SCXML's
    /// `exitInterpreter` at a top-level final, which puts the configuration back once they
    /// have run; see ``StatechartOptions/TopLevelFinal/runsExitBlocks``).
    static var runsOnlyExitBlocks: Bool { get }
    /// Exit blocks run (all but a stop after the final configuration's exit blocks ran).
    static var runsExitBlocks: Bool { get }
}

extension StepVisit {
    static var observersOnly: Bool { false }
    static var isPlain: Bool { false }
    static var writesLog: Bool { false }
    static var runsOnlyExitBlocks: Bool { false }
    static var runsExitBlocks: Bool { true }
}

/// A plain move between siblings, without a debug log: the source's observers, the
/// action, the target's observers.
enum BareVisit: StepVisit {
    static var observersOnly: Bool { true }
    static var isPlain: Bool { true }
}

/// A switch that `TopologyTables.isPlainSwitch`, without a debug log: exits run observers,
/// joins to reset and exit blocks; entries run observers.
enum PlainVisit: StepVisit {
    static var isPlain: Bool { true }
}

/// Any other step without a debug log: each exited state's histories are recorded and
/// its timers and task stopped unless it `StateHot.exitsPlainly` (then the rest of its
/// subtree goes as ``PlainVisit``); entries follow the switch's precomputed list when it
/// `TopologyTables.hasStaticEntry`.
enum QuietVisit: StepVisit {}

/// A step with a debug log: as ``QuietVisit``, writing a line per region torn down and
/// per state exited or entered, and entering state by state.
enum LoggedVisit: StepVisit {
    static var writesLog: Bool { true }
}

/// SCXML's `exitInterpreter`: the final configuration's exit blocks, innermost first,
/// each state leaving the configuration once its block has run (so `In()` stops seeing
/// it, as in W3C), histories, timers, tasks, joins and observers left as they are.
enum FinalConfigurationVisit: StepVisit {
    static var runsOnlyExitBlocks: Bool { true }
}

/// `stop` after ``FinalConfigurationVisit`` ran: the states leave the configuration (their
/// observers are told, their timers and tasks stop) without running their exit blocks a
/// second time.
enum ClosingVisit: StepVisit {
    static var runsExitBlocks: Bool { false }
}

extension StatechartEngine {
    // MARK: The order of exits

    /// Calls `visit` with each of `slots` (slots of regions that share a parent state, or
    /// a switch's scope, numbered in document order) in `regionExitOrder`: the one place
    /// that order is decided.
    @inline(__always)
    func forEachInExitOrder(_ slots: Range<Int>, _ visit: (Int) -> Void) {
        if reverseRegionExit {
            for slot in slots.reversed() { visit(slot) }
        } else {
            for slot in slots { visit(slot) }
        }
    }

    /// Exits the active states of switch `change`'s scope, deeply, regions in
    /// `regionExitOrder`.
    @inline(__always)
    func exitScope<V: StepVisit>(of change: Int32, _ visit: V.Type) {
        let entry = tables.switches[Int(change)]
        forEachInExitOrder(Int(entry.scopeStart)..<Int(entry.scopeStart &+ entry.scopeCount)) { slot in
            leave(region: tables.scopeRegions[slot], V.self)
        }
    }

    /// Exits `region`'s active state, deeply, and leaves the region inactive: an exited state leaves the configuration before the
    /// transition's content runs (W3C: exit, then content, then entry), so `In()` no longer
    /// sees it.
    @inline(__always)
    func leave<V: StepVisit>(region: Int32, _ visit: V.Type) {
        let active = slots.current[Int(region)]
        if active >= 0 { exit(active, V.self) }
        slots.current[Int(region)] = -1
    }

    /// Exits `index` and everything below it. Without a debug log, a state that
    /// `StateHot.exitsPlainly` goes the plain way, and a plain leaf with nothing to run but
    /// observers costs a few loads, here.
    @inline(__always)
    func exit<V: StepVisit>(_ index: Int32, _ visit: V.Type) {
        if V.observersOnly {
            notify(.exited, state: index)
            return
        }
        if !V.writesLog, !V.runsOnlyExitBlocks, V.runsExitBlocks {
            let state = tables.hot[Int(index)]
            if V.isPlain || state.exitsPlainly {
                if state.regionCount == 0, state.joinCount == 0, !state.hasExit {
                    notify(.exited, state: index)
                } else {
                    exitDeeply(index, PlainVisit.self)
                }
                return
            }
        }
        exitDeeply(index, V.self)
    }

    /// ``exit(_:_:)`` once the shortcuts are past: the state's histories are recorded and
    /// its timers and task stopped (unless the visit knows it has none), its regions are
    /// left (children first, in `regionExitOrder`), then what exiting the state itself runs.
    @inline(never)
    func exitDeeply<V: StepVisit>(_ index: Int32, _ visit: V.Type) {
        let state = tables.hot[Int(index)]
        if !V.isPlain, !V.runsOnlyExitBlocks, state.hasExtras { deactivate(index) }
        if state.regionCount > 0 {
            forEachInExitOrder(Int(state.regionStart)..<Int(state.regionStart &+ state.regionCount)) { slot in
                let region = tables.childRegions[slot]
                if V.writesLog { logTeardown(region) }
                leave(region: region, V.self)
            }
        }
        exitItself(index, state, V.self)
    }

    /// What exiting `index` itself runs once its regions are gone: its partial joins reset,
    /// its observers are told and its exit block runs. The final configuration's visit
    /// runs the exit block alone.
    @inline(__always)
    func exitItself<V: StepVisit>(_ index: Int32, _ state: StateHot, _ visit: V.Type) {
        if V.runsOnlyExitBlocks {
            if let log { logExit(index, log) }
            if tracesStates { traceState(entered: false, index) }
            if state.hasExit { _ = runBlock(.exit, Int(index)) }
            return
        }
        for slot in Int(state.joinStart)..<Int(state.joinStart &+ state.joinCount) {
            // Semantics and decisions, "Partial joins reset on exit": leaving the join's region drops it.
            resetJoin(Int(topology.resetJoins[slot]))
        }
        if V.writesLog, let log { logExit(index, log) }
        notify(.exited, state: index, traced: V.runsExitBlocks)
        if V.runsExitBlocks, state.hasExit { _ = runBlock(.exit, Int(index)) }
    }

    // MARK: Entries

    /// Enters the targets of the moving pick `pick`, whose content has run: from the
    /// switch's precomputed entries when they depend on nothing but the switch
    /// (`TopologyTables.hasStaticEntry`: what ``enterRegion(_:plan:)`` would do, run ahead
    /// by the compiler), else region by region, following histories.
    @inline(__always)
    func enterTargets<V: StepVisit>(of pick: Pick, _ visit: V.Type) {
        let change = Int(pick.change)
        let entry = tables.switches[change]
        if V.isPlain
            || (!V.writesLog && pick.history < 0 && entry.historyCount == 0 && tables.hasStaticEntry[change])
        {
            // A plain entry (`hasPlainEntry`) has nothing to run but observers.
            let observersOnly = V.isPlain || tables.hasPlainEntry[change]
            for slot in Int(tables.entryStart[change])..<Int(tables.entryStart[change &+ 1]) {
                let state = tables.entryStates[slot]
                slots.current[Int(tables.entryRegions[slot])] = state
                if observersOnly {
                    notify(.entered, state: state)
                } else {
                    enterOnly(state)
                }
            }
            return
        }
        followHistories(of: pick)
        for slot in Int(entry.scopeStart)..<Int(entry.scopeStart &+ entry.scopeCount) {
            enterRegion(tables.scopeRegions[slot], plan: pick.change)
        }
        forgetHistories(of: pick)
    }

    /// Before a moving pick's entries: they follow its history's record, or the defaults of
    /// the histories its switch targets.
    @inline(__always)
    func followHistories(of pick: Pick) {
        if pick.history >= 0 { restoreRecord(of: Int(pick.history)) }
        if topology.hasHistories { applyHistories(of: pick.change) }
    }

    /// After a moving pick's entries: undoes ``followHistories(of:)``.
    @inline(__always)
    func forgetHistories(of pick: Pick) {
        if pick.history >= 0 { clearRestoreTargets(of: Int(pick.history)) }
        if topology.hasHistories { clearHistories(of: pick.change) }
    }

    // MARK: Stopping and finishing

    /// Exits every active state (`stop`): children first, regions in `regionExitOrder`.
    /// A chart whose final configuration's exit blocks ran (see ``exitFinalConfiguration()``)
    /// leaves its states without running them again.
    func exitConfiguration() {
        if let log { logTeardown(0, log) }
        if exitsFinalConfiguration, finished {
            leave(region: 0, ClosingVisit.self)
        } else if log != nil {
            leave(region: 0, LoggedVisit.self)
        } else {
            leave(region: 0, QuietVisit.self)
        }
    }

    /// SCXML's `exitInterpreter`, once a final state of the root region was entered (see
    /// ``StatechartOptions/TopLevelFinal/runsExitBlocks``): the exit blocks of the final
    /// configuration run, innermost first, regions in `regionExitOrder`, within the step
    /// that reached it, each state leaving the configuration once its block has run; then
    /// the configuration is put back, so that the chart shows the final it reached. What
    /// the blocks raise, like the internal events still queued, is dropped (the session
    /// is over).
    @inline(never)
    func exitFinalConfiguration() {
        finishing = false
        internalQueue.removeAll()
        let configuration = (0..<slots.regionCount).map { slots.current[$0] }
        leave(region: 0, FinalConfigurationVisit.self)
        for (region, state) in configuration.enumerated() { slots.current[region] = state }
        internalQueue.removeAll()
    }

    // MARK: The debug log's lines

    /// Writes the debug log's line for `region` about to be torn down.
    @inline(never)
    func logTeardown(_ region: Int32) {
        if let log { logTeardown(region, log) }
    }

    /// Writes the debug log's line for `region` about to be torn down, to `log`.
    func logTeardown(_ region: Int32, _ log: DebugLog) {
        log.write("[\(topology.regions[Int(region)].name)] teardown data: \(describe(stepPayload))")
    }

    /// Writes the debug log's line for state `index` exiting.
    @inline(never)
    func logExit(_ index: Int32, _ log: DebugLog) {
        log.write("\tExit '\(topology.states[Int(index)].name)' data: \(describe(stepPayload))")
    }
}
