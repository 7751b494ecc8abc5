#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value protected by a pthread mutex, with `Synchronization.Mutex`'s `withLock` API.
///
/// Why not `Mutex`: on Linux, `Synchronization.Mutex` locks with futexes from inside the
/// standard library, which ThreadSanitizer does not see, so every access it protects is
/// reported as a race and the sanitizer becomes useless for the whole package. A pthread
/// mutex is intercepted by ThreadSanitizer, so this lock keeps `--sanitize=thread` runs
/// meaningful. The mutex lives in the same allocation as the value.
package final class Lock<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only read or written inside `withLock`, between
    // pthread_mutex_lock and pthread_mutex_unlock on `mutex`, and `Value` is Sendable, so
    // whatever leaves the critical section may cross threads.
    private var value: Value
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// A lock protecting `value`.
    package init(_ value: Value) {
        self.value = value
        self.mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value. `body` must not take the same lock.
    @inline(__always)
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
