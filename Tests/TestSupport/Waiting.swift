import Foundation
import StateMachineSupport
import Testing

/// Runs `body`, failing the test when it takes longer than `seconds` (a bound on a wait
/// for a fact, never a sleep). The test goes on at the deadline even when `body` cannot
/// be cancelled (a wait for output that never comes): `body` is then abandoned.
public func within<T: Sendable>(
    seconds: Double = 60,
    _ what: String = "operation",
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable () async -> T
) async -> T? {
    let result: T? = await withCheckedContinuation { continuation in
        let first = FirstResult(continuation)
        let work = Task { first.resume(with: await body()) }
        Task {
            try? await Task.sleep(for: .seconds(seconds))
            work.cancel()
            first.resume(with: nil)
        }
    }
    if result == nil { Issue.record("\(what) did not happen within \(seconds) s", sourceLocation: sourceLocation) }
    return result
}

/// Resumes a continuation with the first result only.
private final class FirstResult<T: Sendable>: Sendable {
    private let continuation: Lock<CheckedContinuation<T?, Never>?>

    init(_ continuation: CheckedContinuation<T?, Never>) {
        self.continuation = Lock(continuation)
    }

    func resume(with value: T?) {
        let continuation = self.continuation.withLock { continuation in
            defer { continuation = nil }
            return continuation
        }
        continuation?.resume(returning: value)
    }
}

/// The built executable next to the test bundle.
public func executable(_ name: String) -> URL {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    // The test bundle itself is a directory on some platforms.
    while !FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path),
        directory.pathComponents.count > 1
    {
        directory.deleteLastPathComponent()
    }
    return directory.appendingPathComponent(name)
}

/// A thread-safe list that tests append to from callbacks and read afterwards.
public final class Recorder<Value: Sendable>: Sendable {
    private let values = Lock<[Value]>([])

    /// An empty list.
    public init() {}

    /// Appends `value`.
    public func append(_ value: Value) { values.withLock { $0.append(value) } }

    /// Everything appended so far, in order.
    public var all: [Value] { values.withLock { $0 } }

    /// How many values were appended.
    public var count: Int { values.withLock { $0.count } }
}
