import Foundation

// How callers hand requests to the engine, and who runs them: a caller that finds the chart
// idle runs the step on its own thread (the drainer); others only queue (see `EventQueue`).

extension StatechartEngine {
    /// Queues `item` without running anything on the caller's thread; when the queue
    /// was idle, a new task drains it.
    func enqueue(_ item: QueueItem) {
        if queue.append(item) {
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
    package func submit(
        _ makeItem: (_ drainsHere: Bool) -> QueueItem
    ) -> Result<StatechartStepOutcome, StatechartError>? {
        // An idle, empty queue lets the caller run its item directly, without queueing it.
        if queue.claimIfIdle() { return drain(first: makeItem(true)) }
        return queue.append(making: makeItem) ? drain(first: nil) : nil
    }

    /// The fast path of `handle` and `send`: when no step runs and nothing is queued, the
    /// caller runs its event's step at once, with no queue item, no completion and no
    /// lock, then drains whatever that step queued. Returns nil, having done nothing, when
    /// the chart is busy or has a debug sink, so that the caller queues the event instead.
    ///
    /// `name` is the name traces give an event the table does not hold as is (see
    /// `StepRequest.event`).
    @usableFromInline
    package func runIfIdle(
        event index: Int32,
        name: String?,
        payload: (any Sendable)?
    ) throws(StatechartError) -> StatechartStepOutcome? {
        try runIdleStep(index, name: name) {
            setStepPayload(payload)
        }
    }

    /// ``runIfIdle(event:name:payload:)`` for the most common event: one the table holds,
    /// without a payload. Separate so that the step passes no optional name or existential
    /// payload around (copying and destroying those costs value-witness calls).
    @usableFromInline
    package func runIfIdle(event index: Int32) throws(StatechartError) -> StatechartStepOutcome? {
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
        guard !queue.hasDebugSink, queue.claimIfIdle() else { return nil }
        if runsPlainly {
            endSelfFedRun()
            setPayload()
            let outcome: StatechartStepOutcome
            do throws(StatechartError) {
                outcome = try runPlainEvent(index)
            } catch {
                try failIdleStep(error)
            }
            if let loopFailure = endIdleStep(published: false) { throw loopFailure }
            return outcome
        }
        if raisesInternally { drainingThread.store(Self.currentThread, ordering: .releasing) }
        defer { if raisesInternally { leaveDrainingThread() } }
        endSelfFedRun()
        setPayload()
        let outcome: StatechartStepOutcome
        do throws(StatechartError) {
            outcome = try runEvent(index, name: name)
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
        guard !queue.releaseIfIdle() else { return nil }
        var loopFailure: StatechartError?
        // Only a submitter that drains queues an `.inline` item, and this caller queued none.
        var noInlineItem: Result<StatechartStepOutcome, StatechartError>?
        drainRest(loopFailure: &loopFailure, published: true, inlineResult: &noInlineItem)
        return loopFailure
    }

    /// Queues a halt (see ``halt()``), run on the caller's thread when the chart is idle.
    package func submitHalt() {
        _ = submit { QueueItem(request: .halt, payload: nil, completion: $0 ? .inline : nil) }
    }

    /// Drops the queued events, delivering `.discarded` to their waiters, and queues a stop.
    func submitStop(payload: (any Sendable)?) {
        let (dropped, drainHere) = queue.removeEvents {
            QueueItem(request: .stop, payload: payload, completion: $0 ? .inline : nil)
        }
        for item in dropped { item.completion?.deliver(.success(.discarded)) }
        if drainHere { _ = drain(first: nil) }
    }

    /// Sets or removes the debug sink that the next steps write to.
    func setDebugSink(_ sink: StatechartDebugSink?) {
        queue.setDebugSink(sink)
    }

    /// Resumes a chart that has not started from a snapshot's configuration (per region,
    /// its active state), history records and join progress; timers restart with
    /// `remaining` (the others had fired or never started) and tasks start afresh; an SCXML
    /// session's sends restart with what they had left. Enter blocks do not run. Called
    /// only before the chart is shared, so it runs as the drainer.
    func restore(
        configuration: [Int32],
        historyRecords: [[Int32]],
        joinProgress: [[Bool]],
        remaining: [Int32: Duration],
        sends: [SCXMLSends.RestoredSend] = [],
        generatedSendIDCount: Int = 0
    ) {
        for (region, state) in configuration.enumerated() { slots.current[region] = state }
        self.sends?.restore(sends, generatedIDCount: generatedSendIDCount)
        for (history, record) in historyRecords.enumerated() where history < topology.histories.count {
            let regions = topology.historyRegionSlots(history)
            slots.historyRecorded[history] = !record.isEmpty
            for (position, slot) in regions.enumerated() where position < record.count {
                slots.historyStates[slot] = record[position]
            }
        }
        for (join, progress) in joinProgress.enumerated() where join < topology.joins.count {
            let sources = slots.sources(ofJoin: join)
            for (position, arrived) in progress.enumerated() where position < sources.count {
                slots.joinArrived[sources.lowerBound + position] = arrived
            }
            slots.joinArrivals[join] = Int32(sources.filter { slots.joinArrived[$0] }.count)
        }
        started = true
        for (region, state) in configuration.enumerated() where state >= 0 {
            if tables.hot[Int(state)].hasExtras { activate(state, remaining: remaining) }
            if region == 0, tables.hot[Int(state)].isFinal { finished = true }
        }
        dirtyExtras = .all
        publish()
    }

    /// Forgets every history's record (the chart stopped or halted).
    func forgetHistoryRecords() {
        for history in topology.histories.indices { slots.historyRecorded[history] = false }
    }

    /// Stops the chart where it is, without running exit blocks: timers, tasks and sends
    /// are cancelled, queued events dropped, the configuration and histories forgotten;
    /// a later `start` begins afresh (SCXML's machine stopping on an error). Drainer only.
    package func halt() {
        for index in pendingTimers.indices {
            cancelTimer(index)
            slots.timerDeadlines[index] = nil
        }
        for index in tasks.indices {
            tasks[index]?.cancel()
            tasks[index] = nil
        }
        sends?.cancelAll()
        for region in 0..<slots.regionCount { slots.current[region] = -1 }
        forgetHistoryRecords()
        for join in topology.joins.indices { resetJoin(join) }
        started = false
        finished = false
        internalQueue.removeAll()
        deferredItems.removeAll()
        dirtyExtras = .all
        let (dropped, _) = queue.removeEvents()
        publish()
        for item in dropped { item.completion?.deliver(.success(.discarded)) }
    }
}
