import Foundation
import StateMachineSupport
import Synchronization

/// The running machine behind a `Statechart`: the active configuration, the event queue
/// and the step algorithm. Not generic, so that a step runs as plain specialised code
/// whatever the chart's identifier and payload types; user blocks are reached through
/// `EngineHooks` only when a state or handler has one.
///
/// `@unchecked Sendable` invariant: the mutable stored properties under "Drainer-confined
/// state" are read and written only by the current drainer, the single thread or task that
/// took the drainer role in `queueState` (see "Submitting"). The role passes from one
/// drainer to the next only through that atomic word, with acquiring and releasing
/// orderings, which orders every access of one drainer before those of the next.
@usableFromInline
final class StatechartEngine: @unchecked Sendable {
    let topology: Topology
    let hooks: any EngineHooks
    let pump: Lock<Pump>
    /// The drainer role and the queue's length (see "Submitting").
    private let queueState = Atomic<Int>(0)
    /// `started` (bit 0) and `finished` (bit 1) as last published (inside the configuration's
    /// write, so a snapshot reads them with it), readable without the lock.
    private let runState = Atomic<UInt8>(0)
    /// Whether `pump.debugSink` is set, readable without the lock.
    private let hasDebugSink = Atomic<Bool>(false)
    /// The configuration as of the last completed step, for readers on any thread.
    private let configuration: PublishedConfiguration
    /// Where the snapshot's plain-number parts are among the configuration's words.
    private let snapshotWords: SnapshotWords
    let subscriptions: SubscriptionCount
    let options: StatechartOptions
    let clock: any StatechartClock
    /// `clock`, when it is the manual clock, which tells a timer's deadline as it schedules
    /// it (one lock instead of two).
    private let manualClock: ManualStatechartClock?
    private let reverseRegionExit: Bool
    private let resolvesConflicts: Bool
    private let raisesInternally: Bool
    private let joinsSimultaneously: Bool
    private let maxMicrosteps: Int
    private let maxSelfFedSteps: Int
    /// The hooks want every processed event's name and every step's end (the SCXML
    /// interpreter's trace); off for ordinary charts, so their steps pay nothing for it.
    private let tracesSteps: Bool
    /// With `tracesSteps`: the hooks want the end of every step, not only of failed ones.
    private let reportsEverySteps: Bool
    /// With `tracesSteps`: the hooks also want every processed event's name.
    private let reportsEventStarts: Bool
    /// The chart has eventless transitions or done events, or raises to the internal queue.
    /// The step tests this and the topology's `has...` facts (constants) before any of the
    /// mutable state below: every read of a class's `var` is an exclusivity check
    /// (`swift_beginAccess`), which plain charts should not pay for features they lack.
    private let settles: Bool

    /// The thread running steps, so that `raise` can tell a call made inside a step from
    /// one made elsewhere (a task started by a block, say). Kept only with
    /// `RaisedEventOrder.internalQueue`; 0 when no step runs. (A task-local value would be
    /// inherited by tasks the blocks start, which then would touch the drainer's queue.)
    private let drainingThread = Atomic<UInt>(0)

    // Copies of the topology's tables the step reads most, in fixed buffers: reading one
    // is a load, with no array bounds check or buffer look-up (the step's indices come from
    // the topology itself). Released in `deinit`.
    private let hot: Slots<StateHot>
    private let childRegions: Slots<Int32>
    private let handlerList: Slots<Int32>
    private let handlers: Slots<HandlerNode>
    private let directTargets: Slots<Int32>
    private let switches: Slots<SwitchHot>
    private let scopeRegions: Slots<Int32>
    private let entryStart: Slots<Int32>
    private let entryRegions: Slots<Int32>
    private let entryStates: Slots<Int32>
    private let hasStaticEntry: Slots<Bool>
    private let regionInitial: Slots<Int32>
    /// `Topology.handlerStart`, for ``handlerRange(state:event:)``.
    private let handlerStart: Slots<Int32>
    /// `Topology.planRegions` and `planStates`, for ``explicitChild(of:in:)``.
    private let planRegions: Slots<Int32>
    private let planStates: Slots<Int32>
    private let eventCount: Int

    // Drainer-confined state (see the type's invariant). Only the drainer touches these,
    // one step at a time, so Swift's run-time exclusivity checks (a call into the runtime on
    // every read and write of a class's stored `var`, costing more than a whole step of a
    // plain chart) are switched off for them: the drainer role is what keeps accesses apart.
    /// Per region, its active state (-1 when inactive): the configuration.
    private let current: Slots<Int32>
    @exclusivity(unchecked) private var joinProgress: [[Bool]]
    @exclusivity(unchecked) private var joinArrivals: [Int]
    @exclusivity(unchecked) private var started = false
    @exclusivity(unchecked) private var stepPayload: (any Sendable)?
    /// False only while `stepPayload` is known to be nil (set by the fast path, which knows).
    @exclusivity(unchecked) private var stepHasPayload = true
    @exclusivity(unchecked) private var stepEvent: Int32 = -1
    @exclusivity(unchecked) private var log: DebugLog?
    /// `ConflictResolution.documentOrder`: the handlers the current microstep selected,
    /// then the (scope region, switch) pairs it exits and enters.
    @exclusivity(unchecked) private var picks: [Pick] = []
    @exclusivity(unchecked) private var pickScopes: [(region: Int32, change: Int32)] = []
    /// Histories entered through their default transition whose executable content runs
    /// once their owner has been entered.
    @exclusivity(unchecked) private var pendingHistoryDefaults: [Int32] = []
    /// Events sent with a delay by executable content, by a sequence number that is never
    /// reused, so a timer whose send is gone (cancelled, fired, halted) delivers nothing.
    /// In the order they were made (by sequence), at most `StatechartLimits.maxPendingSends`.
    @exclusivity(unchecked) private var pendingSends: [PendingSend] = []
    @exclusivity(unchecked) private var nextSendSequence: UInt64 = 0
    /// SCXML's `idlocation` slots: the last send id generated into each.
    @exclusivity(unchecked) private var sendIDSlots: [String: String] = [:]
    @exclusivity(unchecked) private var generatedSendIDCount = 0
    /// Steps run in a row on self-fed items, and the names of the last few, to name the cycle.
    @exclusivity(unchecked) private var selfFedRun = 0
    @exclusivity(unchecked) private var selfFedNames: [String] = []
    /// A final state of the root region is active.
    @exclusivity(unchecked) private var finished = false
    /// Per history, the active state of each of its regions when its owner last exited;
    /// empty until then.
    @exclusivity(unchecked) private var historyRecords: [[Int32]]
    /// While a history transition enters its owner: per region, the state to enter instead
    /// of the initial one (-1 for none).
    private let restoreTargets: Slots<Int32>
    /// Per state, bumped on every entry: timers and task results carry the generation they
    /// were started in, and are dropped when it is no longer current.
    private let generations: Slots<UInt64>
    /// Per delayed transition: its pending timer on `clock`, nil when none.
    private let pendingTimers: Slots<StatechartTimer?>
    /// Per delayed transition: its pending timer's deadline on `clock`, nil when none. Apart
    /// from `pendingTimers` so that publishing the deadlines copies no timer (a retain each).
    private let timerDeadlines: Slots<Duration?>
    /// Per state: its running state-scoped task.
    @exclusivity(unchecked) private var tasks: [Task<Void, Never>?]
    /// Done events and (with `RaisedEventOrder.internalQueue`) raised events of this step.
    @exclusivity(unchecked) private var internalQueue: [InternalEvent] = []
    /// Deferred events, in arrival order.
    @exclusivity(unchecked) private var deferredItems: [QueueItem] = []
    /// The configuration (`current`, region by region) in which every event of
    /// `deferredItems` is deferred, or empty when none is known: whether an event is
    /// deferred depends on the active states alone, so until they change no kept event can
    /// run, and a step does not look at them (see ``replayDeferred()``). Drainer only.
    @exclusivity(unchecked) private var deferringConfiguration: [Int32] = []
    /// The handlers fired by eventless transitions and internal events in this step, to name
    /// the cycle when they never settle.
    @exclusivity(unchecked) private var microstepTrace: [Int] = []
    @exclusivity(unchecked) private var lastFired = -1
    /// What a snapshot reads besides the configuration that changed since it was last
    /// published (each part is published only when it changed).
    @exclusivity(unchecked) private var dirtyExtras: ExtrasParts = []

