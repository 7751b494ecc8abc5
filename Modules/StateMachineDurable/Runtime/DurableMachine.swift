import FoundationEssentials

/// A machine that outlives its process: every event it applies is committed to its
/// store, with the step's new state, its effects and its timers, before `send` returns.
///
/// Open one with ``DurableStore/open(_:_:options:)``, send it events, close it:
///
/// ```swift
/// let store = try SQLiteStore(path: "machines.sqlite")
/// let machine = try await store.open("order-17", orderForm)  // a DurableTable, say
/// try await machine.send(.pay, idempotencyKey: "payment-9f2")
/// await machine.close()
/// ```
///
/// Guarantees (see the "Durable machines" article):
/// - `send` returns after one transaction that holds the event, its step and the machine's
///   new state. Sends that arrive while a commit is under way are applied in arrival order
///   and committed together by the next one (group commit); none returns before its commit.
/// - An event sent with an idempotency key is applied at most once, however often it is sent.
/// - Effects are recorded in the outbox by the step's transaction and delivered after it,
///   at least once, in order, each with a stable key.
/// - Timers are stored with their due time on the store's clock, and fire after a restart.
public actor DurableMachine<Form: DurableForm>: DurableClockListener {
    /// The machine's key in its store.
    public nonisolated let key: String
    let store: any DurableStore
    let form: Form
    let effects = DurableEffects()
    let identity: DefinitionIdentity

    var instance: Form.Instance
    /// The state, timers and last journal sequence as of the last commit: what a failed
    /// commit returns the machine to.
    var committed: (state: Data, timers: [DurableTimer], sequence: Int64)
    /// The events scheduled by effects, by identifier (the form's own timers are its own).
    var scheduled: [String: DurableTimer]
    /// Whether the next commit must write the timers (the open changed them).
    var timersDirty = false
    /// The time of a manual clock, as last told by the store.
    var manualTime: DurableInstant

    var pending: [Pending] = []
    /// The inbox entries taken into `pending` whose commit may not be visible to a read of
    /// the inbox yet: a pull of the inbox skips them (see ``pullInbox()``).
    var inboxQueued: Set<Int64> = []
    /// How many commits that consume inbox entries were started: an inbox read made before
    /// one of them may return entries it consumed.
    var inboxGeneration = 0
    var draining = false
    var idleWaiters: [CheckedContinuation<Void, Never>] = []
    var deliveries: [OutboxEntry] = []
    var delivery: Task<Void, Never>?
    var wake: (due: DurableInstant, task: Task<Void, Never>)?
    var isClosed = false
    var isStarted: Bool
    /// Whether a commit was refused with ``DurableError/claimLost(key:)``: another process
    /// holds the machine now, and this one must be closed.
    public internal(set) var hasLostClaim = false
    /// Why the machine's last failed commit or step failed (nil when none has).
    public internal(set) var lastFailure: String?
    /// Why the last delivery of each failed effect failed, by effect key.
    public internal(set) var deliveryFailures: [String: String] = [:]

    /// An event waiting for the next commit.
    struct Pending {
        enum Source {
            case sent(Form.Event, idempotencyKey: String?)
            case inbox(InboxEntry)
            case timer(DurableTimer)
            case feedback(Form.Event, effect: String)
        }
        let source: Source
        let waiter: Waiter?
    }

    /// Who waits for a pending event's outcome.
    enum Waiter {
        /// A send that suspended until the commit.
        case suspended(CheckedContinuation<DurableReceipt, any Error>)
        /// The send that drives the commit, which reads the outcome afterwards.
        case driving(Outcome)

        func resume(with result: Result<DurableReceipt, any Error>) {
            switch self {
            case .suspended(let continuation): continuation.resume(with: result)
            case .driving(let outcome): outcome.value = result
            }
        }
    }

    /// The outcome of the send that drives a commit.
    final class Outcome {
        var value: Result<DurableReceipt, any Error>?
    }

    init(
        key: String,
        store: any DurableStore,
        form: Form,
        stored: StoredMachine?,
        options: DurableOptions
    ) async throws {
        self.key = key
        self.store = store
        self.form = form
        let identity = form.identity
        self.identity = identity
        let now = try await store.now()
        manualTime = now
        var state = stored?.state
        if let stored, stored.identity != identity {
            guard let migration = options.migration else {
                throw DurableError.definitionChanged(key: key, stored: stored.identity, opening: identity)
            }
            state = try migration.migrate(stored.identity, stored.state)
        }
        var timers = stored?.timers ?? []
        var dirty = stored.map { $0.identity != identity } ?? false
        if options.timerPolicy != .fire {
            for index in timers.indices where timers[index].due <= now {
                dirty = true
                timers[index].due = options.timerPolicy == .restart ? now + timers[index].delay.nanoseconds : Int64.min
            }
            timers.removeAll { $0.due == Int64.min }
        }
        instance = try form.makeInstance(
            restoring: state,
            at: now,
            timers: timers.filter { $0.event == nil },
            effects: effects
        )
        scheduled = Dictionary(uniqueKeysWithValues: timers.filter { $0.event != nil }.map { ($0.id, $0) })
        committed = (state ?? Data(), timers, stored?.lastSequence ?? 0)
        timersDirty = dirty
        isStarted = stored != nil
        for entry in stored?.unapplied ?? [] {
            pending.append(Pending(source: .inbox(entry), waiter: nil))
            inboxQueued.insert(entry.id)
        }
        deliveries = stored?.undelivered ?? []
    }

    /// Commits the start of a new machine, fires the timers that fell due while it was
    /// closed, applies its inbox and starts its deliveries.
    func catchUp() async throws {
        if !isStarted || timersDirty {
            try await commitStart()
        }
        let now = currentTime()
        let overdue = allTimers.filter { $0.due <= now }.sorted(by: Self.dueOrder)
        pending.insert(contentsOf: overdue.map { Pending(source: .timer($0), waiter: nil) }, at: 0)
        await runPending()
        startDeliveries()
        armWake()
    }

    // MARK: Sending

    /// Applies `event` and returns once its step is committed.
    ///
    /// With an `idempotencyKey`, an event whose key the machine has seen (applied, or in
    /// its inbox) is not applied again: the receipt says it is a duplicate.
    /// - Throws: the step's error (the event is not applied, nothing is committed), a
    ///   storage error (the machine stays at its last committed state), or
    ///   ``DurableError/closed(key:)``.
    @discardableResult
    public func send(_ event: Form.Event, idempotencyKey: String? = nil) async throws -> DurableReceipt {
        guard !isClosed else { throw DurableError.closed(key: key) }
        guard draining else {
            // The machine is idle: this send drives the commit itself, and the sends that
            // arrive meanwhile join the next one.
            draining = true
            let outcome = await commitFirst(.sent(event, idempotencyKey: idempotencyKey))
            // What arrived meanwhile is committed by a task of its own, so that this send
            // returns now however busy the machine stays.
            if pending.isEmpty {
                finishDraining()
            } else {
                Task { await self.drainLoop() }
            }
            return try outcome.get()
        }
        return try await withCheckedThrowingContinuation { waiter in
            pending.append(Pending(source: .sent(event, idempotencyKey: idempotencyKey), waiter: .suspended(waiter)))
        }
    }

    /// Commits `source` as the first batch of a drain; returns its receipt or error.
    func commitFirst(_ source: Pending.Source) async -> Result<DurableReceipt, any Error> {
        let outcome = Outcome()
        // The store's methods are not isolated to the machine: while it commits, the machine
        // takes the sends that arrive (they wait in `pending` for the next commit).
        await commit([Pending(source: source, waiter: .driving(outcome))])
        return outcome.value ?? .failure(DurableError.closed(key: key))
    }

    /// Journals `event` in the machine's inbox and returns once that is committed; the
    /// machine applies it after the events before it, in a later commit. An event posted
    /// before a crash is applied when the machine is next opened.
    @discardableResult
    public func post(_ event: Form.Event, idempotencyKey: String? = nil) async throws -> DurableReceipt {
        guard !isClosed else { throw DurableError.closed(key: key) }
        let entry = InboxEntry(
            kind: .posted,
            payload: try form.encode(event: event),
            idempotencyKey: idempotencyKey,
            time: currentTime()
        )
        guard let id = try await store.post(key, entry) else { return DurableReceipt(sequence: nil, isDuplicate: true) }
        var accepted = entry
        accepted.id = id
        if inboxQueued.insert(id).inserted {
            pending.append(Pending(source: .inbox(accepted), waiter: nil))
            startDraining()
        }
        return DurableReceipt(sequence: nil, isDuplicate: false)
    }

    /// Applies the events other processes posted to the machine's inbox (with
    /// ``DurableStore/post(_:to:as:idempotencyKey:)``) since it was opened or last pulled, in
    /// order, and returns once they are committed. A ``MachineWorker`` calls it for the
    /// machines it holds.
    public func pullInbox() async throws {
        try await pullInbox(read: nil)
    }

    /// ``pullInbox()`` with the inbox as `read` holds it, when it was read (by a worker, with
    /// other machines' inboxes) while ``inboxGeneration`` was `generation` and it still is:
    /// no commit consumed an entry since, so the read is current. Otherwise it reads the inbox.
    func pullInbox(read: (entries: [InboxEntry], generation: Int)?) async throws {
        guard !isClosed else { throw DurableError.closed(key: key) }
        await settleCommits()
        // No commit of this machine runs until the read is done: an entry the read does not
        // return was consumed by a commit before it, and no read will return it again.
        draining = true
        let entries: [InboxEntry]
        if let read, read.generation == inboxGeneration {
            entries = read.entries
        } else {
            do {
                entries = try await store.inbox(of: key)
            } catch {
                finishDraining()
                throw error
            }
        }
        let stored = Set(entries.map(\.id))
        inboxQueued.formIntersection(
            stored.union(pending.compactMap { if case .inbox(let entry) = $0.source { entry.id } else { nil } })
        )
        let fresh = entries.filter { inboxQueued.insert($0.id).inserted }
        // On a manual clock, an event posted at time T comes after the timers due by T,
        // whichever process posted it and whenever this one heard of the clock's move.
        if store.clock == .manual, let latest = fresh.map(\.time).max(), latest > manualTime {
            manualTime = latest
            enqueueDueTimers(by: latest)
        }
        for entry in fresh { pending.append(Pending(source: .inbox(entry), waiter: nil)) }
        await drainLoop()
    }

    /// The machine's state as of its last step.
    public var state: Form.State { form.state(of: instance) }

    /// The machine's pending timers and scheduled events, by due time.
    public var timers: [DurableTimer] { allTimers.sorted(by: Self.dueOrder) }

    /// Returns once every event sent, posted or fallen due so far is committed and every
    /// effect recorded so far has been delivered (or failed: ``deliveryFailures``).
    public func settle() async {
        while draining || delivery != nil || !pending.isEmpty {
            await withCheckedContinuation { idleWaiters.append($0) }
        }
    }

    /// Waits for the commits under way, stops delivering and firing timers, and gives up
    /// the claim on the machine so that another process may open it. Undelivered effects
    /// and pending timers stay in the store for the next open.
    public func close() async {
        guard !isClosed else { return }
        isClosed = true
        while draining { await withCheckedContinuation { idleWaiters.append($0) } }
        wake?.task.cancel()
        wake = nil
        let delivering = delivery
        delivering?.cancel()
        await delivering?.value
        store.openMachines.remove(self)
        await store.release(key)
        resumeIdleWaiters()
    }

    // MARK: Steps and commits

    func startDraining() {
        guard !draining else { return }
        draining = true
        Task { await self.drainLoop() }
    }

    /// Runs what is pending (and what arrives meanwhile) to completion.
    func runPending() async {
        if draining {
            await settleCommits()
        } else {
            draining = true
            await drainLoop()
        }
    }

    func settleCommits() async {
        while draining { await withCheckedContinuation { idleWaiters.append($0) } }
    }

    func drainLoop() async {
        while !pending.isEmpty {
            let batch = pending
            pending = []
            await commit(batch)
        }
        finishDraining()
    }

    func finishDraining() {
        draining = false
        armWake()
        resumeIdleWaiters()
    }

    func resumeIdleWaiters() {
        guard !draining, delivery == nil || isClosed else { return }
        let waiters = idleWaiters
        idleWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    /// The outcome of one pending event's step.
    enum StepOutcome {
        case applied(Int64)
        case duplicate
        case failed(any Error)
    }

    /// Runs the steps of `batch` in order and commits them in one transaction.
    func commit(_ batch: [Pending]) async {
        var entries: [JournalEntry] = []
        var consumed: [Int64] = []
        var delivered: [String] = []
        var outbox: [OutboxEntry] = []
        var outcomes: [StepOutcome] = []
        var keys: Set<String> = []
        var replay: [Pending] = []
        var sequence = committed.sequence
        for item in batch {
            do {
                let (kind, payload, idempotencyKey, time) = try await step(item, keys: &keys, sequence: sequence + 1)
                sequence += 1
                let records = effects.take()
                outbox += try record(records, sequence: sequence, time: time)
                entries.append(
                    JournalEntry(
                        sequence: sequence,
                        kind: kind,
                        payload: payload,
                        idempotencyKey: idempotencyKey,
                        time: time
                    )
                )
                if case .inbox(let entry) = item.source { consumed.append(entry.id) }
                if case .feedback(_, let effect) = item.source { delivered.append(effect) }
                outcomes.append(.applied(sequence))
                replay.append(item)
            } catch Skip.duplicate {
                if case .inbox(let entry) = item.source { consumed.append(entry.id) }
                if case .feedback(_, let effect) = item.source { delivered.append(effect) }
                outcomes.append(.duplicate)
            } catch Skip.timerGone {
                outcomes.append(.duplicate)
            } catch {
                _ = effects.take()
                outcomes.append(.failed(error))
                lastFailure = "\(error)"
                // The failed step may have changed the instance: rebuild it from the last
                // commit and repeat the batch's steps that succeeded.
                do {
                    try await rebuild(replaying: replay)
                } catch {
                    fail(batch, with: error)
                    return
                }
            }
        }
        do {
            let current = allTimers
            let timers = current.isEmpty ? current : current.sorted(by: Self.dueOrder)
            let timersChanged =
                timersDirty
                || (timers.isEmpty ? !committed.timers.isEmpty : timers != committed.timers.sorted(by: Self.dueOrder))
            let state = try form.encodeState(of: instance)
            if !entries.isEmpty || !consumed.isEmpty || !delivered.isEmpty || timersChanged {
                if !consumed.isEmpty { inboxGeneration += 1 }
                try await store.commit(
                    DurableCommit(
                        key: key,
                        identity: identity,
                        entries: entries,
                        consumedInbox: consumed,
                        delivered: delivered,
                        state: state,
                        timers: timersChanged ? timers : nil,
                        effects: outbox
                    )
                )
            }
            committed = (state, timers, sequence)
            timersDirty = false
        } catch {
            fail(batch, with: error)
            return
        }
        for (item, outcome) in zip(batch, outcomes) {
            switch outcome {
            case .applied(let sequence):
                item.waiter?.resume(with: .success(DurableReceipt(sequence: sequence, isDuplicate: false)))
            case .duplicate: item.waiter?.resume(with: .success(DurableReceipt(sequence: nil, isDuplicate: true)))
            case .failed(let error): item.waiter?.resume(with: .failure(error))
            }
        }
        if !outbox.isEmpty {
            deliveries += outbox
            startDeliveries()
        }
    }

    /// Why a pending event was not applied, though nothing failed.
    enum Skip: Error {
        case duplicate
        case timerGone
    }

    /// Runs one pending event's step; returns its journal entry's parts.
    func step(
        _ item: Pending,
        keys: inout Set<String>,
        sequence: Int64
    ) async throws -> (DurableEventKind, Data, String?, DurableInstant) {
        switch item.source {
        case .sent(let event, let idempotencyKey):
            if let idempotencyKey { try await claimKey(idempotencyKey, in: &keys) }
            let payload = try form.encode(event: event)
            let time = currentTime()
            try await form.apply(event, to: instance, at: time)
            return (.sent, payload, idempotencyKey, time)
        case .inbox(let entry):
            if let idempotencyKey = entry.idempotencyKey {
                guard !keys.contains(idempotencyKey) else { throw Skip.duplicate }
                keys.insert(idempotencyKey)
            }
            let time = currentTime()
            try await form.apply(try form.decode(event: entry.payload), to: instance, at: time)
            return (entry.kind, entry.payload, entry.idempotencyKey, time)
        case .feedback(let event, let effect):
            try await claimKey(effect, in: &keys)
            let payload = try form.encode(event: event)
            let time = currentTime()
            try await form.apply(event, to: instance, at: time)
            return (.feedback, payload, effect, time)
        case .timer(let timer):
            if let event = timer.event {
                guard scheduled[timer.id] == timer else { throw Skip.timerGone }
                scheduled[timer.id] = nil
                try await form.apply(try form.decode(event: event), to: instance, at: timer.due)
                return (.timer, event, nil, timer.due)
            }
            guard form.timers(of: instance).contains(timer) else { throw Skip.timerGone }
            try await form.fire(timer: timer.id, in: instance, at: timer.due)
            return (.timer, Data(timer.id.utf8), nil, timer.due)
        }
    }

    /// Takes `idempotencyKey` for the step being run; throws ``Skip/duplicate`` when the
    /// batch or the store has it already.
    func claimKey(_ idempotencyKey: String, in keys: inout Set<String>) async throws {
        guard !keys.contains(idempotencyKey) else { throw Skip.duplicate }
        if try await store.knows(key, idempotencyKey: idempotencyKey) { throw Skip.duplicate }
        keys.insert(idempotencyKey)
    }

    /// Turns what a step recorded into outbox entries and scheduled events.
    func record(
        _ records: [DurableEffects.Record],
        sequence: Int64,
        time: DurableInstant
    ) throws -> [OutboxEntry] {
        var outbox: [OutboxEntry] = []
        for (index, record) in records.enumerated() {
            switch record {
            case .effect(let name, let payload):
                outbox.append(
                    OutboxEntry(
                        key: "\(key)/\(sequence)/\(index)",
                        position: sequence << 16 | Int64(min(index, 0xffff)),
                        name: name,
                        payload: payload,
                        delivered: false
                    )
                )
            case .schedule(let id, let event, let delay):
                let id = id ?? "\(sequence).\(index)"
                scheduled[id] = DurableTimer(id: id, due: time + delay.nanoseconds, delay: delay, event: event)
            case .cancel(let id):
                scheduled[id] = nil
            case .failure(let message):
                throw DurableError.encoding(message)
            }
        }
        return outbox
    }

    /// The first commit of a new machine (its start's effects and timers), or the commit of
    /// the timers an open's policy changed.
    func commitStart() async throws {
        let outbox = try record(effects.take(), sequence: 0, time: currentTime())
        let timers = allTimers.sorted(by: Self.dueOrder)
        let state = try form.encodeState(of: instance)
        try await store.commit(
            DurableCommit(
                key: key,
                identity: identity,
                entries: [],
                consumedInbox: [],
                delivered: [],
                state: state,
                timers: timers,
                effects: outbox
            )
        )
        committed = (state, timers, committed.sequence)
        timersDirty = false
        isStarted = true
        deliveries += outbox
    }

    /// Returns the instance and the scheduled events to the last commit.
    func restoreCommitted() throws {
        instance = try form.makeInstance(
            restoring: committed.state,
            at: currentTime(),
            timers: committed.timers.filter { $0.event == nil },
            effects: effects
        )
        scheduled = Dictionary(uniqueKeysWithValues: committed.timers.filter { $0.event != nil }.map { ($0.id, $0) })
    }

    /// Returns the instance to the last commit, then repeats `replay`'s steps.
    func rebuild(replaying replay: [Pending]) async throws {
        try restoreCommitted()
        var keys: Set<String> = []
        var sequence = committed.sequence
        for item in replay {
            sequence += 1
            _ = try await step(item, keys: &keys, sequence: sequence)
            _ = try record(effects.take(), sequence: sequence, time: currentTime())
        }
    }

    /// A commit failed: every waiter gets the error, and the machine returns to its last
    /// committed state. Inbox entries and due timers stay stored, for a later commit.
    func fail(_ batch: [Pending], with error: any Error) {
        _ = effects.take()
        for item in batch {
            item.waiter?.resume(with: .failure(error))
            // Still in the store: the next pull of the inbox takes it again.
            if case .inbox(let entry) = item.source { inboxQueued.remove(entry.id) }
        }
        lastFailure = "\(error)"
        if case DurableError.claimLost = error { hasLostClaim = true }
        do {
            try restoreCommitted()
        } catch {
            // The committed state no longer restores (it always did when it was committed):
            // the machine cannot go on; it refuses every later event.
            isClosed = true
        }
    }

}
