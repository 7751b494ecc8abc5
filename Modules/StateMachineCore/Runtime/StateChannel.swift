import Synchronization

/// The buffer between the command loop and the machine's single observer.
///
/// Every committed state is buffered, unbounded, until it is consumed, so an observer that
/// starts late still sees every state in order. One iterator at a time holds the lease;
/// the lease ends when its iterator is released, returns nil, or its task is cancelled,
/// and the next iterator carries on where the previous one stopped.
@usableFromInline
final class StateChannel<Element: Sendable>: Sendable {
    @usableFromInline
    struct Storage: Sendable {
        @usableFromInline var buffer: [Element] = []
        @usableFromInline var head = 0
        @usableFromInline var waiter: UnsafeContinuation<Element?, Never>?
        @usableFromInline var isFinished = false
        @usableFromInline var leaseHolder: Int?
        @usableFromInline var nextLease = 0
        @usableFromInline init() {}
    }

    @usableFromInline
    enum Step {
        case element(Element?)
        case suspend
    }

    @usableFromInline let storage = Lock(Storage())

    @usableFromInline
    init() {}

    /// Appends an element, or hands it straight to a waiting observer.
    @inlinable
    func push(_ element: Element) {
        let waiter = storage.withLock { storage -> UnsafeContinuation<Element?, Never>? in
            guard !storage.isFinished else { return nil }
            if let waiter = storage.waiter {
                storage.waiter = nil
                return waiter
            }
            storage.buffer.append(element)
            return nil
        }
        waiter?.resume(returning: element)
    }

    /// Appends several elements in order, handing the first straight to a waiting observer.
    @inlinable
    func push(contentsOf elements: [Element]) {
        guard let first = elements.first else { return }
        let waiter = storage.withLock { storage -> UnsafeContinuation<Element?, Never>? in
            guard !storage.isFinished else { return nil }
            if let waiter = storage.waiter {
                storage.waiter = nil
                storage.buffer.append(contentsOf: elements.dropFirst())
                return waiter
            }
            storage.buffer.append(contentsOf: elements)
            return nil
        }
        waiter?.resume(returning: first)
    }

    /// Ends the channel: buffered elements stay readable, then `next` returns nil.
    @inlinable
    func finish() {
        let waiter = storage.withLock { storage -> UnsafeContinuation<Element?, Never>? in
            storage.isFinished = true
            defer { storage.waiter = nil }
            return storage.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// Takes the lease, or returns nil when another iterator holds it.
    @usableFromInline
    func acquireLease() -> Int? {
        storage.withLock { storage in
            guard storage.leaseHolder == nil else { return nil }
            defer { storage.nextLease += 1 }
            storage.leaseHolder = storage.nextLease
            return storage.nextLease
        }
    }

    /// Ends a lease; a pending `next` of that lease returns nil.
    @inlinable
    func releaseLease(_ lease: Int) {
        let waiter = storage.withLock { storage -> UnsafeContinuation<Element?, Never>? in
            guard storage.leaseHolder == lease else { return nil }
            storage.leaseHolder = nil
            defer { storage.waiter = nil }
            return storage.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// The next element for the holder of `lease`, or nil when the channel is finished and
    /// drained, the lease has ended, or the calling task is cancelled (which ends the lease).
    @inlinable
    func next(lease: Int) async -> Element? {
        @inline(__always) func poll(_ storage: inout Storage) -> Step {
            guard storage.leaseHolder == lease else { return .element(nil) }
            if storage.head < storage.buffer.count {
                let element = storage.buffer[storage.head]
                storage.head += 1
                if storage.head == storage.buffer.count {
                    storage.buffer.removeAll(keepingCapacity: true)
                    storage.head = 0
                } else if storage.head >= 1024 && storage.head * 2 >= storage.buffer.count {
                    storage.buffer.removeFirst(storage.head)
                    storage.head = 0
                }
                return .element(element)
            }
            if storage.isFinished {
                storage.leaseHolder = nil
                return .element(nil)
            }
            return .suspend
        }

        if Task.isCancelled {
            releaseLease(lease)
            return nil
        }
        if case .element(let element) = storage.withLock({ poll(&$0) }) { return element }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Element?, Never>) in
                let step = storage.withLock { storage -> Step in
                    let step = poll(&storage)
                    if case .suspend = step { storage.waiter = continuation }
                    return step
                }
                if case .element(let element) = step { continuation.resume(returning: element) }
            }
        } onCancel: {
            releaseLease(lease)
        }
    }
}