    init(
        topology: Topology,
        hooks: any EngineHooks,
        subscriptions: SubscriptionCount,
        options: StatechartOptions,
        clock: any StatechartClock,
        tracesSteps: Bool = false,
        reportsEverySteps: Bool = true,
        reportsEventStarts: Bool = false
    ) {
        self.topology = topology
        hot = Slots(copying: topology.hot)
        childRegions = Slots(copying: topology.childRegions)
        handlerList = Slots(copying: topology.handlerList)
        handlers = Slots(copying: topology.handlers)
        directTargets = Slots(copying: topology.directTargets)
        switches = Slots(copying: topology.switches)
        scopeRegions = Slots(copying: topology.scopeRegions)
        entryStart = Slots(copying: topology.entryStart)
        entryRegions = Slots(copying: topology.entryRegions)
        entryStates = Slots(copying: topology.entryStates)
        hasStaticEntry = Slots(copying: topology.hasStaticEntry)
        regionInitial = Slots(copying: topology.regionInitial)
        handlerStart = Slots(copying: topology.handlerStart)
        planRegions = Slots(copying: topology.planRegions)
        planStates = Slots(copying: topology.planStates)
        eventCount = topology.eventCount
        self.tracesSteps = tracesSteps
        self.reportsEventStarts = tracesSteps && reportsEventStarts
        self.reportsEverySteps = reportsEverySteps
        self.options = options
        self.clock = clock
        manualClock = clock as? ManualStatechartClock
        reverseRegionExit = options.regionExitOrder == .reverseDocumentOrder
        resolvesConflicts = options.conflictResolution == .documentOrder
        raisesInternally = options.raisedEventOrder == .internalQueue
        joinsSimultaneously = options.joinSemantics == .simultaneous
        maxMicrosteps = options.maxMicrosteps
        maxSelfFedSteps = max(1, options.maxSelfFedSteps)
        settles = topology.eventlessEvent >= 0 || topology.doneEvents.contains { $0 >= 0 } || raisesInternally
        historyRecords = [[Int32]](repeating: [], count: topology.histories.count)
        restoreTargets = Slots(repeating: -1, count: topology.regions.count)
        generations = Slots(repeating: 0, count: topology.states.count)
        pendingTimers = Slots(repeating: nil, count: topology.timers.count)
        timerDeadlines = Slots(repeating: nil, count: topology.timers.count)
        tasks = [Task<Void, Never>?](repeating: nil, count: topology.states.count)
        self.hooks = hooks
        self.subscriptions = subscriptions
        pump = Lock(Pump())
        snapshotWords = SnapshotWords(topology: topology)
        configuration = PublishedConfiguration(regions: topology.regions.count, words: snapshotWords.count)
        current = Slots(repeating: -1, count: topology.regions.count)
        joinProgress = topology.joins.map { [Bool](repeating: false, count: $0.sourceCount) }
        joinArrivals = [Int](repeating: 0, count: topology.joins.count)
    }

    deinit {
        // A released chart stops what it started: its timers and delayed sends leave the
        // clock (a shared manual clock kept them until they fell due, the continuous clock a
        // sleeping task each), and its states' tasks are cancelled.
        for index in pendingTimers.indices { pendingTimers[index]?.cancel() }
        for send in pendingSends { send.timer.cancel() }
        for task in tasks { task?.cancel() }
        current.release()
        restoreTargets.release()
        generations.release()
        pendingTimers.release()
        timerDeadlines.release()
        hot.release()
        childRegions.release()
        handlerList.release()
        handlers.release()
        directTargets.release()
        switches.release()
        scopeRegions.release()
        entryStart.release()
        entryRegions.release()
        entryStates.release()
        hasStaticEntry.release()
        regionInitial.release()
        handlerStart.release()
        planRegions.release()
        planStates.release()
    }

    // MARK: Submitting

    // The queue's protocol. `queueState` holds the drainer role (bit 0) and the number of
    // items in `pump.items` (the other bits, counted in twos). Items are appended and popped,
    // and the count changed, only under the `pump` lock; the role is taken and given up by
    // compare-and-swap on the word. So an idle chart's event is claimed (0 -> 1) and released
    // (1 -> 0) with one compare-and-swap each and no lock, and a release fails exactly when
    // something was queued meanwhile, which the drainer then pops and runs. Acquiring and
    // releasing orderings on the role pass the drainer-confined state from one drainer to
    // the next.

    /// Takes the drainer role if the chart is idle and nothing is queued.
    private func claimIfIdle() -> Bool {
        queueState.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
    }

    /// Counts one more queued item and takes the drainer role if nobody holds it; true when
    /// the caller now drains. Called under the `pump` lock, with the item appended.
    private func countQueuedItem() -> Bool {
        var old = queueState.load(ordering: .relaxed)
        while true {
            let (exchanged, seen) = queueState.compareExchange(
                expected: old,
                desired: (old + 2) | 1,
                ordering: .acquiringAndReleasing
            )
            if exchanged { return old & 1 == 0 }
            old = seen
        }
    }

    /// Gives up the drainer role unless items are queued; false when the caller must pop
    /// and run them.
    private func releaseIfIdle() -> Bool {
        queueState.compareExchange(expected: 1, desired: 0, ordering: .releasing).exchanged
    }

    /// Queues `item` without running anything on the caller's thread; when the queue
    /// was idle, a new task drains it.
    func enqueue(_ item: QueueItem) {
        let startDrainer = pump.withLock { pump -> Bool in
            pump.append(item)
            return countQueuedItem()
        }
        if startDrainer {
            Task { _ = self.drain(first: nil) }
        }
    }

    /// Queues an event raised by a user block: on the internal queue when the chart uses one
    /// and the block runs inside this chart's step, else at the back of the queue.
    func raise(_ item: QueueItem) {
        if raisesInternally, drainingThread.load(ordering: .acquiring) == Self.currentThread,
            case .event(let index, let name) = item.request
        {
            internalQueue.append(InternalEvent(index: index, name: name, payload: item.payload))
        } else {
            var item = item
            item.selfFed = true
            enqueue(item)
        }
    }

    /// Queues the item built by `makeItem` and, when no step is running, runs the queue on
    /// the caller's thread until it is empty, returning the outcome of that item.
    /// `makeItem` learns whether the caller will drain, so it can choose the completion.
    func submit(_ makeItem: (_ drainsHere: Bool) -> QueueItem) -> Result<StatechartStepOutcome, StatechartError>? {
        // An idle, empty queue lets the caller run its item directly, without queueing it.
        if claimIfIdle() { return drain(first: makeItem(true)) }
        let drainHere = pump.withLock { pump -> Bool in
            let drains = countQueuedItem()
            pump.append(makeItem(drains))
            return drains
        }
        return drainHere ? drain(first: nil) : nil
    }

    /// The fast path of `handle` and `send`: when no step runs and nothing is queued, the
    /// caller runs its event's step at once, with no queue item, no completion and no
    /// lock, then drains whatever that step queued. Returns nil, having done nothing, when
    /// the chart is busy or has a debug sink, so that the caller queues the event instead.
    ///
    /// `name` is the name traces give an event the table does not hold as is (see
    /// `StepRequest.event`).
    @usableFromInline
    func runIfIdle(
        event index: Int32,
        name: String?,
        payload: (any Sendable)?
    ) throws(StatechartError) -> StatechartStepOutcome? {
        try runIdleStep(index, name: name) {
            stepPayload = payload
            stepHasPayload = true
        }
    }

    /// ``runIfIdle(event:name:payload:)`` for the most common event: one the table holds,
    /// without a payload. Separate so that the step passes no optional name or existential
    /// payload around (copying and destroying those costs value-witness calls).
    @usableFromInline
    func runIfIdle(event index: Int32) throws(StatechartError) -> StatechartStepOutcome? {
        try runIdleStep(index, name: nil) {
            // The existential is written (a value-witness call) only if it held a payload.
            if stepHasPayload {
                stepPayload = nil
                stepHasPayload = false
            }
        }
    }

    /// The body of both `runIfIdle`s; `setPayload` sets `stepPayload` once the caller is
    /// the drainer.
    @inline(__always)
    private func runIdleStep(
        _ index: Int32,
        name: String?,
        setPayload: () -> Void
    ) throws(StatechartError) -> StatechartStepOutcome? {
        guard !hasDebugSink.load(ordering: .relaxed), claimIfIdle() else { return nil }
        if raisesInternally { drainingThread.store(Self.currentThread, ordering: .releasing) }
        defer { if raisesInternally { leaveDrainingThread() } }
        if selfFedRun > 0 {
            selfFedRun = 0
            selfFedNames.removeAll(keepingCapacity: true)
        }
        setPayload()
        let outcome: StatechartStepOutcome
        do throws(StatechartError) {
            outcome = try performEvent(index, name: name)
        } catch {
            try failIdleStep(error)
        }
        if let loopFailure = endIdleStep(published: tracesSteps && finishTracedStep(.success(outcome))) {
            throw loopFailure
        }
        return outcome
    }

    /// The end of an idle step that failed: as ``endIdleStep(published:)``, then the
    /// failure is thrown. Out of line, so that the ordinary step carries no error around.
    @inline(never)
    private func failIdleStep(_ failure: StatechartError) throws(StatechartError) -> Never {
        _ = endIdleStep(published: tracesSteps && finishTracedStep(.failure(failure)))
        throw failure
    }

