import Foundation

/// A value guarded by a pthread mutex (`NSLock`).
///
/// The event queue is the one lock in this module that many threads contend for. On Linux,
/// `Synchronization.Mutex` hands a contended lock over inside the kernel (a priority-
/// inheriting futex), which ThreadSanitizer cannot see, so it reported false data races on
/// the queue under the concurrent-senders stress test. `NSLock` is a pthread mutex, which
/// ThreadSanitizer models, so the queue stays checkable. Uncontended locks (subscriptions,
/// cancellation) keep using `Mutex`.
///
/// `@unchecked Sendable` invariant: `value` is only read or written inside `withLock`,
/// that is, while `lock` is held. The lock keeps accesses apart, so Swift's run-time
/// exclusivity check on `value` (a call into the runtime per access) is switched off.
final class PumpLock<Value: ~Copyable>: @unchecked Sendable {
    private let lock = NSLock()
    @exclusivity(unchecked) private var value: Value

    init(_ value: consuming Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
