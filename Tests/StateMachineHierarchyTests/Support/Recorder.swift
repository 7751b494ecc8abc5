import Foundation
import StateMachineHierarchy
import StateMachineSupport

/// A thread-safe log of strings, appended to from enter/exit blocks, guards and actions.
final class Recorder: Sendable {
    private let storage = Lock<[String]>([])

    func append(_ entry: String) {
        storage.withLock { $0.append(entry) }
    }

    func clear() {
        storage.withLock { $0.removeAll() }
    }

    var entries: [String] { storage.withLock { $0 } }

    /// A block that appends `entry`, for enter and exit blocks and actions.
    func record<S, E, P>(_ entry: String) -> Statechart<S, E, P>.Action {
        { _ in self.append(entry) }
    }
}

/// A value shared between a test and the closures it hands to a chart.
final class Box<Value: Sendable>: Sendable {
    private let storage: Lock<Value>

    init(_ value: Value) {
        storage = Lock(value)
    }

    var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}

enum Fixtures {
    /// The path of one of the seed's JSON fixtures (simple, nested, pseudo, statemachine).
    static func path(_ name: String) throws -> String {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures") else {
            throw FixtureMissing(name: name)
        }
        return url.path
    }

    struct FixtureMissing: Error {
        let name: String
    }
}

extension AsyncStream {
    /// The first element, or nil when the stream finishes first.
    func first() async -> Element? {
        var iterator = makeAsyncIterator()
        return await iterator.next()
    }
}
