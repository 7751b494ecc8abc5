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
///
/// The value must not be a closure, an optional closure or a tuple holding one (checked by an
/// assertion in debug builds): keep a closure in a final class and lock the reference. A
/// closure in generic storage is kept at the most general abstraction, and `withLock` hands it
/// to its body `inout` at the concrete one: each round trip converts it there and back,
/// wrapping it in two more reabstraction thunks, so a closure read with `withLock { $0 }` once
/// per event becomes one layer deeper per event and every call of it slower than the last
/// (the logger of every machine did this; see `Lock.holdsClosure`).
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
        assert(!Self.holdsClosure, "Lock<\(Value.self)>: keep the closure in a final class and lock the reference")
        buffer = LockBuffer<Value>.create(value)
    }

    /// Whether `Value` is a function type, an optional one or a tuple with one among its
    /// elements: the values whose every `withLock` round trip re-wraps the closure.
    ///
    /// Read from the type's metadata, whose layout is Swift's stable ABI (TypeMetadata.rst):
    /// the first word is the kind; an `Optional`'s wrapped type follows its kind and nominal
    /// type descriptor; a tuple's elements, each a type and an offset, follow its kind, count
    /// and labels.
    @usableFromInline package static var holdsClosure: Bool {
        holdsClosure(UnsafeRawPointer(bitPattern: UInt(bitPattern: ObjectIdentifier(Value.self))))
    }

    private static func holdsClosure(_ metadata: UnsafeRawPointer?) -> Bool {
        guard let metadata else { return false }
        let words = metadata.assumingMemoryBound(to: UInt.self)
        switch words[0] {
        case 0x302: return true  // a function
        case 0x202: return holdsClosure(UnsafeRawPointer(bitPattern: words[2]))  // Optional<Wrapped>
        case 0x301:  // a tuple
            return (0..<Int(words[1])).contains { holdsClosure(UnsafeRawPointer(bitPattern: words[3 + 2 * $0])) }
        default: return false
        }
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
