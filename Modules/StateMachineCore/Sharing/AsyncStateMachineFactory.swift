import StateMachineSupport
import Synchronization

/// Builds ``AsyncStateMachine``s for views, with a lifecycle: a new machine per build
/// (`.instance`, the default) or one machine shared by every build (`.singleton`).
///
/// ```swift
/// let factory = AsyncStateMachineFactory(lifecycle: .singleton) {
///     AsyncStateMachine(stateMachine: makeStateMachine())
/// }
/// ```
///
/// A singleton is built exactly once, even under concurrent builds, and its observers share
/// it: each gets its own view of the states, and one that starts late first gets the last
/// state. The build closure runs under the factory's lock: it must not use the factory.
public final class AsyncStateMachineFactory<SuperState, SuperEvent>: Sendable {
    /// How many machines a factory builds.
    public enum Lifecycle: Sendable, Equatable {
        /// One machine, built on first use and shared by every build.
        case singleton
        /// A new machine per build.
        case instance
    }

    /// The factory's lifecycle.
    public let lifecycle: Lifecycle
    private let make: @Sendable () -> AsyncStateMachine<SuperState, SuperEvent>
    private let singleton = Lock<Built?>(nil)

    package typealias Built = (
        asyncStateMachine: AsyncStateMachine<SuperState, SuperEvent>,
        erasedAsyncStateMachine: AnyStateSequence<SuperState>
    )

    /// A factory that builds machines with `build`.
    public init(
        lifecycle: Lifecycle = .instance,
        build: @escaping @Sendable () -> AsyncStateMachine<SuperState, SuperEvent>
    ) {
        self.lifecycle = lifecycle
        self.make = build
    }

    /// A factory of machines with no routes that stay in `initial`: a default for previews,
    /// placeholders and tests.
    public static func `default`(initial: some State<SuperState>) -> AsyncStateMachineFactory {
        AsyncStateMachineFactory { AsyncStateMachine(stateMachine: StateMachine(initial: initial)) }
    }

    /// A machine, as the lifecycle says: a new one, or the shared one.
    public func makeAsyncStateMachine() -> AsyncStateMachine<SuperState, SuperEvent> {
        build().asyncStateMachine
    }

    /// A machine and a view of its states for one observer: the machine itself for
    /// `.instance`, a shared view replaying the last state for `.singleton`.
    package func build() -> Built {
        switch lifecycle {
        case .instance:
            let machine = make()
            return (machine, AnyStateSequence(machine))
        case .singleton:
            return singleton.withLock { built in
                if let built { return built }
                let machine = make()
                let shared = machine.share(replayCount: .max(count: 1))
                built = (machine, AnyStateSequence(shared))
                return built!
            }
        }
    }
}

/// A type-erased, non-throwing sequence of the states of a machine.
package struct AnyStateSequence<SuperState>: AsyncSequence, Sendable {
    package typealias Element = any State<SuperState>
    package typealias Failure = Never

    private let makeIterator: @Sendable () -> Iterator

    package init<Base: AsyncSequence & Sendable>(_ base: Base)
    where Base.Element == any State<SuperState>, Base.Failure == Never {
        self.makeIterator = {
            var iterator = base.makeAsyncIterator()
            return Iterator { await iterator.next(isolation: nil) }
        }
    }

    package func makeAsyncIterator() -> Iterator { makeIterator() }

    /// The erased iterator.
    package struct Iterator: AsyncIteratorProtocol {
        let nextElement: () async -> Element?

        init(_ nextElement: @escaping () async -> Element?) { self.nextElement = nextElement }

        package mutating func next() async -> Element? { await nextElement() }
    }
}
