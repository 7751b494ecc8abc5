/// A gate side effects wait at until the test opens it (then it stays open).
public actor Gate {
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// A closed gate.
    public init() {}

    /// Waits until the gate is open.
    public func wait() async {
        if isOpen { return }
        await withCheckedContinuation { continuation in
            waiting.append(continuation)
            let count = waiting.count
            for watcher in watchers where watcher.count <= count { watcher.continuation.resume() }
            watchers.removeAll { $0.count <= count }
        }
    }

    /// Waits until `count` callers wait at the closed gate (the caller bounds the wait).
    public func waitForWaiters(_ count: Int) async {
        if isOpen || waiting.count >= count { return }
        await withCheckedContinuation { watchers.append((count, $0)) }
    }

    /// Opens the gate for good, letting every waiter through.
    public func open() {
        isOpen = true
        for continuation in waiting { continuation.resume() }
        waiting = []
        for watcher in watchers { watcher.continuation.resume() }
        watchers = []
    }
}
