import StateMachineSupport
import Synchronization

/// How many elements a shared sequence replays to a client that joins late.
public enum ReplayCount: Sendable, Equatable {
    /// Every element so far.
    case unbounded
    /// At most the last `count` elements (`.max(count: 0)` replays nothing).
    case max(count: UInt)
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// A multicast view of this sequence: every client iterates its own copy of the
    /// elements, and a client that joins late first receives up to `replayCount` past
    /// elements.
    ///
    /// The base is iterated once, by a task started on the first client's first demand,
    /// whatever the number of clients. Each client has its own unbounded buffer, so a slow
    /// client never holds the others back (it costs memory instead). Cancelling a client's
    /// task ends that client only. A client that joins after the base has ended receives
    /// the replay, then the end. A base that throws simply ends the shared sequence.
    ///
    /// The result is opaque (`some AsyncSequence<Element, Never> & Sendable`): what it is
    /// made of is not part of the API.
    public func share(replayCount: ReplayCount) -> some AsyncSequence<Element, Never> & Sendable {
        AsyncShareSequence(base: self, replayCount: replayCount)
    }
}

/// A multicast sequence with replay; see `AsyncSequence.share(replayCount:)`.
struct AsyncShareSequence<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable
where Base.Element: Sendable {
    /// The base's element.
    typealias Element = Base.Element
    /// A shared sequence never throws: a failing base ends it.
    typealias Failure = Never

    let runtime: ShareRuntime<Base>

    init(base: Base, replayCount: ReplayCount) {
        self.runtime = ShareRuntime(base: base, replayCount: replayCount)
    }

    /// Registers a new client, which first receives the replay.
    func makeAsyncIterator() -> Iterator {
        Iterator(client: ShareClient(runtime: runtime, id: runtime.register()))
    }

    /// The iterator of one client.
    struct Iterator: AsyncIteratorProtocol {
        let client: ShareClient<Base>

        /// The client's next element, or nil once the base has ended (or the client's task
        /// is cancelled).
        mutating func next() async -> Element? {
            await client.runtime.next(client: client.id)
        }
    }
}

/// Unregisters its client when the iterator that holds it is released.
final class ShareClient<Base: AsyncSequence & Sendable>: Sendable where Base.Element: Sendable {
    let runtime: ShareRuntime<Base>
    let id: Int

    init(runtime: ShareRuntime<Base>, id: Int) {
        self.runtime = runtime
        self.id = id
    }

    deinit { runtime.unregister(id) }
}

final class ShareRuntime<Base: AsyncSequence & Sendable>: Sendable where Base.Element: Sendable {
    typealias Element = Base.Element

    private struct Client {
        var buffer: [Element]
        var head = 0
        var waiter: UnsafeContinuation<Element?, Never>?
        var isDone = false

        /// Takes the oldest buffered element. The elements read are dropped once they are
        /// all read, or are at least 1,024 and half the buffer: a client that stays behind
        /// costs amortised O(1) per element, however far behind it is.
        mutating func takeBuffered() -> Element? {
            guard head < buffer.count else { return nil }
            let element = buffer[head]
            head += 1
            if head == buffer.count {
                buffer.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 1024 && head * 2 >= buffer.count {
                buffer.removeFirst(head)
                head = 0
            }
            return element
        }

        /// Hands `element` to the waiting iterator, returned to be resumed outside the lock,
        /// or buffers it.
        mutating func deliver(_ element: Element) -> UnsafeContinuation<Element?, Never>? {
            guard let waiter else {
                buffer.append(element)
                return nil
            }
            self.waiter = nil
            return waiter
        }

        /// Ends the client: returns its waiting iterator, to be resumed with nil.
        mutating func end() -> UnsafeContinuation<Element?, Never>? {
            guard let waiter else { return nil }
            self.waiter = nil
            isDone = true
            return waiter
        }
    }

    private struct Storage {
        var replay: [Element] = []
        var clients: [Int: Client] = [:]
        var nextClientID = 0
        var isDriverStarted = false
        var isBaseFinished = false

        /// Calls `body` on every client, in place. (Iterating `clients.keys` while writing
        /// `clients[id]` would copy the dictionary, and then a client's buffer, per element.)
        mutating func forEachClient(_ body: (inout Client) -> Void) {
            var index = clients.startIndex
            while index != clients.endIndex {
                body(&clients.values[index])
                clients.formIndex(after: &index)
            }
        }
    }

    private let base: Base
    private let replayCount: ReplayCount
    private let storage = Lock(Storage())

    init(base: Base, replayCount: ReplayCount) {
        self.base = base
        self.replayCount = replayCount
    }

    /// How many of the kept elements a new client receives.
    private var replayLimit: Int {
        switch replayCount {
        case .unbounded: Int.max
        case .max(let count): Int(clamping: count)
        }
    }

    func register() -> Int {
        storage.withLock { storage in
            let id = storage.nextClientID
            storage.nextClientID += 1
            storage.clients[id] = Client(buffer: Array(storage.replay.suffix(replayLimit)), isDone: false)
            return id
        }
    }

    func unregister(_ id: Int) {
        let waiter = storage.withLock { $0.clients.removeValue(forKey: id)?.waiter }
        waiter?.resume(returning: nil)
    }

    func next(client id: Int) async -> Element? {
        if Task.isCancelled {
            unregister(id)
            return nil
        }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Element?, Never>) in
                let (result, startDriver) = storage.withLock { storage -> (Element??, Bool) in
                    // The client is changed in place: a copy would share its buffer.
                    guard let index = storage.clients.index(forKey: id), !storage.clients.values[index].isDone else {
                        return (.some(nil), false)
                    }
                    if let element = storage.clients.values[index].takeBuffered() { return (.some(element), false) }
                    if storage.isBaseFinished {
                        storage.clients.values[index].isDone = true
                        return (.some(nil), false)
                    }
                    storage.clients.values[index].waiter = continuation
                    let startDriver = !storage.isDriverStarted
                    storage.isDriverStarted = true
                    return (nil, startDriver)
                }
                if let result { continuation.resume(returning: result) }
                if startDriver { Task { await self.drive() } }
            }
        } onCancel: {
            unregister(id)
        }
    }

    private func drive() async {
        do {
            for try await element in base {
                distribute(element)
            }
        } catch {
            // A failing base ends the shared sequence (it is non-throwing by design).
        }
        let waiters = storage.withLock { storage -> [UnsafeContinuation<Element?, Never>] in
            storage.isBaseFinished = true
            var waiters: [UnsafeContinuation<Element?, Never>] = []
            storage.forEachClient { client in
                if let waiter = client.end() { waiters.append(waiter) }
            }
            return waiters
        }
        for waiter in waiters { waiter.resume(returning: nil) }
    }

    private func distribute(_ element: Element) {
        let waiters = storage.withLock { storage -> [UnsafeContinuation<Element?, Never>] in
            switch replayCount {
            case .unbounded:
                storage.replay.append(element)
            case .max(let count):
                // Up to twice the count is kept, so that trimming is amortised O(1).
                let limit = Int(clamping: count)
                if limit > 0 {
                    storage.replay.append(element)
                    if storage.replay.count - limit >= limit {
                        storage.replay.removeFirst(storage.replay.count - limit)
                    }
                }
            }
            var waiters: [UnsafeContinuation<Element?, Never>] = []
            storage.forEachClient { client in
                if let waiter = client.deliver(element) { waiters.append(waiter) }
            }
            return waiters
        }
        for waiter in waiters { waiter.resume(returning: element) }
    }
}
