#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value protected by a pthread mutex, with `Synchronization.Mutex`'s `withLock` API: the
/// package's one lock type for mutual exclusion.
///
/// Why not `Mutex`: on Linux, `Synchronization.Mutex` locks with futexes from inside the
/// standard library (a contended lock is handed over inside the kernel), which
/// ThreadSanitizer does not see, so every access it protects is reported as a race and the
/// sanitizer becomes useless for the whole package. A pthread mutex is intercepted by
/// ThreadSanitizer, so this lock keeps `--sanitize=thread` runs meaningful. `NSLock` is a
/// pthread mutex too, but costs a second object and an Objective-C-style API; this lock
/// keeps the mutex and the value in one allocation.
///
/// The value may be noncopyable (the statechart engine's event queue is).
@usableFromInline
package struct Lock<Value: ~Copyable>: @unchecked Sendable {
    // @unchecked Sendable: the value is only read or written by `withLock`, between
    // pthread_mutex_lock and pthread_mutex_unlock on the buffer's mutex, so accesses from
    // different threads never overlap. As with `Mutex`, what a caller takes out of the
    // critical section must itself be safe to share: every use in the package either locks
    // a `Sendable` value or returns only `Sendable` parts of it (the statechart engine's
    // queue hands out its items to the one thread that owns the pump).
    @usableFromInline let buffer: LockBuffer<Value>

    /// A lock protecting `value`.
    @inlinable
    package init(_ value: consuming Value) {
        buffer = LockBuffer<Value>.create(value)
    }

    /// Runs `body` with exclusive access to the value. `body` must not take the same lock.
    @inlinable @inline(__always)
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try buffer.withUnsafeMutablePointers { mutex, value in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value.pointee)
        }
    }
}

/// The storage of a ``Lock``: one pthread mutex as the header, the value as the one element
/// (an element, not the header, so that the value may be noncopyable).
@usableFromInline
package final class LockBuffer<Value: ~Copyable>: ManagedBuffer<pthread_mutex_t, Value> {
    @inlinable
    static func create(_ value: consuming Value) -> LockBuffer<Value> {
        let buffer = unsafeDowncast(create(minimumCapacity: 1) { _ in pthread_mutex_t() }, to: LockBuffer<Value>.self)
        buffer.withUnsafeMutablePointerToHeader { mutex in _ = pthread_mutex_init(mutex, nil) }
        let element = buffer.withUnsafeMutablePointerToElements { $0 }
        // The pointer outlives the closure, but not the buffer, which is alive here.
        element.initialize(to: value)
        return buffer
    }

    @inlinable
    deinit {
        withUnsafeMutablePointers { mutex, element in
            pthread_mutex_destroy(mutex)
            // The element is tail-allocated storage, which ManagedBuffer does not destroy.
            _ = element.deinitialize(count: 1)
        }
    }
}
