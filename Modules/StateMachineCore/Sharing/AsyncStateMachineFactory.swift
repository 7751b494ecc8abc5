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

    /// What one ``build()`` gives an observer: the machine to send events to, and the
    /// sequence of states to observe it through (for a singleton, the observer's own view
    /// of the shared machine's states).
    public typealias Built = (
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

    /// A machine and a view of its states for one observer: for `.instance`, a new machine
    /// and the machine itself as its states; for `.singleton`, the shared machine and a
    /// view of its states that first replays the last one (so an observer that starts
    /// late sees the current state). This is what a view layer needs to observe a machine
    /// without iterating it twice (a machine has one iterator): `UIStateMachine` is built
    /// on it. Building a singleton the first time runs the factory's closure under its lock.
    public func build() -> Built {
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

/// A type-erased, non-throwing sequence of the states of a machine: the machine itself,
/// or a shared view of it (see ``AsyncStateMachineFactory/build()``). Iterating it costs
/// one closure call per state on top of the base's own iteration.
public struct AnyStateSequence<SuperState>: AsyncSequence, Sendable {
    /// A state of the machine.
    public typealias Element = any State<SuperState>
    /// The sequence never throws.
    public typealias Failure = Never

    private let makeIterator: @Sendable () -> Iterator

    /// Erases `base`, a non-throwing sequence of states: an ``AsyncStateMachine``, or
    /// what `share(replayCount:)` made of one.
    public init<Base: AsyncSequence & Sendable>(_ base: Base)
    where Base.Element == any State<SuperState>, Base.Failure == Never {
        self.makeIterator = {
            var iterator = base.makeAsyncIterator()
            return Iterator { await iterator.next(isolation: nil) }
        }
    }

    /// An iterator over the base's states (for a machine, its one iterator).
    public func makeAsyncIterator() -> Iterator { makeIterator() }

    /// The erased iterator.
    public struct Iterator: AsyncIteratorProtocol {
        let nextElement: () async -> Element?

        init(_ nextElement: @escaping () async -> Element?) { self.nextElement = nextElement }

        /// The next state, or nil once the base has ended.
        public mutating func next() async -> Element? { await nextElement() }
    }
}
