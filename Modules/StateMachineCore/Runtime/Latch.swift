import StateMachineSupport
import Synchronization

/// A one-shot gate: tasks wait until it opens; once open it stays open.
///
/// A waiter whose task is cancelled stops waiting at once; that does not open the latch for
/// anyone else. This is what lets a cancelled `sendAndWait` caller leave while its event
/// carries on in the machine.
@usableFromInline
final class Latch: Sendable {
    private enum Waiter {
        case waiting(UnsafeContinuation<Void, Never>)
        case cancelled
    }

    private struct Storage {
        var isOpen = false
        var waiters: [Int: Waiter] = [:]
        var nextWaiterID = 0
    }

    private let storage = Lock(Storage())

    @usableFromInline
    init() {}

    /// Whether the latch has opened.
    var isOpen: Bool { storage.withLock { $0.isOpen } }

    /// Opens the latch and resumes every waiter. Opening twice does nothing.
    @usableFromInline
    func open() {
        let waiters = storage.withLock { storage -> [Waiter] in
            guard !storage.isOpen else { return [] }
            storage.isOpen = true
            defer { storage.waiters = [:] }
            return Array(storage.waiters.values)
        }
        for case .waiting(let continuation) in waiters { continuation.resume() }
    }

    /// Suspends until the latch opens or the calling task is cancelled.
    @usableFromInline
    func wait() async {
        let id: Int? = storage.withLock { storage in
            guard !storage.isOpen else { return nil }
            defer { storage.nextWaiterID += 1 }
            return storage.nextWaiterID
        }
        guard let id else { return }
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                let resumeNow = storage.withLock { storage -> Bool in
                    if storage.isOpen { return true }
                    if case .cancelled = storage.waiters[id] {
                        storage.waiters[id] = nil
                        return true
                    }
                    storage.waiters[id] = .waiting(continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let continuation = storage.withLock { storage -> UnsafeContinuation<Void, Never>? in
                guard !storage.isOpen else { return nil }
                if case .waiting(let continuation) = storage.waiters[id] {
                    storage.waiters[id] = nil
                    return continuation
                }
                storage.waiters[id] = .cancelled
                return nil
            }
            continuation?.resume()
        }
    }
}
