import StateMachineCore
import StateMachineSupport

/// Pumps a machine's states into a buffer from which the assertions take them with a
/// timeout, without ever losing a state to a timed-out wait.
final class StateFeed<SuperState>: Sendable {
    private struct Storage {
        var buffer: [any State<SuperState>] = []
        var waiter: (id: Int, continuation: UnsafeContinuation<(any State<SuperState>)?, Never>)?
        var nextWaiterID = 0
        var isFinished = false
        /// Waits whose timer fired before they suspended.
        var expiredUpTo = -1
    }

    private let storage = Lock(Storage())

    init() {}

    func push(_ state: any State<SuperState>) {
        let waiter = storage.withLock { storage -> UnsafeContinuation<(any State<SuperState>)?, Never>? in
            if let waiter = storage.waiter {
                storage.waiter = nil
                return waiter.continuation
            }
            storage.buffer.append(state)
            return nil
        }
        waiter?.resume(returning: state)
    }

    func finish() {
        let waiter = storage.withLock { storage -> UnsafeContinuation<(any State<SuperState>)?, Never>? in
            storage.isFinished = true
            defer { storage.waiter = nil }
            return storage.waiter?.continuation
        }
        waiter?.resume(returning: nil)
    }

    /// The next state, or nil when the machine has finished or `timeout` has passed.
    func next(timeout: Duration) async -> (any State<SuperState>)? {
        if let state = storage.withLock({ $0.buffer.isEmpty ? nil : $0.buffer.removeFirst() }) { return state }
        let id = storage.withLock { storage in
            defer { storage.nextWaiterID += 1 }
            return storage.nextWaiterID
        }
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            self?.expire(waiter: id)
        }
        defer { timer.cancel() }
        return await withUnsafeContinuation { continuation in
            let immediate = storage.withLock { storage -> (any State<SuperState>)?? in
                if !storage.buffer.isEmpty { return .some(storage.buffer.removeFirst()) }
                if storage.isFinished || id <= storage.expiredUpTo { return .some(nil) }
                storage.waiter = (id, continuation)
                return nil
            }
            if let immediate { continuation.resume(returning: immediate) }
        }
    }

    private func expire(waiter id: Int) {
        let continuation = storage.withLock { storage -> UnsafeContinuation<(any State<SuperState>)?, Never>? in
            guard let waiter = storage.waiter, waiter.id == id else {
                storage.expiredUpTo = max(storage.expiredUpTo, id)
                return nil
            }
            storage.waiter = nil
            return waiter.continuation
        }
        continuation?.resume(returning: nil)
    }
}