    /// Publishes the idle step (unless `published` says it is), replays the deferred events
    /// it freed, and gives up the drainer role or runs what was queued meanwhile; returns
    /// the failure of a queued step that fed itself without end.
    @inline(__always)
    private func endIdleStep(published: Bool) -> StatechartError? {
        var published = published
        if topology.hasDeferrals, !deferredItems.isEmpty {
            replayDeferred()
            published = false
        }
        if !published { publish() }
        guard !releaseIfIdle() else { return nil }
        var loopFailure: StatechartError?
        // Only a submitter that drains queues an `.inline` item, and this caller queued none.
        var noInlineItem: Result<StatechartStepOutcome, StatechartError>?
        drainRest(loopFailure: &loopFailure, published: true, inlineResult: &noInlineItem)
        return loopFailure
    }

    /// Queues a halt (see ``halt()``), run on the caller's thread when the chart is idle.
    func submitHalt() {
        _ = submit { QueueItem(request: .halt, payload: nil, completion: $0 ? .inline : nil) }
    }

    /// Drops the queued events, delivering `.discarded` to their waiters, and queues a stop.
    func submitStop(payload: (any Sendable)?) {
        let (dropped, drainHere) = pump.withLock { pump -> ([QueueItem], Bool) in
            let dropped = pump.removePendingEvents()
            queueState.subtract(2 * dropped.count, ordering: .relaxed)
            let drains = countQueuedItem()
            pump.append(QueueItem(request: .stop, payload: payload, completion: drains ? .inline : nil))
            return (dropped, drains)
        }
        for item in dropped { item.completion?.deliver(.success(.discarded)) }
        if drainHere { _ = drain(first: nil) }
    }

    /// Sets or removes the debug sink that the next steps write to.
    func setDebugSink(_ sink: StatechartDebugSink?) {
        pump.withLock { pump in
            pump.debugSink = sink
            hasDebugSink.store(sink != nil, ordering: .relaxed)
        }
    }

    /// Resumes a chart that has not started from a snapshot's configuration (per region,
    /// its active state), history records and join progress; timers restart with
    /// `remaining` (the others had fired or never started) and tasks start afresh. Enter blocks do
    /// not run. Called only before the chart is shared, so it runs as the drainer.
    func restore(
        configuration: [Int32],
        historyRecords: [[Int32]],
        joinProgress: [[Bool]],
        remaining: [Int32: Duration],
        sends: [(request: StepRequest, name: String, id: String?, remaining: Duration)] = [],
        sendIDSlots: [String: String] = [:],
        generatedSendIDCount: Int = 0
    ) {
        for (region, state) in configuration.enumerated() { current[region] = state }
        self.sendIDSlots = sendIDSlots
        self.generatedSendIDCount = generatedSendIDCount
        for send in sends { schedule(send.request, name: send.name, delay: send.remaining, id: send.id, armed: true) }
        self.historyRecords = historyRecords
        self.joinProgress = joinProgress
        joinArrivals = joinProgress.map { $0.filter { $0 }.count }
        started = true
        for (region, state) in configuration.enumerated() where state >= 0 {
            if hot[Int(state)].hasExtras { activate(state, remaining: remaining) }
            if region == 0, hot[Int(state)].isFinal { finished = true }
        }
        dirtyExtras = .all
        publish()
    }

    // MARK: Draining

    /// Runs queued items one run-to-completion step at a time until the queue is empty,
    /// then gives up the drainer role. Must be called only by the drainer.
    private func drain(first: QueueItem?) -> Result<StatechartStepOutcome, StatechartError>? {
        guard raisesInternally else { return drainQueue(first: first) }
        drainingThread.store(Self.currentThread, ordering: .releasing)
        defer { leaveDrainingThread() }
        return drainQueue(first: first)
    }

    /// Whether a final state of the root region is active, as the running step left it.
    /// Drainer only (a step observer's `stepFinished`).
    var isFinishedInStep: Bool { finished }

    /// Clears `drainingThread` unless the next drainer, on another thread, has already
    /// set it (the role is given up before this runs).
    private func leaveDrainingThread() {
        _ = drainingThread.compareExchange(expected: Self.currentThread, desired: 0, ordering: .releasing)
    }

    /// An identifier of the calling thread, unique among living threads.
    private static var currentThread: UInt {
        UInt(pthread_self())
    }

    private func drainQueue(first: QueueItem?) -> Result<StatechartStepOutcome, StatechartError>? {
        var inlineResult: Result<StatechartStepOutcome, StatechartError>?
        var loopFailure: StatechartError?
        var published = false
        if let first {
            let sink = pump.withLock { $0.debugSink }
            published = runQueued(first, sink: sink, loopFailure: &loopFailure, inlineResult: &inlineResult)
        }
        drainRest(loopFailure: &loopFailure, published: published, inlineResult: &inlineResult)
        // The caller's own step succeeded, but the steps it went on to run fed themselves
        // without end: that is what its call ran into.
        if let loopFailure, case .success? = inlineResult { return .failure(loopFailure) }
        return inlineResult
    }

    /// Publishes the last step (unless `published` says it is) and runs the queued items
    /// until the queue is empty, then gives up the drainer role; the outcome of an item
    /// whose completion is `.inline` goes to `inlineResult`.
    private func drainRest(
        loopFailure: inout StatechartError?,
        published: Bool,
        inlineResult: inout Result<StatechartStepOutcome, StatechartError>?
    ) {
        var published = published
        while true {
            if !published { publish() }
            if releaseIfIdle() { break }
            var sink: StatechartDebugSink?
            let next = pump.withLock { pump -> QueueItem? in
                guard let item = pump.popFirst() else { return nil }
                queueState.subtract(2, ordering: .relaxed)
                sink = pump.debugSink
                return item
            }
            // The count says an item is queued, and only the drainer pops.
            guard let item = next else { preconditionFailure("the queue's count and its items disagree") }
            published = runQueued(item, sink: sink, loopFailure: &loopFailure, inlineResult: &inlineResult)
        }
    }

    /// Runs a queued item's step and reports its outcome: to the tracing hooks, then to the
    /// item's completion (an `.inline` one's to `inlineResult`); then replays the deferred
    /// events it may have freed. Returns whether the configuration it left is published.
    private func runQueued(
        _ item: QueueItem,
        sink: StatechartDebugSink?,
        loopFailure: inout StatechartError?,
        inlineResult: inout Result<StatechartStepOutcome, StatechartError>?
    ) -> Bool {
        let result = runCounted(item, sink: sink, loopFailure: &loopFailure)
        var published = tracesSteps && finishTracedStep(result)
        if item.completion?.isInline == true {
            inlineResult = result
        } else {
            item.completion?.deliver(result)
        }
        if topology.hasDeferrals, !deferredItems.isEmpty {
            replayDeferred()
            published = false
        }
        return published
    }

    /// Runs `item`, counting the steps run in a row on items the chart queued itself;
    /// past `maxSelfFedSteps` the chart is halted and the item fails with the loop's names.
    private func runCounted(
        _ item: QueueItem,
        sink: StatechartDebugSink?,
        loopFailure: inout StatechartError?
    ) -> Result<StatechartStepOutcome, StatechartError> {
        if item.selfFed {
            selfFedRun += 1
            if selfFedNames.count == 64 { selfFedNames.removeFirst() }
            selfFedNames.append(eventName(of: item))
            if selfFedRun > maxSelfFedSteps {
                let error = StatechartError.selfFeedingLoop(limit: maxSelfFedSteps, cycle: repeatingCycle(selfFedNames))
                selfFedRun = 0
                selfFedNames.removeAll()
                halt()
                loopFailure = error
                return .failure(error)
            }
        } else if selfFedRun > 0 {
            selfFedRun = 0
            selfFedNames.removeAll(keepingCapacity: true)
        }
        return run(item, sink: sink)
    }

    /// The name a trace gives the event of `item`.
    private func eventName(of item: QueueItem) -> String {
        switch item.request {
        case .event(let index, let name): name ?? (index >= 0 ? topology.eventNames[Int(index)] : "?")
        case .timeout(let timer): topology.eventNames[Int(topology.timers[Int(timer)].event)]
        case .sendDue(let sequence): pendingSends.first { $0.sequence == sequence }?.name ?? "send"
        case .start: "start"
        case .stop: "stop"
        case .halt: "halt"
        }
    }

    /// Publishes the step and tells the hooks it ended, so that their observer reads the
    /// configuration the step left; returns whether it published.
    private func finishTracedStep(_ result: Result<StatechartStepOutcome, StatechartError>) -> Bool {
        // An observer that follows only failures is not told of the steps that succeed.
        if !reportsEverySteps, case .success = result { return false }
        publish()
        hooks.stepFinished(result)
        return true
    }

    /// Runs, in arrival order, the deferred events that no active state defers any more.
    /// Each may change the configuration, and then the scan starts over; the events before
    /// it stay deferred while the configuration stays as it was. A step that leaves the
    /// configuration as the last scan found it looks at no kept event, so a step costs the
    /// same however many events are kept.
    private func replayDeferred() {
        guard !isDeferringConfiguration() else { return }
        var index = 0
        while index < deferredItems.count {
            guard case .event(let event, _) = deferredItems[index].request, !isDeferred(event) else {
                index += 1
                continue
            }
            let item = deferredItems.remove(at: index)
            let sink = pump.withLock { $0.debugSink }
            recordDeferringConfiguration()
            _ = run(item, sink: sink)
            if !isDeferringConfiguration() { index = 0 }
        }
        recordDeferringConfiguration()
    }

