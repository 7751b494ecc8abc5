import Foundation

// The drainer's loop: one run-to-completion step per queued request, each followed by
// settling (eventless transitions and internal events) and by the deferred events the
// step freed.

extension StatechartEngine {
    /// Runs queued items one run-to-completion step at a time until the queue is empty,
    /// then gives up the drainer role. Must be called only by the drainer.
    func drain(first: QueueItem?) -> Result<StatechartStepOutcome, StatechartError>? {
        guard raisesInternally else { return drainQueue(first: first) }
        drainingThread.store(Self.currentThread, ordering: .releasing)
        defer { leaveDrainingThread() }
        return drainQueue(first: first)
    }

    /// Whether a final state of the root region is active, as the running step left it.
    /// Drainer only (a step observer's `stepFinished`).
    package var isFinishedInStep: Bool { finished }

    /// Clears `drainingThread` unless the next drainer, on another thread, has already
    /// set it (the role is given up before this runs).
    func leaveDrainingThread() {
        _ = drainingThread.compareExchange(expected: Self.currentThread, desired: 0, ordering: .releasing)
    }

    /// An identifier of the calling thread, unique among living threads.
    static var currentThread: UInt {
        UInt(pthread_self())
    }

    /// Runs `first` (if any), then the queue until it is empty; returns the outcome of the
    /// item whose completion is `.inline`.
    private func drainQueue(first: QueueItem?) -> Result<StatechartStepOutcome, StatechartError>? {
        var inlineResult: Result<StatechartStepOutcome, StatechartError>?
        var loopFailure: StatechartError?
        var published = false
        if let first {
            let sink = queue.debugSink
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
    func drainRest(
        loopFailure: inout StatechartError?,
        published: Bool,
        inlineResult: inout Result<StatechartStepOutcome, StatechartError>?
    ) {
        var published = published
        while true {
            if !published { publish() }
            if queue.releaseIfIdle() { break }
            let (item, sink) = queue.popFirst()
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
        } else {
            endSelfFedRun()
        }
        return runStep(item, sink: sink)
    }

    /// The name a trace gives the event of `item`.
    private func eventName(of item: QueueItem) -> String {
        switch item.request {
        case .event(let index, let name): name ?? (index >= 0 ? topology.eventNames[Int(index)] : "?")
        case .timeout(let timer): topology.eventNames[Int(topology.timers[Int(timer)].event)]
        case .sendDue(let sequence): sends?.name(of: sequence) ?? "send"
        case .start: "start"
        case .stop: "stop"
        case .halt: "halt"
        }
    }

    /// Publishes the step and tells the hooks it ended, so that their observer reads the
    /// configuration the step left; returns whether it published.
    func finishTracedStep(_ result: Result<StatechartStepOutcome, StatechartError>) -> Bool {
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
    func replayDeferred() {
        guard !isDeferringConfiguration() else { return }
        var index = 0
        while index < deferredItems.count {
            guard case .event(let event, _) = deferredItems[index].request, !isDeferred(event) else {
                index += 1
                continue
            }
            let item = deferredItems.remove(at: index)
            let sink = queue.debugSink
            recordDeferringConfiguration()
            _ = runStep(item, sink: sink)
            if !isDeferringConfiguration() { index = 0 }
        }
        recordDeferringConfiguration()
    }

    /// Whether the configuration is `deferringConfiguration`.
    private func isDeferringConfiguration() -> Bool {
        guard deferringConfiguration.count == topology.regions.count else { return false }
        for region in 0..<slots.regionCount where slots.current[region] != deferringConfiguration[region] {
            return false
        }
        return true
    }

    /// Records the configuration as the one in which every kept event is deferred.
    private func recordDeferringConfiguration() {
        deferringConfiguration.removeAll(keepingCapacity: true)
        for region in 0..<slots.regionCount { deferringConfiguration.append(slots.current[region]) }
    }

    /// Runs `item`'s step; with a debug sink, the step's lines go to a fresh log, with its
    /// duration and the events still queued.
    private func runStep(
        _ item: QueueItem,
        sink: StatechartDebugSink?
    ) -> Result<StatechartStepOutcome, StatechartError> {
        guard let sink else { return runRequest(item) }
        let log = DebugLog(sink: sink)
        self.log = log
        defer { self.log = nil }
        let clock = ContinuousClock()
        let start = clock.now
        let result = runRequest(item)
        let elapsed = clock.now - start
        if item.isEvent {
            let pending = queue.pendingEventNames(topology)
            log.stepFinished(root: topology.name, duration: elapsed, pending: pending)
        }
        if case .failure(let error) = result { log.write("[\(topology.name)]: error: \(error)") }
        log.flush()
        return result
    }

    /// Runs a queued request (its payload becomes the step's) and returns its outcome.
    private func runRequest(_ item: QueueItem) -> Result<StatechartStepOutcome, StatechartError> {
        setStepPayload(item.payload)
        do throws(StatechartError) {
            switch item.request {
            case .event(let index, let name):
                return .success(
                    try runEvent(index, name: name, source: item.sourceState, item.generation)
                )
            case .timeout(let timer):
                return .success(try runTimeout(timer, generation: item.generation))
            case .sendDue(let sequence):
                guard let due = sends?.takeDue(sequence) else { return .success(.discarded) }
                return runRequest(QueueItem(request: due.request, payload: due.payload, completion: nil))
            case .start:
                return .success(try runStart())
            case .stop:
                return .success(runStop())
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
    /// eventless transitions and internal events until the chart settles. Inlined into the
    /// idle fast path, which is most steps.
    @inline(__always)
    func runEvent(
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
            hooks.eventStarted(name ?? topology.eventNames[Int(index)], payload: blockPayload, external: true)
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

    /// ``runEvent(_:name:source:_:)`` for an engine that `runsPlainly`, on the idle fast
    /// path (no debug log, no task result): what `runEvent` does there, without testing for
    /// what such an engine never does (report the event, defer it, settle).
    @inline(__always)
    func runPlainEvent(_ index: Int32) throws(StatechartError) -> StatechartStepOutcome {
        stepEvent = index
        guard started else { return .discarded }
        guard index >= 0 else { return .unhandled }
        return try step(event: index) ? .handled : .unhandled
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

    /// Enters the initial states, deeply, and settles.
    @inline(never)
    private func runStart() throws(StatechartError) -> StatechartStepOutcome {
        stepEvent = -1
        guard !started else { return .unhandled }
        log?.write("[\(topology.name)] setup data: \(describe(stepPayload))")
        started = true
        enterRegion(0, plan: -1)
        try settle()
        return .handled
    }

    /// Exits the active states (children first) and forgets the run: histories, sends,
    /// internal and deferred events.
    @inline(never)
    private func runStop() -> StatechartStepOutcome {
        stepEvent = -1
        guard started else { return .unhandled }
        exitConfiguration()
        started = false
        finished = false
        sends?.cancelAll()
        internalQueue.removeAll()
        deferredItems.removeAll()
        forgetHistoryRecords()
        dirtyExtras = .all
        return .handled
    }

    /// The timer of delayed transition `timer` fired: its synthetic event is dispatched,
    /// unless its state has been left (or left and re-entered) since the timer started.
    @inline(never)
    private func runTimeout(_ timer: Int32, generation: UInt64) throws(StatechartError) -> StatechartStepOutcome {
        let node = topology.timers[Int(timer)]
        guard started, isCurrent(node.state, generation: generation) else { return .discarded }
        pendingTimers[Int(timer)] = nil
        slots.timerDeadlines[Int(timer)] = nil
        dirtyExtras.insert(.timers)
        stepEvent = node.event
        log?.write("[\(topology.name)]: attempt to handle event '\(topology.eventNames[Int(node.event)])' data: nil")
        let handled = try step(event: node.event)
        try settle()
        return handled ? .handled : .unhandled
    }

    /// Whether `state` is active and has not been re-entered since `generation`.
    private func isCurrent(_ state: Int32, generation: UInt64) -> Bool {
        slots.current[Int(tables.hot[Int(state)].parent)] == state && slots.generations[Int(state)] == generation
    }

    /// Takes eventless transitions until none is enabled, then processes the internal
    /// queue one event at a time, each followed by eventless transitions again (SCXML's
    /// macrostep). Fails after `maxMicrosteps` microsteps, naming the repeating transitions.
    /// Once a microstep enters a final state of the root region, nothing more is taken
    /// (W3C's macrostep ends when the interpreter stops running) and, under
    /// `TopLevelFinal.runsExitBlocks`, the final configuration's exit blocks run.
    private func settle() throws(StatechartError) {
        if finishing { return exitFinalConfiguration() }
        let eventless = topology.eventlessEvent
        guard eventless >= 0 || !internalQueue.isEmpty else { return }
        var microsteps = 0
        if !microstepTrace.isEmpty { microstepTrace.removeAll(keepingCapacity: true) }
        while true {
            if eventless >= 0 {
                stepEvent = eventless
                while hasActiveEventlessSource() {
                    guard try step(event: eventless) else { break }
                    if finishing { return exitFinalConfiguration() }
                    try count(&microsteps)
                }
            }
            guard !internalQueue.isEmpty else { return }
            // The only one (a done event, usually) is also the last: no elements to move up.
            let item = internalQueue.count == 1 ? internalQueue.removeLast() : internalQueue.removeFirst()
            let index = item.index
            if reportsEventStarts {
                hooks.eventStarted(item.name ?? topology.eventNames[Int(index)], payload: item.payload, external: false)
            }
            guard index >= 0 else { continue }
            if item.payload != nil {
                setStepPayload(item.payload)
            } else if stepHasPayload {
                // The existential is written (a value-witness call) only if it held a payload.
                stepPayload = nil
                stepHasPayload = false
            }
            stepEvent = index
            log?.write("[\(topology.name)]: internal event '\(topology.eventNames[Int(index)])'")
            if try step(event: index) {
                if finishing { return exitFinalConfiguration() }
                try count(&microsteps)
            }
        }
    }

    /// A step not fed by the chart itself ends a run of self-fed ones (see `maxSelfFedSteps`).
    @inline(__always)
    func endSelfFedRun() {
        guard selfFedRun > 0 else { return }
        selfFedRun = 0
        selfFedNames.removeAll(keepingCapacity: true)
    }

    /// Counts a microstep of ``settle()``; past `maxMicrosteps`, fails naming the repeating
    /// handlers. (A method taking the count, not a function nested in `settle`: a captured
    /// local is checked for exclusive access at run time on every use.)
    @inline(__always)
    private func count(_ microsteps: inout Int) throws(StatechartError) {
        microsteps += 1
        // Only the last microsteps can name the cycle (`repeatingCycle(_:)` reads at most
        // 128 entries), so an ordinary macrostep records none.
        if microsteps > maxMicrosteps - 128 { microstepTrace.append(lastFired) }
        if microsteps >= maxMicrosteps { try failLoop() }
    }

    /// Ends a macrostep that does not settle: drops the internal queue and throws.
    @inline(never)
    private func failLoop() throws(StatechartError) -> Never {
        internalQueue.removeAll()
        throw StatechartError.eventlessLoop(limit: maxMicrosteps, cycle: repeatingCycle())
    }

    /// Whether a state with eventless transitions is active (else none can be enabled).
    private func hasActiveEventlessSource() -> Bool {
        for state in topology.eventlessSources where slots.current[Int(tables.hot[Int(state)].parent)] == state {
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
}
