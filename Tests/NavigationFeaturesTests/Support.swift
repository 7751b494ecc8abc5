import Foundation

/// A gate the loads wait at until the test opens it (then it stays open).
actor Gate {
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiting.append($0) }
    }
    func open() {
        isOpen = true
        for continuation in waiting { continuation.resume() }
        waiting = []
    }
}

/// Counts calls.
actor Counter {
    private(set) var value = 0
    func increment() { value += 1 }
}

struct NotFound: Error, CustomStringConvertible {
    var description: String { "Thing 42 not found" }
}