    /// Whether the configuration is `deferringConfiguration`.
    private func isDeferringConfiguration() -> Bool {
        guard deferringConfiguration.count == topology.regions.count else { return false }
        for region in current.indices where current[region] != deferringConfiguration[region] { return false }
        return true
    }

    /// Records the configuration as the one in which every kept event is deferred.
    private func recordDeferringConfiguration() {
        deferringConfiguration.removeAll(keepingCapacity: true)
        for region in current.indices { deferringConfiguration.append(current[region]) }
    }

    /// Publishes the configuration, and what a snapshot reads besides it when that changed,
    /// for readers on other threads (see `PublishedConfiguration`). Called by the drainer
    /// after every step.
    private func publish() {
        guard started != isRunning || (topology.hasSnapshotExtras && !dirtyExtras.isEmpty) else {
            configuration.publish(current.buffer)
            return
        }
        configuration.publish(current.buffer) { publishExtras() }
    }

    /// Publishes the parts of `dirtyExtras`, inside the configuration's write: the plain
    /// numbers as words (see `SnapshotWords`), the sends under the pump's lock.
    private func publishExtras() {
        runState.store((started ? 1 : 0) | (finished ? 2 : 0), ordering: .releasing)
        guard topology.hasSnapshotExtras, !dirtyExtras.isEmpty else { return }
        if dirtyExtras.contains(.histories) {
            for history in historyRecords.indices {
                let start = snapshotWords.historyStart[history]
                let regions = topology.historyRegionSlots(history).count
                historyRecords[history].withUnsafeBufferPointer { record in
                    configuration.store(word: start, record.isEmpty ? 0 : 1)
                    for position in 0..<min(record.count, regions) {
                        configuration.store(word: start + 1 + position, Int64(record[position]))
                    }
                }
            }
        }
        if dirtyExtras.contains(.joins) {
            for join in joinProgress.indices {
                let start = snapshotWords.joinStart[join]
                for slot in joinProgress[join].indices {
                    configuration.store(word: start + slot, joinProgress[join][slot] ? 1 : 0)
                }
            }
        }
        if dirtyExtras.contains(.timers) {
            for timer in timerDeadlines.indices {
                let start = snapshotWords.timerStart[timer]
                if let deadline = timerDeadlines[timer] {
                    // The attoseconds as two halves: `components` would divide by 10^18.
                    let attoseconds = deadline.attoseconds
                    configuration.store(word: start, 1)
                    configuration.store(word: start + 1, Int64(truncatingIfNeeded: attoseconds >> 64))
                    configuration.store(word: start + 2, Int64(truncatingIfNeeded: attoseconds))
                } else {
                    configuration.store(word: start, 0)
                }
            }
        }
        if dirtyExtras.contains(.sends) {
            let sends = PublishedSends(
                sends: pendingSends.map { ($0.name, $0.id, $0.deadline) },
                sendIDSlots: sendIDSlots,
                generatedSendIDCount: generatedSendIDCount
            )
            pump.withLock { $0.sends = sends }
        }
        dirtyExtras = []
    }

    /// What `publishExtras` published; only inside the configuration's read.
    private func readExtras() -> PublishedExtras {
        let words = snapshotWords
        return PublishedExtras(
            historyRecords: words.historyStart.indices.map { history in
                let start = words.historyStart[history]
                guard configuration.load(word: start) != 0 else { return [] }
                return (0..<topology.historyRegionSlots(history).count).map {
                    Int32(truncatingIfNeeded: configuration.load(word: start + 1 + $0))
                }
            },
            joinProgress: words.joinStart.indices.map { join in
                (0..<topology.joins[join].sourceCount).map { configuration.load(word: words.joinStart[join] + $0) != 0 }
            },
            timerDeadlines: words.timerStart.map { start in
                guard configuration.load(word: start) != 0 else { return nil }
                let high = Int128(configuration.load(word: start + 1))
                let low = Int128(UInt64(bitPattern: configuration.load(word: start + 2)))
                return Duration(attoseconds: high << 64 | low)
            },
            sends: pump.withLock { $0.sends }
        )
    }

    /// Whether the chart runs, as of the last completed step.
    var isRunning: Bool { runState.load(ordering: .acquiring) & 1 != 0 }

    /// Whether a final state of the root region is active, as of the last completed step.
    var isFinished: Bool { runState.load(ordering: .acquiring) & 2 != 0 }

    /// The configuration as of the last completed step.
    func publishedConfiguration() -> [Int32] { configuration.read() }

    /// The active state of `region` as of the last completed step, -1 when inactive.
    func publishedState(ofRegion region: Int32) -> Int32 { configuration.state(ofRegion: Int(region)) }

    /// The configuration, whether the chart runs, and the rest of a snapshot, all as of
    /// the same completed step.
    func publishedSnapshot() -> (configuration: [Int32], started: Bool, extras: PublishedExtras) {
        let (configuration, (started, extras)) = configuration.read { (isRunning, readExtras()) }
        return (configuration, started, extras)
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
        stepHasPayload = true
        do throws(StatechartError) {
            switch item.request {
            case .event(let index, let name):
                return .success(
                    try performEvent(index, name: name, source: item.sourceState, item.generation)
                )
            case .timeout(let timer):
                return .success(try performTimeout(timer, generation: item.generation))
            case .sendDue(let sequence):
                guard let position = pendingSends.firstIndex(where: { $0.sequence == sequence }) else {
                    return .success(.discarded)
                }
                let send = pendingSends.remove(at: position)
                dirtyExtras.insert(.sends)
                return perform(QueueItem(request: send.request, payload: nil, completion: nil))
            case .start:
                return .success(try performStart())
            case .stop:
                return .success(performStop())
            case .halt:
                guard started else { return .success(.unhandled) }
                halt()
                return .success(.handled)
            }
        } catch {
            return .failure(error)
        }
    }

    /// One event's run-to-completion step (its payload is `stepPayload`): the event, then
    /// eventless transitions and internal events until the chart settles.
    private func performEvent(
        _ index: Int32,
        name: String?,
        source: Int32 = -1,
        _ generation: UInt64 = 0
    ) throws(StatechartError) -> StatechartStepOutcome {
        stepEvent = index
        if let log {
            let name = name ?? (index >= 0 ? topology.eventNames[Int(index)] : "?")
            log.write("[\(topology.name)]: attempt to handle event '\(name)' data: \(describe(stepPayload))")
        }
        guard started else { return .discarded }
        // A state-scoped task's result counts only while its state is still the one it was
        // entered as.
        if source >= 0, !isCurrent(source, generation: generation) { return .discarded }
        if reportsEventStarts {
            hooks.eventStarted(name ?? topology.eventNames[Int(index)], payload: stepPayload, external: true)
        }
        // No handler names it: nothing changes, so there is nothing to settle.
        guard index >= 0 else { return .unhandled }
        let handled = try step(event: index)
        if !handled, topology.hasDeferrals, isDeferred(index) {
            deferEvent(index, name: name)
            return .deferred
        }
        if settles { try settle() }
        return handled ? .handled : .unhandled
    }

    /// Keeps the step's event until no active state defers it. Out of line, so that an
    /// ordinary step does not even look up the queue item's type.
    @inline(never)
    private func deferEvent(_ index: Int32, name: String?) {
        // Deferred in another configuration than the recorded one: the next replay scans.
        if !isDeferringConfiguration() { deferringConfiguration.removeAll(keepingCapacity: true) }
        deferredItems.append(
            QueueItem(request: .event(index: index, name: name), payload: stepPayload, completion: nil)
        )
    }

    @inline(never)
    private func performStart() throws(StatechartError) -> StatechartStepOutcome {
        stepEvent = -1
        guard !started else { return .unhandled }
        log?.write("[\(topology.name)] setup data: \(describe(stepPayload))")
        started = true
        enterRegion(0, plan: -1)
        try settle()
        return .handled
    }

    @inline(never)
    private func performStop() -> StatechartStepOutcome {
        stepEvent = -1
        guard started else { return .unhandled }
        tearDownRegion(0)
        started = false
        finished = false
        cancelSends { _ in true }
        internalQueue.removeAll()
        deferredItems.removeAll()
        for index in historyRecords.indices { historyRecords[index] = [] }
        dirtyExtras = .all
        return .handled
    }

    /// The timer of delayed transition `timer` fired: its synthetic event is dispatched,
    /// unless its state has been left (or left and re-entered) since the timer started.
    @inline(never)
    private func performTimeout(_ timer: Int32, generation: UInt64) throws(StatechartError) -> StatechartStepOutcome {
        let node = topology.timers[Int(timer)]
        guard started, isCurrent(node.state, generation: generation) else { return .discarded }
        pendingTimers[Int(timer)] = nil
        timerDeadlines[Int(timer)] = nil
        dirtyExtras.insert(.timers)
        stepEvent = node.event
        log?.write("[\(topology.name)]: attempt to handle event '\(topology.eventNames[Int(node.event)])' data: nil")
        let handled = try step(event: node.event)
        try settle()
        return handled ? .handled : .unhandled
    }

