import Synchronization

/// Runs outputs in their own tasks and keeps track of each until its task really exits,
/// including a side effect that ignores cancellation.
@usableFromInline
final class OutputSupervisor<SuperState, SuperEvent>: Sendable {
    @usableFromInline typealias AnyState = any State<SuperState>
    @usableFromInline typealias AnyEvent = any Event<SuperEvent>

    @usableFromInline
    struct Record: Sendable {
        @usableFromInline let task: Task<Void, Never>
        @usableFromInline let cancellationPolicy: Cancel<SuperState, SuperEvent>?
        @usableFromInline init(task: Task<Void, Never>, cancellationPolicy: Cancel<SuperState, SuperEvent>?) {
            self.task = task
            self.cancellationPolicy = cancellationPolicy
        }
    }

    @usableFromInline
    struct Storage: Sendable {
        @usableFromInline var records: [Int: Record] = [:]
        @usableFromInline var nextID = 0
        @usableFromInline init() {}
    }

    @usableFromInline let storage = Lock(Storage())

    @usableFromInline
    init() {}

    /// The number of outputs whose task has not exited yet.
    var runningCount: Int { storage.withLock { $0.records.count } }

    /// Starts `output` in a new task. `feed` hands an event back to the machine and says
    /// whether it was accepted; `completion` opens when the task exits (restarts included).
    @inlinable
    func start(
        _ output: Output<SuperState, SuperEvent>,
        feed: @escaping @Sendable (AnyEvent) -> Bool,
        completion: Latch?
    ) {
        storage.withLock { storage in
            let id = storage.nextID
            storage.nextID += 1
            // The task is created under the lock so that it cannot remove its record before
            // the record exists; it only takes the lock again once it has finished.
            let task = Task(priority: output.priority) {
                await Self.supervise(output, feed: feed)
                self.storage.withLock { _ = $0.records.removeValue(forKey: id) }
                completion?.open()
            }
            storage.records[id] = Record(task: task, cancellationPolicy: output.cancellationPolicy)
        }
    }

    /// Cancels every running output whose policy matches the processed event.
    @inlinable
    func cancel(matching current: AnyState, _ event: AnyEvent, _ new: AnyState?) async {
        let candidates = storage.withLock { storage -> [(Task<Void, Never>, Cancel<SuperState, SuperEvent>)] in
            guard !storage.records.isEmpty else { return [] }
            return storage.records.values.compactMap { record in
                record.cancellationPolicy.map { (record.task, $0) }
            }
        }
        for (task, policy) in candidates where await policy.predicate(current, event, new) {
            task.cancel()
        }
    }

    /// Cancels every output and returns once all their tasks have exited.
    @usableFromInline
    func cancelAllAndWait() async {
        let tasks = storage.withLock { $0.records.values.map(\.task) }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }

    /// Runs the side effect, restarting it as its lifecycle policy says, until it ends for
    /// good or the task is cancelled.
    @inlinable
    static func supervise(
        _ output: Output<SuperState, SuperEvent>,
        feed: @escaping @Sendable (AnyEvent) -> Bool
    ) async {
        // Nothing an output produces once its task is cancelled reaches the machine.
        let emit: (AnyEvent) -> Bool = { event in
            guard !Task.isCancelled else { return false }
            return feed(event)
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
            if Task.isCancelled { return }
            if case .failed(let error) = termination {
                if error is CancellationError { return }
                if let onFailure = output.onFailure, let event = await onFailure(error) {
                    _ = emit(event)
                }
            }
            guard output.lifecyclePolicy.shouldRestart(after: termination, restartCount: restartCount) else {
                return
            }
            await output.lifecyclePolicy.delay?(restartCount + 1)
            restartCount += 1
        }
    }
}
