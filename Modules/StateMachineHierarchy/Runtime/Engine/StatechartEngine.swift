import Foundation
import StateMachineSupport
import Synchronization

/// The running machine behind a `Statechart`: the active configuration, the event queue
/// and the step algorithm. Not generic, so that a step runs as plain specialised code
/// whatever the chart's identifier and payload types; user blocks are reached through
/// `EngineHooks` only when a state or handler has one.
///
/// The class is declared here, with its stored state; its work is in extensions, one file
/// per concern (the article "How an event flows" follows one event through them):
///
/// - `StatechartEngine+Submitting.swift`: how callers hand in events, start and stop, and
///   who runs the step (``EventQueue`` holds the queue and the drainer role).
/// - `StatechartEngine+Draining.swift`: the drainer's loop, one run-to-completion step
///   per queued request, and settling (eventless transitions, internal events).
/// - `StatechartEngine+Step.swift`: the step itself: TBStateMachine's dispatch, the one
///   place a handler's effect is resolved, and the one path that takes transitions.
/// - `StatechartEngine+Selection.swift`: SCXML's transition selection and conflicts.
/// - `StatechartEngine+Entry.swift`: entering and exiting states, histories, timers,
///   tasks, finals and done events.
/// - `StatechartEngine+Publication.swift`: publishing each step for other threads.
/// - `SCXMLSends.swift` (in `SCXML/`): the delayed sends and send ids of SCXML sessions.
///
/// `@unchecked Sendable` invariant: the mutable stored properties under "Drainer-confined
/// state" (and the drainer's ``EngineSlots``) are read and written only by the current
/// drainer, the single thread or task that took the drainer role in `queue` (see
/// ``EventQueue``). The role passes from one drainer to the next only through that atomic
/// word, with acquiring and releasing orderings, which orders every access of one drainer
/// before those of the next.
@usableFromInline
package final class StatechartEngine: @unchecked Sendable {
    let topology: Topology
    let hooks: any EngineHooks
    /// Runs the chart's blocks and tells its subscribers (see ``EngineBlockCall``), with
    /// ``blockHooks``.
    let blockCall: EngineBlockCall
    /// ``hooks``, as ``blockCall`` takes them: a class reference lent from a constant
    /// counts no references, where the existential would be copied for every call.
    let blockHooks: AnyObject
    /// The queued requests and the drainer role.
    let queue = EventQueue()
    /// `started` (bit 0) and `finished` (bit 1) as last published (inside the configuration's
    /// write, so a snapshot reads them with it), readable without the lock.
    let runState = Atomic<UInt8>(0)
    /// The configuration as of the last completed step, for readers on any thread.
    let configuration: PublishedConfiguration
    /// Where the snapshot's plain-number parts are among the configuration's words.
    let snapshotWords: SnapshotWords
    let subscriptions: SubscriptionCount
    let options: StatechartOptions
    let clock: any StatechartClock
    /// `clock`, when it is the manual clock and the chart has delayed transitions: the
    /// clock arms and cancels them without allocating or retaining anything (see
    /// `ManualStatechartClock.scheduleChartTimer`), naming `hooks` by the number
    /// `manualTimerTarget` it registered them under.
    let manualClock: ManualStatechartClock?
    let manualTimerTarget: Int
    /// The delayed sends and send ids of an SCXML session; nil for other charts.
    package let sends: SCXMLSends?

    // The rules the options choose, as constants the step tests.
    let reverseRegionExit: Bool
    let resolvesConflicts: Bool
    let raisesInternally: Bool
    let joinsSimultaneously: Bool
    /// `TopLevelFinal.runsExitBlocks`, and every SCXML session (W3C's `exitInterpreter`):
    /// a final state of the root region ends the macrostep and runs the final
    /// configuration's exit blocks.
    let exitsFinalConfiguration: Bool
    let maxMicrosteps: Int
    let maxSelfFedSteps: Int
    /// The hooks want every processed event's name and every step's end (the SCXML
    /// interpreter's trace); off for ordinary charts, so their steps pay nothing for it.
    let tracesSteps: Bool
    /// With `tracesSteps`: the hooks want the end of every step, not only of failed ones.
    let reportsEverySteps: Bool
    /// With `tracesSteps`: the hooks also want every processed event's name.
    let reportsEventStarts: Bool
    /// With `tracesSteps`: the hooks want every state entered and exited, where its enter
    /// or exit block runs (the SCXML trace's `enter:` and `exit:` entries), so that a chart
    /// needs no block per state to record them. It counts as one of `subscriptions`, so
    /// that a step tests one count for both.
    let tracesStates: Bool
    /// The chart has eventless transitions or done events, or raises to the internal queue.
    /// The step tests this and the topology's `has...` facts (constants) before any of the
    /// mutable state below: every read of a class's `var` is an exclusivity check
    /// (`swift_beginAccess`), which plain charts should not pay for features they lack.
    let settles: Bool
    /// A snapshot reads more than the configuration (histories, joins, timers, finals, sends).
    let hasSnapshotExtras: Bool
    /// Nothing but the step itself runs around an event: no settling, no internal queue, no
    /// step observer, no deferral. The idle fast path then runs the step with none of the
    /// tests for them (see `runPlainEvent(_:)`).
    let runsPlainly: Bool

    /// The thread running steps, so that `raise` can tell a call made inside a step from
    /// one made elsewhere (a task started by a block, say). Kept only with
    /// `RaisedEventOrder.internalQueue`; 0 when no step runs. (A task-local value would be
    /// inherited by tasks the blocks start, which then would touch the drainer's queue.)
    let drainingThread = Atomic<UInt>(0)

    /// The topology's hottest tables, shared with every engine of the same topology (which
    /// `topology` keeps alive).
    let tables: TopologyTables
    /// The drainer's per-region, per-state and per-timer values, in one block freed in `deinit`.
    let slots: EngineSlots

    // Drainer-confined state (see the type's invariant). Only the drainer touches these,
    // one step at a time, so Swift's run-time exclusivity checks (a call into the runtime on
    // every read and write of a class's stored `var`, costing more than a whole step of a
    // plain chart) are switched off for them: the drainer role is what keeps accesses apart.
    @exclusivity(unchecked) var started = false
    /// A final state of the root region is active.
    @exclusivity(unchecked) var finished = false
    /// A final state of the root region was entered in the running microstep, whose
    /// configuration's exit blocks are still to run (with `exitsFinalConfiguration`).
    @exclusivity(unchecked) var finishing = false
    /// The running step's payload and event (-1 for synthetic steps: start, stop).
    @usableFromInline @exclusivity(unchecked) var stepPayload: (any Sendable)?
    /// False only while `stepPayload` is known to be nil (set by the fast path, which knows).
    @usableFromInline @exclusivity(unchecked) var stepHasPayload = true
    /// What the hooks' views of the contexts they lend blocks point to (see
    /// `Statechart.Hooks.plainContexts`): added to by the drainer, in steps.
    @exclusivity(unchecked) var blockContexts: [AnyObject] = []
    /// Counts the payloads made the running step's (see ``setStepPayload(_:)``), so that
    /// the hooks convert each to the chart's type once, not once per block.
    @usableFromInline @exclusivity(unchecked) var payloadSerial: UInt64 = 0
    /// Makes `payload` (which may be nil) the running step's.
    @inline(__always) func setStepPayload(_ payload: (any Sendable)?) {
        stepPayload = payload
        stepHasPayload = true
        payloadSerial &+= 1
    }
    /// `stepPayload` for a call into the hooks: nil, without reading the stored existential,
    /// when the step is known to have none. (Passing the stored property copies it, and
    /// copying or destroying an optional existential goes through value witnesses even
    /// when it is nil.) The hot blocks (enter, exit, guard, action) and notifications are
    /// not passed the payload at all: the hooks read it from the engine, typed, once per
    /// step that has one (see `Statechart.Hooks.payload(of:)`).
    @inline(__always) var blockPayload: (any Sendable)? { stepHasPayload ? stepPayload : nil }
    @exclusivity(unchecked) var stepEvent: Int32 = -1
    /// The debug sink's log of the running step, nil when no sink is set.
    @exclusivity(unchecked) var log: DebugLog?
    /// `ConflictResolution.documentOrder`: the transitions the current microstep selected,
    /// then the (scope region, switch) pairs they exit and enter.
    @exclusivity(unchecked) var picks: [Pick] = []
    @exclusivity(unchecked) var pickScopes: [(region: Int32, change: Int32)] = []
    /// Histories entered through their default transition whose executable content runs
    /// once their owner has been entered.
    @exclusivity(unchecked) var pendingHistoryDefaults: [Int32] = []
    /// Steps run in a row on self-fed items, and the names of the last few, to name the cycle.
    @exclusivity(unchecked) var selfFedRun = 0
    @exclusivity(unchecked) var selfFedNames: [String] = []
    /// Per delayed transition: its pending timer on `clock`, nil when none (its deadline is
    /// `slots.timerDeadlines`).
    @exclusivity(unchecked) var pendingTimers: [ArmedTimer?]
    /// Per state: its running state-scoped task.
    @exclusivity(unchecked) var tasks: [Task<Void, Never>?]
    /// Done events and (with `RaisedEventOrder.internalQueue`) raised events of this step.
    @exclusivity(unchecked) var internalQueue: [InternalEvent] = []
    /// Deferred events, in arrival order.
    @exclusivity(unchecked) var deferredItems: [QueueItem] = []
    /// The configuration (`slots.current`, region by region) in which every event of
    /// `deferredItems` is deferred, or empty when none is known: whether an event is
    /// deferred depends on the active states alone, so until they change no kept event can
    /// run, and a step does not look at them (see ``replayDeferred()``).
    @exclusivity(unchecked) var deferringConfiguration: [Int32] = []
    /// The handlers fired by eventless transitions and internal events in this step, to name
    /// the cycle when they never settle.
    @exclusivity(unchecked) var microstepTrace: [Int] = []
    @exclusivity(unchecked) var lastFired = -1
    /// What a snapshot reads besides the configuration that changed since it was last
    /// published (each part is published only when it changed).
    @exclusivity(unchecked) var dirtyExtras: ExtrasParts = []

    /// An engine for `topology`, calling back into `hooks`, and into `blockCall` with them
    /// for blocks and subscribers (`blockCall` must be made for the type of `hooks`: see
    /// ``EngineBlockCall``). `sendsEvents` gives it an SCXML session's sends; `tracesSteps`,
    /// `reportsEverySteps`, `reportsEventStarts` and `tracesStates` say what the hooks' step
    /// observer wants to hear (see `StatechartStepObserver`).
    init(
        topology: Topology,
        hooks: any EngineHooks,
        blockCall: @escaping EngineBlockCall,
        subscriptions: SubscriptionCount,
        options: StatechartOptions,
        clock: any StatechartClock,
        sendsEvents: Bool = false,
        tracesSteps: Bool = false,
        reportsEverySteps: Bool = true,
        reportsEventStarts: Bool = false,
        tracesStates: Bool = false
    ) {
        self.topology = topology
        tables = topology.tables
        slots = EngineSlots(topology: topology)
        sends = sendsEvents ? SCXMLSends() : nil
        self.tracesSteps = tracesSteps
        self.reportsEventStarts = tracesSteps && reportsEventStarts
        self.reportsEverySteps = reportsEverySteps
        self.tracesStates = tracesSteps && tracesStates
        if self.tracesStates { subscriptions.value.add(1, ordering: .releasing) }
        self.options = options
        self.clock = clock
        manualClock = topology.timers.isEmpty ? nil : clock as? ManualStatechartClock
        manualTimerTarget = manualClock?.register(hooks) ?? -1
        reverseRegionExit = options.regionExitOrder == .reverseDocumentOrder
        resolvesConflicts = options.conflictResolution == .documentOrder
        raisesInternally = options.raisedEventOrder == .internalQueue
        joinsSimultaneously = options.joinSemantics == .simultaneous
        exitsFinalConfiguration = options.topLevelFinal == .runsExitBlocks || sendsEvents
        maxMicrosteps = options.maxMicrosteps
        maxSelfFedSteps = max(1, options.maxSelfFedSteps)
        // A chart that runs its final configuration's exit blocks settles, which runs them.
        settles =
            topology.eventlessEvent >= 0 || topology.doneEvents.contains { $0 >= 0 } || raisesInternally
            || (exitsFinalConfiguration && topology.regions[0].states.contains { topology.states[Int($0)].isFinal })
        hasSnapshotExtras = topology.hasSnapshotExtras || sendsEvents
        runsPlainly = !settles && !raisesInternally && !tracesSteps && !topology.hasDeferrals
        pendingTimers = [ArmedTimer?](repeating: nil, count: topology.timers.count)
        tasks = [Task<Void, Never>?](repeating: nil, count: topology.states.count)
        self.hooks = hooks
        self.blockCall = blockCall
        blockHooks = hooks
        self.subscriptions = subscriptions
        snapshotWords = SnapshotWords(topology: topology)
        configuration = PublishedConfiguration(regions: topology.regions.count, words: snapshotWords.count)
        sends?.engine = self
    }

    deinit {
        // A released chart stops what it started: its timers and delayed sends leave the
        // clock (a shared manual clock kept them until they fell due, the continuous clock a
        // sleeping task each), and its states' tasks are cancelled.
        for index in pendingTimers.indices { cancelTimer(index) }
        manualClock?.unregister(manualTimerTarget)
        sends?.cancelAll()
        for task in tasks { task?.cancel() }
        slots.release()
    }

    /// Runs block `index` of `kind` in the running step, for its event (see
    /// ``EngineBlockCall``); a guard's answer. Out of line, so that a step with no
    /// block to run loads nothing of the call.
    @inline(never)
    func runBlock(_ kind: EngineBlockKind, _ index: Int) -> Bool {
        blockCall(blockHooks, kind, index, self, stepEvent)
    }
}

/// A delayed transition's pending timer: a handle from the chart's clock or, on a
/// ``ManualStatechartClock``, its sequence number there (armed and cancelled without a
/// closure: see `ManualStatechartClock.scheduleChartTimer`).
enum ArmedTimer {
    case handle(StatechartTimer)
    case manual(UInt64)
}