    /// Whether `state` is active and has not been re-entered since `generation`.
    private func isCurrent(_ state: Int32, generation: UInt64) -> Bool {
        current[Int(hot[Int(state)].parent)] == state && generations[Int(state)] == generation
    }

    /// Takes eventless transitions until none is enabled, then processes the internal
    /// queue one event at a time, each followed by eventless transitions again (SCXML's
    /// macrostep). Fails after `maxMicrosteps` microsteps, naming the repeating transitions.
    private func settle() throws(StatechartError) {
        let eventless = topology.eventlessEvent
        guard eventless >= 0 || !internalQueue.isEmpty else { return }
        var microsteps = 0
        if !microstepTrace.isEmpty { microstepTrace.removeAll(keepingCapacity: true) }
        func count() throws(StatechartError) {
            microstepTrace.append(lastFired)
            microsteps += 1
            if microsteps >= maxMicrosteps {
                internalQueue.removeAll()
                throw StatechartError.eventlessLoop(limit: maxMicrosteps, cycle: repeatingCycle())
            }
        }
        while true {
            if eventless >= 0 {
                stepEvent = eventless
                while hasActiveEventlessSource() {
                    guard try step(event: eventless) else { break }
                    try count()
                }
            }
            guard !internalQueue.isEmpty else { return }
            let item = internalQueue.removeFirst()
            let index = item.index
            if reportsEventStarts {
                hooks.eventStarted(item.name ?? topology.eventNames[Int(index)], payload: item.payload, external: false)
            }
            guard index >= 0 else { continue }
            stepPayload = item.payload
            stepHasPayload = true
            stepEvent = index
            log?.write("[\(topology.name)]: internal event '\(topology.eventNames[Int(index)])'")
            if try step(event: index) { try count() }
        }
    }

    /// Whether a state with eventless transitions is active (else none can be enabled).
    private func hasActiveEventlessSource() -> Bool {
        for state in topology.eventlessSources where current[Int(hot[Int(state)].parent)] == state {
            return true
        }
        return false
    }

    /// The shortest sequence of handlers that the end of the microstep trace repeats.
    private func repeatingCycle() -> [String] {
        repeatingCycle(microstepTrace.map { topology.handlerNames[$0] })
    }

    /// The shortest sequence that the end of `trace` repeats (its last 8 entries when none does).
    private func repeatingCycle(_ trace: [String]) -> [String] {
        for period in 1...max(1, min(64, trace.count / 2)) {
            let tail = trace.suffix(period)
            if tail.elementsEqual(trace.dropLast(period).suffix(period)) { return Array(tail) }
        }
        return Array(trace.suffix(8))
    }

    // MARK: The step

    /// One microstep for `event`: TBStateMachine's dispatch, or SCXML's selection with
    /// `ConflictResolution.documentOrder`. True when a handler fired.
    private func step(event: Int32) throws(StatechartError) -> Bool {
        resolvesConflicts ? try select(event: event) : try dispatch(region: 0, event: event)
    }

    /// TBStateMachine's `handleEvent:`: the active child gets the event first (every region
    /// of a parallel state, in order); only if none handled it does this region's active
    /// state try its own handlers, in registration order.
    private func dispatch(region: Int32, event: Int32) throws(StatechartError) -> Bool {
        let active = current[Int(region)]
        guard active >= 0 else { return false }
        let state = hot[Int(active)]
        switch state.kind {
        case .simple:
            break
        case .composite:
            if try dispatch(region: childRegions[Int(state.regionStart)], event: event) { return true }
        case .parallel:
            var handled = false
            for slot in Int(state.regionStart)..<Int(state.regionStart + state.regionCount) {
                if try dispatch(region: childRegions[slot], event: event) { handled = true }
            }
            if handled { return true }
        }
        let range = handlerRange(state: active, event: event)
        guard !range.isEmpty else { return false }
        if let log {
            log.write(
                "[\(topology.states[Int(active)].name)] will handle event '\(topology.eventNames[Int(event)])' data: \(describe(stepPayload))"
            )
        }
        for slot in range {
            if try fire(Int(handlerList[slot])) { return true }
        }
        return false
    }

    private func fire(_ index: Int) throws(StatechartError) -> Bool {
        let handler = handlers[index]
        if handler.hasGuard, !hooks.passes(guardOf: index, payload: stepPayload, event: stepEvent) { return false }
        if settles { lastFired = index }
        switch handler.effect {
        case .internalAction:
            logTransition(index, scope: topology.regions[Int(hot[Int(handler.source)].parent)].name)
            if handler.hasAction { hooks.runAction(of: index, payload: stepPayload, event: stepEvent) }
            if stepEvent < topology.userEventCount { notify(.internalTransition, state: handler.source) }
        case .transition(let change), .fork(let change):
            let target = directTargets[index]
            if target >= 0, log == nil {
                // A plain move between siblings (see `Topology.directTarget(of:)`): what
                // `perform` would do, without walking the scope.
                let region = Int(hot[Int(handler.source)].parent)
                notify(.exited, state: handler.source)
                current[region] = -1
                if handler.hasAction { hooks.runAction(of: index, payload: stepPayload, event: stepEvent) }
                current[region] = target
                notify(.entered, state: target)
                return true
            }
            logTransition(index, scope: topology.switchScopeNames[Int(change)])
            perform(change, handler: handler.hasAction ? index : nil)
        case .join(let join, let slot, let change):
            if joinsSimultaneously {
                guard allSourcesActive(Int(join)) else { return false }
                logTransition(index, scope: topology.switchScopeNames[Int(change)])
                perform(change, handler: nil)
                return true
            }
            logTransition(index, scope: topology.switchScopeNames[Int(change)])
            if arrive(at: Int(join), slot: Int(slot)) {
                // As in TBStateMachine, a join's own transition has no action.
                perform(change, handler: nil)
            }
        case .junction(let junctionIndex, let firstPath):
            let junction = Int(junctionIndex)
            let chosen = try junctionPath(junction)
            let change = firstPath + Int32(chosen)
            logTransition(index, scope: topology.switchScopeNames[Int(change)])
            perform(change, handler: handler.hasAction ? index : nil, junctionPath: (junction, chosen))
        case .history(let history, let remembered, let fallback):
            let hasRecord = hasRecord(history, afterExitsOf: remembered)
            let change = hasRecord ? remembered : fallback
            logTransition(index, scope: topology.switchScopeNames[Int(change)])
            perform(change, handler: handler.hasAction ? index : nil, history: hasRecord ? Int(history) : nil)
        }
        return true
    }

    // MARK: SCXML's selection

    /// A handler picked by SCXML's selection: the switch it takes (-1 for an internal
    /// transition, -2 for a join arrival that completes nothing) and what it chose.
    struct Pick {
        var handler: Int
        var change: Int32
        var junctionPath: (junction: Int, path: Int)? = nil
        var history: Int? = nil
    }

    /// W3C SCXML's `selectTransitions` and `microstep`: every active atomic state, in
    /// document order, picks the first enabled handler on its way up; conflicting picks
    /// are resolved; then every pick's exits, actions and entries run together.
    private func select(event: Int32) throws(StatechartError) -> Bool {
        picks.removeAll(keepingCapacity: true)
        try collect(region: 0, event: event)
        guard !picks.isEmpty else { return false }
        removeConflicts()
        microstep()
        return true
    }

    private func collect(region: Int32, event: Int32) throws(StatechartError) {
        let active = current[Int(region)]
        guard active >= 0 else { return }
        let state = hot[Int(active)]
        if state.kind == .simple {
            try pick(from: active, event: event)
            return
        }
        for slot in Int(state.regionStart)..<Int(state.regionStart + state.regionCount) {
            try collect(region: childRegions[slot], event: event)
        }
    }

    /// The first enabled handler for `event` of `atomic` or its nearest ancestor that has one.
    private func pick(from atomic: Int32, event: Int32) throws(StatechartError) {
        var state = atomic
        while true {
            let range = handlerRange(state: state, event: event)
            if !range.isEmpty, let log {
                log.write(
                    "[\(topology.states[Int(state)].name)] will handle event '\(topology.eventNames[Int(event)])' data: \(describe(stepPayload))"
                )
            }
            for slot in range {
                let index = Int(handlerList[slot])
                // Picked already for another atomic state: the same guards pass again.
                if picks.contains(where: { $0.handler == index }) { return }
                if let pick = try enabledPick(index) {
                    picks.append(pick)
                    return
                }
            }
            let owner = topology.regions[Int(hot[Int(state)].parent)].parent
            guard owner >= 0 else { return }
            state = owner
        }
    }

