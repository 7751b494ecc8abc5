import StateMachineSupport
import Synchronization

/// Runs async jobs one after another, in the order they were enqueued, on a task that
/// exists only while there is work (so an idle queue costs no task).
///
/// Used to deliver lifecycle callbacks: each job is one lifecycle event, whose handlers run
/// concurrently inside the job; the next event starts only when they all have finished.
@usableFromInline
final class SerialJobQueue: Sendable {
    @usableFromInline typealias Job = @Sendable () async -> Void

    private struct Storage {
        var jobs: [Job] = []
        var isDraining = false
    }

    private let storage = Lock(Storage())

    @usableFromInline
    init() {}

    /// Enqueues a job; it runs after every job enqueued before it.
    @usableFromInline
    func enqueue(_ job: @escaping Job) {
        let startDrainer = storage.withLock { storage -> Bool in
            storage.jobs.append(job)
            guard !storage.isDraining else { return false }
            storage.isDraining = true
            return true
        }
        if startDrainer {
            Task { await self.drain() }
        }
    }

    /// Returns once every job enqueued before the call has finished.
    @usableFromInline
    func drained() async {
        let latch = Latch()
        enqueue { latch.open() }
        await latch.wait()
    }

    private func drain() async {
        while true {
            let jobs = storage.withLock { storage -> [Job] in
                if storage.jobs.isEmpty { storage.isDraining = false }
                defer { storage.jobs = [] }
                return storage.jobs
            }
            if jobs.isEmpty { return }
            for job in jobs { await job() }
        }
    }
}
