import StateMachineSupport
import Synchronization

/// Outputs run in their own tasks; each is tracked until its side effect has really ended,
/// including one that ignores cancellation (its task may then go on as the machine's
/// drainer, see ``startOutput(_:completion:)``).
extension MachineCore {
    /// The number of outputs whose side effect has not ended yet.
    @usableFromInline
    var runningOutputCount: Int { shared.withLock { $0.outputs.count } }

    /// Starts `output` in a new task; `completion` opens once its side effect has ended
    /// (restarts included) and the events it fed have been processed.
    @inlinable
    func startOutput(_ output: Output<SuperState, SuperEvent>, completion: Latch?) {
        let output = output.body
        let current = currentState
        let isCancellable = output.cancellationPolicy != nil
        if output.emitsOnlyAtEnd { startedReturningOutput = true }
        if isCancellable { cancellableOutputCount.add(1, ordering: .relaxed) }
        shared.withLock { shared in
            // The output may read the machine's state: it sees the state it was started in.
            shared.lastKnownState = current
            let id = shared.nextOutputID
            shared.nextOutputID += 1
            // The task is created under the lock so that it cannot remove its record before
            // the record exists; it only takes the lock again once it has finished. It holds
            // the core until it exits, and shutdown cancels and awaits every output.
            let task = Task(priority: output.priority) {
                let holdsDrainer = await Self.supervise(
                    output,
                    feed: { event in self.accept(event, completion: nil, until: .outputFinished) },
                    startDrainer: { self.spawnDrainer() }
                )
                self.shared.withLock { _ = $0.outputs.removeValue(forKey: id) }
                if isCancellable { self.cancellableOutputCount.subtract(1, ordering: .relaxed) }
                // The caller resumes once the events this output fed have been processed.
                if let completion { self.signalWhenProcessed(completion) }
                // The event the side effect returned found the machine idle: this task
                // processes it, and what is queued after it, as the drainer, rather than
                // start a task to (a machine whose outputs feed its next events would start
                // two tasks per event). Its record is gone, so a shutdown it runs, which
                // awaits every output, does not wait for it. Nothing cancels it once it holds
                // the role (only the drainer cancels outputs); if it was, a drainer task runs
                // instead, so that the events are not processed in a cancelled task.
                if holdsDrainer {
                    if Task.isCancelled { self.spawnDrainer() } else { await self.drain() }
                }
            }
            shared.outputs[id] = OutputRecord(task: task, cancellationPolicy: output.cancellationPolicy)
        }
    }

    /// The running outputs that have a cancellation policy.
    @inlinable
    static func outputsWithCancellationPolicy(in shared: Shared) -> [OutputRecord] {
        guard !shared.outputs.isEmpty else { return [] }
        return shared.outputs.values.filter { $0.cancellationPolicy != nil }
    }

    /// Cancels each output whose policy matches the processed event.
    @inlinable
    nonisolated(nonsending) func cancel(
        _ records: [OutputRecord],
        matching current: AnyState,
        _ event: AnyEvent,
        _ new: AnyState?
    ) async {
        for record in records {
            if let policy = record.cancellationPolicy, await policy.predicate(current, event, new) {
                record.task.cancel()
            }
        }
    }

    /// Cancels every output and returns once all their tasks have exited.
    @usableFromInline
    func cancelAllOutputsAndWait() async {
        let tasks = shared.withLock { $0.outputs.values.map(\.task) }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }

    /// Runs the side effect, restarting it as its lifecycle policy says, until it ends for
    /// good or the task is cancelled. Nothing it produces once cancelled reaches `feed`,
    /// which queues an event and says whether it was accepted and whether the caller claimed
    /// the drainer role.
    ///
    /// Returns true when the caller holds the drainer role: the side effect's last act fed
    /// the event that claimed it (`Body.emitsOnlyAtEnd`) and nothing runs after it. A role
    /// claimed otherwise is used at once, with `startDrainer`, as a feed in the middle of a
    /// sequence, or one followed by a restart, must not wait for the side effect.
    @inlinable
    static func supervise(
        _ output: Output<SuperState, SuperEvent>.Body,
        feed: @escaping @Sendable (AnyEvent) -> (accepted: Bool, claimedDrainer: Bool),
        startDrainer: @escaping () -> Void
    ) async -> Bool {
        var holdsDrainer = false
        let emit: (AnyEvent) -> Bool = { event in
            guard !Task.isCancelled else { return false }
            let (accepted, claimedDrainer) = feed(event)
            if claimedDrainer {
                if output.emitsOnlyAtEnd { holdsDrainer = true } else { startDrainer() }
            }
            return accepted
        }
        // A role the feed claimed is used before anything else is awaited.
        func handOver() {
            guard holdsDrainer else { return }
            holdsDrainer = false
            startDrainer()
        }
        var restartCount = 0
        while !Task.isCancelled {
            let termination: LifecyclePolicy.Termination
            do {
                try await output.run(emit)
                termination = .finished
            } catch {
                termination = .failed(error)
            }
            if Task.isCancelled { return holdsDrainer }
            if case .failed(let error) = termination {
                if error is CancellationError { return holdsDrainer }
                if let onFailure = output.onFailure {
                    handOver()
                    if let event = await onFailure(error) { _ = emit(event) }
                }
            }
            guard output.lifecyclePolicy.shouldRestart(after: termination, restartCount: restartCount) else {
                return holdsDrainer
            }
            handOver()
            await output.lifecyclePolicy.delay?(restartCount + 1)
            restartCount += 1
        }
        return holdsDrainer
    }
}