    private func enabledPick(_ index: Int) throws(StatechartError) -> Pick? {
        let handler = handlers[index]
        if handler.hasGuard, !hooks.passes(guardOf: index, payload: stepPayload, event: stepEvent) { return nil }
        switch handler.effect {
        case .internalAction:
            return Pick(handler: index, change: -1)
        case .transition(let change), .fork(let change):
            return Pick(handler: index, change: change)
        case .join(let join, let slot, let change):
            if joinsSimultaneously {
                return allSourcesActive(Int(join)) ? Pick(handler: index, change: change) : nil
            }
            return Pick(handler: index, change: arrive(at: Int(join), slot: Int(slot)) ? change : -2)
        case .junction(let junctionIndex, let firstPath):
            let junction = Int(junctionIndex)
            let chosen = try junctionPath(junction)
            return Pick(handler: index, change: firstPath + Int32(chosen), junctionPath: (junction, chosen))
        case .history(let history, let remembered, let fallback):
            let hasRecord = hasRecord(history, afterExitsOf: remembered)
            return Pick(
                handler: index,
                change: hasRecord ? remembered : fallback,
                history: hasRecord ? Int(history) : nil
            )
        }
    }

    /// Whether `history` will have a record when its state is entered by `change` (its
    /// switch to the history's owner): it has one now, or the switch exits the owner, whose
    /// exit makes one. W3C reads a history's value after the transition's exits, so a
    /// transition from the owner to its own history returns to what was active in it.
    private func hasRecord(_ history: Int32, afterExitsOf change: Int32) -> Bool {
        guard historyRecords[Int(history)].isEmpty else { return true }
        let owner = topology.histories[Int(history)].owner
        guard isActiveInStep(owner) else { return false }
        let entry = switches[Int(change)]
        for slot in Int(entry.scopeStart)..<Int(entry.scopeStart + entry.scopeCount) {
            let region = scopeRegions[slot]
            var state = owner
            while true {
                let parent = hot[Int(state)].parent
                if parent == region { return true }
                let above = topology.regions[Int(parent)].parent
                guard above >= 0 else { break }
                state = above
            }
        }
        return false
    }

    /// SCXML's `removeConflictingTransitions`: of two picks whose exit scopes overlap, one
    /// whose source is a descendant of the other's replaces it; otherwise the later goes.
    private func removeConflicts() {
        guard picks.count > 1 else { return }
        var kept: [Pick] = []
        kept.reserveCapacity(picks.count)
        for candidate in picks {
            var preempted = false
            var replaced: [Int] = []
            for (position, earlier) in kept.enumerated() where scopesOverlap(candidate.change, earlier.change) {
                if isState(
                    handlers[candidate.handler].source,
                    below: handlers[earlier.handler].source
                ) {
                    replaced.append(position)
                } else {
                    preempted = true
                    break
                }
            }
            guard !preempted else { continue }
            for position in replaced.reversed() { kept.remove(at: position) }
            kept.append(candidate)
        }
        picks = kept
    }

    /// Whether two switches exit states of one region (one scope at or inside the other).
    private func scopesOverlap(_ first: Int32, _ second: Int32) -> Bool {
        guard first >= 0, second >= 0 else { return false }
        let a = switches[Int(first)]
        let b = switches[Int(second)]
        for i in Int(a.scopeStart)..<Int(a.scopeStart + a.scopeCount) {
            let left = scopeRegions[i]
            for j in Int(b.scopeStart)..<Int(b.scopeStart + b.scopeCount) {
                let right = scopeRegions[j]
                if left == right || isRegion(left, inside: right) || isRegion(right, inside: left) { return true }
            }
        }
        return false
    }

    /// Whether `state` is a proper descendant of `ancestor`.
    private func isState(_ state: Int32, below ancestor: Int32) -> Bool {
        var current = state
        while true {
            let owner = topology.regions[Int(hot[Int(current)].parent)].parent
            guard owner >= 0 else { return false }
            if owner == ancestor { return true }
            current = owner
        }
    }

    /// Runs the picks together: every exit (reverse document order), every action (in
    /// pick order), every entry (document order).
    private func microstep() {
        pickScopes.removeAll(keepingCapacity: true)
        for pick in picks where pick.change >= 0 {
            let entry = switches[Int(pick.change)]
            for slot in Int(entry.scopeStart)..<Int(entry.scopeStart + entry.scopeCount) {
                pickScopes.append((scopeRegions[slot], pick.change))
            }
        }
        // Regions are numbered in document order (pre-order), and scopes of kept picks
        // are disjoint subtrees: exiting the later subtree first is reverse document order.
        pickScopes.sort { $0.region < $1.region }
        // An exited state leaves the configuration before the transitions' content runs
        // (W3C: exit, then content, then entry), so `In()` no longer sees it.
        for scope in pickScopes.reversed() {
            let active = current[Int(scope.region)]
            if active >= 0 { exitState(active) }
            current[Int(scope.region)] = -1
        }
        for pick in picks {
            if settles { lastFired = pick.handler }
            let handler = handlers[pick.handler]
            if pick.change >= 0 {
                logTransition(pick.handler, scope: topology.switchScopeNames[Int(pick.change)])
            } else if pick.change == -1 {
                logTransition(pick.handler, scope: topology.regions[Int(hot[Int(handler.source)].parent)].name)
                if stepEvent < topology.userEventCount { notify(.internalTransition, state: handler.source) }
            }
            if handler.hasAction, pick.change != -2, !isJoin(handler) {
                hooks.runAction(of: pick.handler, payload: stepPayload, event: stepEvent)
            }
            if let (junction, path) = pick.junctionPath {
                hooks.runJunctionAction(junction, path: path, payload: stepPayload, event: stepEvent)
            }
        }
        for pick in picks where pick.change >= 0 {
            if let history = pick.history { restoreRecord(of: history) }
            applyHistories(of: pick.change)
        }
        for scope in pickScopes { enterRegion(scope.region, plan: scope.change) }
        for pick in picks where pick.change >= 0 {
            if let history = pick.history { clearRestoreTargets(of: history) }
            clearHistories(of: pick.change)
        }
    }

    private func isJoin(_ handler: HandlerNode) -> Bool {
        if case .join = handler.effect { return true }
        return false
    }

    /// The first outgoing path of `junction` whose guard passes.
    private func junctionPath(_ junction: Int) throws(StatechartError) -> Int {
        guard let chosen = hooks.junctionPath(junction, payload: stepPayload, event: stepEvent) else {
            throw StatechartError.noOutgoingJunctionPath(
                junction: topology.junctionNames[junction],
                event: topology.eventNames[Int(stepEvent)]
            )
        }
        return chosen
    }

    /// Whether `region` lies (at any depth) inside `outer`.
    private func isRegion(_ region: Int32, inside outer: Int32) -> Bool {
        var current = region
        while true {
            let owner = topology.regions[Int(current)].parent
            guard owner >= 0 else { return false }
            current = hot[Int(owner)].parent
            if current == outer { return true }
        }
    }

    /// Whether every source of `join` is active (`JoinSemantics.simultaneous`).
    private func allSourcesActive(_ join: Int) -> Bool {
        topology.joins[join].sources.allSatisfy { current[Int(hot[Int($0)].parent)] == $0 }
    }

    /// Records a join source; true when every source has arrived (the progress resets).
    private func arrive(at join: Int, slot: Int) -> Bool {
        if joinProgress[join][slot] { return false }
        joinProgress[join][slot] = true
        joinArrivals[join] += 1
        dirtyExtras.insert(.joins)
        guard joinArrivals[join] == topology.joins[join].sourceCount else { return false }
        resetJoin(join)
        return true
    }

    private func resetJoin(_ join: Int) {
        guard joinArrivals[join] > 0 else { return }
        for slot in joinProgress[join].indices { joinProgress[join][slot] = false }
        joinArrivals[join] = 0
        dirtyExtras.insert(.joins)
    }

    /// Exits the scope's active states deeply, runs the handler's action (then, for a
    /// junction, the chosen path's), and enters down to the target(s).
    private func perform(_ change: Int32, handler: Int?, junctionPath: (Int, Int)? = nil, history: Int? = nil) {
        let entry = switches[Int(change)]
        let scope = Int(entry.scopeStart)..<Int(entry.scopeStart + entry.scopeCount)
        for slot in scope {
            let active = current[Int(scopeRegions[slot])]
            if active >= 0 { exitState(active) }
            // Left before the action runs, as in a microstep (see `microstep`).
            current[Int(scopeRegions[slot])] = -1
        }
        if let handler { hooks.runAction(of: handler, payload: stepPayload, event: stepEvent) }
        if let (junction, path) = junctionPath {
            hooks.runJunctionAction(junction, path: path, payload: stepPayload, event: stepEvent)
        }
        // The owner's exit has just recorded its history; the entry below follows it.
        if history == nil, entry.historyCount == 0, log == nil, hasStaticEntry[Int(change)] {
            // Nothing about the entries depends on the run: take them from the table.
            for slot in Int(entryStart[Int(change)])..<Int(entryStart[Int(change) + 1]) {
                let state = entryStates[slot]
                current[Int(entryRegions[slot])] = state
                enterOnly(state)
            }
            return
        }
        if let history { restoreRecord(of: history) }
        if topology.hasHistories { applyHistories(of: change) }
        for slot in scope {
            enterRegion(scopeRegions[slot], plan: change)
        }
        if let history { clearRestoreTargets(of: history) }
        if topology.hasHistories { clearHistories(of: change) }
    }

