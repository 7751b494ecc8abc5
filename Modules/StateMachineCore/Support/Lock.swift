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
/// meaningful. The mutex and the value share one allocation.
@usableFromInline
package struct Lock<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: the value is only read or written by `withLock`, between
    // pthread_mutex_lock and pthread_mutex_unlock on the buffer's mutex, and `Value` is
    // Sendable, so whatever leaves the critical section may cross threads.
    @usableFromInline let buffer: LockBuffer<Value>

    /// A lock protecting `value`.
    @inlinable
    package init(_ value: Value) {
        buffer = LockBuffer<Value>.create(value)
    }

    /// Runs `body` with exclusive access to the value. `body` must not take the same lock.
    @inlinable @inline(__always)
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try buffer.withUnsafeMutablePointers { value, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value.pointee)
        }
    }
}

/// The storage of a ``Lock``: the value as the header, one pthread mutex as the element.
@usableFromInline
package final class LockBuffer<Value: Sendable>: ManagedBuffer<Value, pthread_mutex_t> {
    @inlinable
    static func create(_ value: Value) -> LockBuffer<Value> {
        let buffer = unsafeDowncast(create(minimumCapacity: 1) { _ in value }, to: LockBuffer<Value>.self)
        buffer.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
        }
        return buffer
    }

    @inlinable
    deinit {
        withUnsafeMutablePointerToElements { mutex in
            pthread_mutex_destroy(mutex)
            _ = mutex.deinitialize(count: 1)
            // The header (the value) is a stored property: ManagedBuffer destroys it.
        }
    }
}
