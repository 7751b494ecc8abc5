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
    }

    private struct Storage {
        var replay: [Element] = []
        var clients: [Int: Client] = [:]
        var nextClientID = 0
        var isDriverStarted = false
        var isBaseFinished = false
    }

    private let base: Base
    private let replayCount: ReplayCount
    private let storage = Lock(Storage())

    init(base: Base, replayCount: ReplayCount) {
        self.base = base
        self.replayCount = replayCount
    }

    func register() -> Int {
        storage.withLock { storage in
            let id = storage.nextClientID
            storage.nextClientID += 1
            storage.clients[id] = Client(buffer: storage.replay, isDone: false)
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
                    guard var client = storage.clients[id], !client.isDone else { return (.some(nil), false) }
                    defer { storage.clients[id] = client }
                    if client.head < client.buffer.count {
                        let element = client.buffer[client.head]
                        client.head += 1
                        if client.head == client.buffer.count {
                            client.buffer.removeAll(keepingCapacity: true)
                            client.head = 0
                        }
                        return (.some(element), false)
                    }
                    if storage.isBaseFinished {
                        client.isDone = true
                        return (.some(nil), false)
                    }
                    client.waiter = continuation
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
            for id in storage.clients.keys {
                if let waiter = storage.clients[id]?.waiter {
                    waiters.append(waiter)
                    storage.clients[id]?.waiter = nil
                    storage.clients[id]?.isDone = true
                }
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
                if count > 0 {
                    storage.replay.append(element)
                    if storage.replay.count > Int(count) {
                        storage.replay.removeFirst(storage.replay.count - Int(count))
                    }
                }
            }
            var waiters: [UnsafeContinuation<Element?, Never>] = []
            for id in storage.clients.keys {
                if let waiter = storage.clients[id]?.waiter {
                    storage.clients[id]?.waiter = nil
                    waiters.append(waiter)
                } else {
                    storage.clients[id]?.buffer.append(element)
                }
            }
            return waiters
        }
        for waiter in waiters { waiter.resume(returning: element) }
    }
}