    /// Makes the next entries follow what `history` recorded.
    private func restoreRecord(of history: Int) {
        for (position, slot) in topology.historyRegionSlots(history).enumerated() {
            restoreTargets[Int(topology.historyRegions[slot])] = historyRecords[history][position]
        }
    }

    /// Undoes ``restoreRecord(of:)``.
    private func clearRestoreTargets(of history: Int) {
        for slot in topology.historyRegionSlots(history) { restoreTargets[Int(topology.historyRegions[slot])] = -1 }
    }

    /// For a switch that targets history pseudo states: makes the entries follow each
    /// history's record or, when it has none, its default transition (whose content runs
    /// once the owner is entered).
    private func applyHistories(of change: Int32) {
        let entry = switches[Int(change)]
        guard entry.historyCount > 0 else { return }
        for slot in Int(entry.historyStart)..<Int(entry.historyStart + entry.historyCount) {
            let history = Int(topology.switchHistories[slot])
            if !historyRecords[history].isEmpty {
                restoreRecord(of: history)
                continue
            }
            let node = topology.histories[history]
            for (region, state) in zip(node.defaultRegions, node.defaultStates) { restoreTargets[Int(region)] = state }
            if node.hasDefaultAction { pendingHistoryDefaults.append(Int32(history)) }
        }
    }

    private func clearHistories(of change: Int32) {
        let entry = switches[Int(change)]
        guard entry.historyCount > 0 else { return }
        for slot in Int(entry.historyStart)..<Int(entry.historyStart + entry.historyCount) {
            let history = Int(topology.switchHistories[slot])
            clearRestoreTargets(of: history)
            for region in topology.histories[history].defaultRegions { restoreTargets[Int(region)] = -1 }
        }
        pendingHistoryDefaults.removeAll(keepingCapacity: true)
    }

    /// Runs the content of the default transitions of histories owned by `owner`, which
    /// has just been entered.
    private func runHistoryDefaults(owner: Int32) {
        var index = 0
        while index < pendingHistoryDefaults.count {
            let history = pendingHistoryDefaults[index]
            guard topology.histories[Int(history)].owner == owner else {
                index += 1
                continue
            }
            pendingHistoryDefaults.remove(at: index)
            hooks.runHistoryDefaultAction(of: history, payload: stepPayload, event: stepEvent)
        }
    }

    /// Enters `region`: the state switch `plan` names for it, else its initial state.
    /// `plan` is -1 for a plain default entry.
    private func enterRegion(_ region: Int32, plan: Int32) {
        let explicit = plan >= 0 ? explicitChild(of: region, in: plan) : nil
        var target = explicit ?? regionInitial[Int(region)]
        if explicit == nil {
            if topology.hasHistories, restoreTargets[Int(region)] >= 0 {
                target = restoreTargets[Int(region)]
            } else if topology.hasRegionDefaults, topology.regionDefaults[Int(region)] >= 0 {
                enterThroughInitialTransition(region)
                return
            }
        }
        current[Int(region)] = target
        enterState(target, plan: plan)
    }

    /// SCXML's default entry: the initial transition's content runs after the owner's
    /// entry, then its targets (states anywhere below, or histories) are entered.
    private func enterThroughInitialTransition(_ region: Int32) {
        let change = topology.regionDefaults[Int(region)]
        if topology.hasInitialActions { hooks.runInitialAction(of: region, payload: stepPayload, event: stepEvent) }
        applyHistories(of: change)
        let owner = topology.regions[Int(region)].parent
        if topology.hasHistoryDefaultActions, owner >= 0 { runHistoryDefaults(owner: owner) }
        var target = explicitChild(of: region, in: change) ?? regionInitial[Int(region)]
        if topology.hasHistories, restoreTargets[Int(region)] >= 0,
            explicitChild(of: region, in: change) == nil
        {
            target = restoreTargets[Int(region)]
        }
        current[Int(region)] = target
        enterState(target, plan: change)
        clearHistories(of: change)
    }

    /// A final state was entered in `region`: the root region finishes the chart; a state
    /// whose regions are all in final states raises its done event (if anything handles it).
    private func regionCompleted(_ region: Int32) {
        let owner = topology.regions[Int(region)].parent
        guard owner >= 0 else {
            finished = true
            dirtyExtras.insert(.finished)
            cancelSends { _ in true }
            return
        }
        guard topology.doneEvents[Int(owner)] >= 0 || topology.raisesEveryDoneEvent else { return }
        let state = hot[Int(owner)]
        for slot in Int(state.regionStart)..<Int(state.regionStart + state.regionCount) {
            let active = current[Int(childRegions[slot])]
            guard active >= 0, hot[Int(active)].isFinal else { return }
        }
        raiseDone(owner)
        // SCXML: a parallel state whose children are all in final states completes too.
        guard topology.completesThroughChildren else { return }
        let parallel = topology.regions[Int(state.parent)].parent
        if parallel >= 0, hot[Int(parallel)].kind == .parallel, isInFinalState(parallel) {
            raiseDone(parallel)
        }
    }

    private func raiseDone(_ state: Int32) {
        let done = topology.doneEvents[Int(state)]
        let name = topology.raisesEveryDoneEvent ? "done.state.\(topology.states[Int(state)].name)" : nil
        internalQueue.append(InternalEvent(index: done, name: name, payload: nil))
    }

    /// SCXML's `isInFinalState`: a composite state whose active child is final, or a
    /// parallel state whose regions' states all are in final states.
    private func isInFinalState(_ index: Int32) -> Bool {
        let state = hot[Int(index)]
        switch state.kind {
        case .simple:
            return false
        case .composite:
            let active = current[Int(childRegions[Int(state.regionStart)])]
            return active >= 0 && hot[Int(active)].isFinal
        case .parallel:
            for slot in Int(state.regionStart)..<Int(state.regionStart + state.regionCount) {
                let active = current[Int(childRegions[slot])]
                guard active >= 0, hot[Int(active)].isFinal || isInFinalState(active) else { return false }
            }
            return true
        }
    }

    /// Starts what an active state runs besides its blocks: its delayed transitions' timers
    /// (when restoring, only those in `remaining`, each for its remaining time) and its task.
    private func activate(_ index: Int32, remaining: [Int32: Duration]? = nil) {
        generations[Int(index)] &+= 1
        let generation = generations[Int(index)]
        let state = hot[Int(index)]
        for slot in Int(state.timerStart)..<Int(state.timerStart + state.timerCount) {
            let timer = topology.stateTimers[slot]
            // Restoring: only the timers that were pending when the snapshot was taken.
            guard let delay = remaining == nil ? topology.timers[Int(timer)].delay : remaining?[timer] else { continue }
            let armed = ArmedTimer(engine: self, timer: timer, generation: generation, selfFed: delay <= .zero)
            let (handle, deadline) =
                manualClock?.scheduleReportingDeadline(after: delay) { [armed] in armed.fire() }
                ?? (clock.schedule(after: delay) { [armed] in armed.fire() }, clock.now + delay)
            pendingTimers[Int(timer)] = handle
            timerDeadlines[Int(timer)] = deadline
            dirtyExtras.insert(.timers)
        }
        if state.hasTask {
            tasks[Int(index)] = hooks.startTask(of: index, payload: stepPayload, generation: generation)
        }
    }

    /// Records the state's histories and stops its timers and task; called before its
    /// children exit, while the configuration below it is still active.
    private func deactivate(_ index: Int32) {
        let state = hot[Int(index)]
        for slot in Int(state.historyStart)..<Int(state.historyStart + state.historyCount) {
            let history = Int(topology.stateHistories[slot])
            let regions = topology.historyRegionSlots(history)
            if historyRecords[history].count == regions.count {
                // In place: a record, once made, keeps its size (and its buffer).
                historyRecords[history].withUnsafeMutableBufferPointer { record in
                    for (position, slot) in regions.enumerated() {
                        record[position] = current[Int(topology.historyRegions[slot])]
                    }
                }
            } else {
                historyRecords[history] = regions.map { current[Int(topology.historyRegions[$0])] }
            }
            dirtyExtras.insert(.histories)
        }
        for slot in Int(state.timerStart)..<Int(state.timerStart + state.timerCount) {
            let timer = Int(topology.stateTimers[slot])
            pendingTimers[timer]?.cancel()
            pendingTimers[timer] = nil
            timerDeadlines[timer] = nil
            dirtyExtras.insert(.timers)
        }
        if state.hasTask {
            tasks[Int(index)]?.cancel()
            tasks[Int(index)] = nil
        }
    }

    /// The slots in `handlerList` of the handlers `state` has for `event`.
    @inline(__always)
    private func handlerRange(state: Int32, event: Int32) -> Range<Int> {
        let slot = Int(state) * eventCount + Int(event)
        return Int(handlerStart[slot])..<Int(handlerStart[slot + 1])
    }

    /// The state switch `change` enters in `region` instead of its initial state, if any.
    @inline(__always)
    private func explicitChild(of region: Int32, in change: Int32) -> Int32? {
        let entry = switches[Int(change)]
        for slot in Int(entry.planStart)..<Int(entry.planStart + entry.planCount) where planRegions[slot] == region {
            return planStates[slot]
        }
        return nil
    }

    /// Whether an active state defers `event`.
    private func isDeferred(_ event: Int32) -> Bool {
        isDeferred(event, below: 0)
    }

    private func isDeferred(_ event: Int32, below region: Int32) -> Bool {
        let active = current[Int(region)]
        guard active >= 0 else { return false }
        if topology.states[Int(active)].deferred.contains(event) { return true }
        let state = hot[Int(active)]
        for slot in Int(state.regionStart)..<Int(state.regionStart + state.regionCount)
        where isDeferred(event, below: childRegions[slot]) {
            return true
        }
        return false
    }

    private func enterState(_ index: Int32, plan: Int32) {
        log?.write("\tEnter '\(topology.states[Int(index)].name)' data: \(describe(stepPayload))")
        enterOnly(index)
        let state = hot[Int(index)]
        switch state.kind {
        case .simple:
            break
        case .composite:
            enterRegion(childRegions[Int(state.regionStart)], plan: plan)
        case .parallel:
            for slot in Int(state.regionStart)..<Int(state.regionStart + state.regionCount) {
                let inner = childRegions[slot]
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
    private func enterOnly(_ index: Int32) {
        let state = hot[Int(index)]
        notify(.entered, state: index)
        if state.hasEnter { hooks.enter(index, payload: stepPayload, event: stepEvent) }
        if topology.hasHistoryDefaultActions, !pendingHistoryDefaults.isEmpty { runHistoryDefaults(owner: index) }
        if state.hasExtras {
            activate(index)
            if state.isFinal { regionCompleted(state.parent) }
        }
    }

    private func exitState(_ index: Int32) {
        let state = hot[Int(index)]
        if state.hasExtras { deactivate(index) }
        let regions = Int(state.regionStart)..<Int(state.regionStart + state.regionCount)
        if reverseRegionExit {
            for slot in regions.reversed() { tearDownRegion(childRegions[slot]) }
        } else {
            for slot in regions { tearDownRegion(childRegions[slot]) }
        }
        for slot in Int(state.joinStart)..<Int(state.joinStart + state.joinCount) {
            // Semantics and decisions, "Partial joins reset on exit": leaving the join's region drops it.
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

    // MARK: Sends (SCXML's <send>, <cancel>, idlocation)

    /// An event sent with a delay, waiting for its timer.
    struct PendingSend {
        let sequence: UInt64
        let request: StepRequest
        let name: String
        let id: String?
        let timer: StatechartTimer
        let deadline: Duration
    }

    /// Queues `request` (the event `name`) at the back of the queue, now or after `delay`
    /// on the chart's clock; `id` lets ``cancelSends(matching:)`` find it. Drainer only.
    /// `armed` arms a timer even for no delay (a restored send that was already due).
    /// - Returns: false, sending nothing, when `StatechartLimits.maxPendingSends` delayed
    ///   sends are pending already.
    @discardableResult
    func schedule(_ request: StepRequest, name: String, delay: Duration, id: String?, armed: Bool = false) -> Bool {
        guard delay > .zero || armed else {
            enqueue(QueueItem(request: request, payload: nil, completion: nil, selfFed: true))
            return true
        }
        guard pendingSends.count < StatechartLimits.maxPendingSends else { return false }
        let sequence = nextSendSequence
        nextSendSequence += 1
        let timer = clock.schedule(after: delay) { [weak self] in
            _ = self?.submit { _ in QueueItem(request: .sendDue(sequence), payload: nil, completion: nil) }
        }
        pendingSends.append(
            PendingSend(
                sequence: sequence,
                request: request,
                name: name,
                id: id,
                timer: timer,
                deadline: clock.now + delay
            )
        )
        dirtyExtras.insert(.sends)
        return true
    }

    /// Cancels the pending sends `matching` accepts (by their id). Drainer only.
    func cancelSends(matching: (String?) -> Bool) {
        pendingSends.removeAll { send in
            guard matching(send.id) else { return false }
            send.timer.cancel()
            dirtyExtras.insert(.sends)
            return true
        }
    }

    /// A new send id stored in the `idlocation` slot `slot`. Drainer only.
    func generateSendID(into slot: String) -> String {
        generatedSendIDCount += 1
        let id = "send.\(generatedSendIDCount)"
        sendIDSlots[slot] = id
        dirtyExtras.insert(.sends)
        return id
    }

    /// Stores `id` in the `idlocation` slot `slot` (an invocation's generated id).
    /// Drainer only.
    func storeID(_ id: String, inSlot slot: String) {
        sendIDSlots[slot] = id
        dirtyExtras.insert(.sends)
    }

    /// The send id last generated into `slot`. Drainer only.
    func sendID(inSlot slot: String) -> String? { sendIDSlots[slot] }

    /// Whether `state` is active in the configuration as the running step has left it so
    /// far (SCXML's `In()`). Drainer only.
    func isActiveInStep(_ state: Int32) -> Bool {
        var current = state
        while true {
            let region = hot[Int(current)].parent
            guard self.current[Int(region)] == current else { return false }
            let owner = topology.regions[Int(region)].parent
            guard owner >= 0 else { return true }
            current = owner
        }
    }

    /// Stops the chart where it is, without running exit blocks: timers, tasks and sends
    /// are cancelled, queued events dropped, the configuration and histories forgotten;
    /// a later `start` begins afresh (SCXML's machine stopping on an error). Drainer only.
    func halt() {
        for index in pendingTimers.indices {
            pendingTimers[index]?.cancel()
            pendingTimers[index] = nil
            timerDeadlines[index] = nil
        }
        for index in tasks.indices {
            tasks[index]?.cancel()
            tasks[index] = nil
        }
        cancelSends { _ in true }
        for region in current.indices { current[region] = -1 }
        for index in historyRecords.indices { historyRecords[index] = [] }
        for join in joinProgress.indices { resetJoin(join) }
        started = false
        finished = false
        internalQueue.removeAll()
        deferredItems.removeAll()
        dirtyExtras = .all
        let dropped = pump.withLock { pump -> [QueueItem] in
            let dropped = pump.removePendingEvents()
            queueState.subtract(2 * dropped.count, ordering: .relaxed)
            return dropped
        }
        publish()
        for item in dropped { item.completion?.deliver(.success(.discarded)) }
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

/// A fixed number of values the step reads all the time: the drainer's (one per region,
/// state or timer; the configuration, say) and the engine's copies of the topology's hottest
/// tables. A buffer rather than an array, because an array in a class's property costs a
/// retain, a release and a uniqueness check per write, and a bounds check per read. Owned
/// by its engine, which releases it; the drainer's are drainer-confined like its state.
struct Slots<Element> {
    let buffer: UnsafeMutableBufferPointer<Element>

    init(repeating value: Element, count: Int) {
        buffer = .allocate(capacity: count)
        buffer.initialize(repeating: value)
    }

    subscript(position: Int) -> Element {
        get { buffer[position] }
        nonmutating set { buffer[position] = newValue }
    }

    var indices: Range<Int> { buffer.indices }

    /// A copy of `values`.
    init(copying values: [Element]) {
        buffer = .allocate(capacity: values.count)
        _ = buffer.initialize(from: values)
    }

    /// Destroys the values and frees the buffer.
    func release() {
        _ = buffer.deinitialize()
        buffer.deallocate()
    }
}

/// What a delayed transition's timer delivers when it fires: its timeout, with the
/// generation of the state it was armed in. One object per armed timer, captured alone by
/// the clock's closure (a closure of one reference needs no context of its own).
private final class ArmedTimer: Sendable {
    weak let engine: StatechartEngine?
    let timer: Int32
    let generation: UInt64
    let selfFed: Bool

    init(engine: StatechartEngine, timer: Int32, generation: UInt64, selfFed: Bool) {
        self.engine = engine
        self.timer = timer
        self.generation = generation
        self.selfFed = selfFed
    }

    /// Queues the timeout (and runs it, if the chart is idle).
    func fire() {
        _ = engine?.submit { _ in
            QueueItem(request: .timeout(timer), payload: nil, completion: nil, generation: generation, selfFed: selfFed)
        }
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

/// The parts of a snapshot besides the configuration, as flags of what changed.
struct ExtrasParts: OptionSet {
    let rawValue: UInt8

    /// Whether a final state of the root region is active (published in `runState`).
    static let finished = ExtrasParts(rawValue: 1 << 0)
    static let histories = ExtrasParts(rawValue: 1 << 1)
    static let joins = ExtrasParts(rawValue: 1 << 2)
    static let timers = ExtrasParts(rawValue: 1 << 3)
    /// Delayed sends, `idlocation` slots and the count of generated send ids.
    static let sends = ExtrasParts(rawValue: 1 << 4)
    static let all: ExtrasParts = [.finished, .histories, .joins, .timers, .sends]
}
