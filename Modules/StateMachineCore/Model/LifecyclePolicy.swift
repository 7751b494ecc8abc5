/// How an output is supervised once its side effect ends: never restarted (the default),
/// restarted after a failure, after a normal completion, or after both.
///
/// `maxRestarts: N` allows N restarts (so N + 1 runs). `delay` is awaited before each
/// restart and receives the 1-based number of the upcoming restart; use it for back-off.
/// A side effect that fails with `CancellationError` is never restarted.
public struct LifecyclePolicy: Sendable {
    /// When a side effect is restarted.
    public enum Policy: Sendable, Equatable {
        /// Never restart.
        case never
        /// Restart when the side effect throws.
        case onFailure
        /// Restart when the side effect finishes normally.
        case onCompletion
        /// Restart whatever the way the side effect ended.
        case always
    }

    /// How a side effect ended.
    public enum Termination: Sendable {
        /// The side effect returned (or its sequence finished) normally.
        case finished
        /// The side effect threw.
        case failed(any Error)
    }

    /// When to restart.
    public let policy: Policy
    /// The maximum number of restarts, or nil for no limit.
    public let maxRestarts: Int?
    /// Awaited before each restart with the 1-based number of the upcoming restart.
    public let delay: (@Sendable (Int) async -> Void)?

    /// A policy from its parts.
    public init(policy: Policy, maxRestarts: Int? = nil, delay: (@Sendable (Int) async -> Void)? = nil) {
        precondition(maxRestarts.map { $0 >= 0 } ?? true, "maxRestarts must not be negative")
        self.policy = policy
        self.maxRestarts = maxRestarts
        self.delay = delay
    }

    /// Never restart.
    public static var none: LifecyclePolicy { LifecyclePolicy(policy: .never) }

    /// Restart after a failure, at most `maxRestarts` times.
    public static func restartOnFailure(
        maxRestarts: Int? = nil,
        delay: (@Sendable (Int) async -> Void)? = nil
    ) -> LifecyclePolicy {
        LifecyclePolicy(policy: .onFailure, maxRestarts: maxRestarts, delay: delay)
    }

    /// Restart after a normal completion, at most `maxRestarts` times.
    public static func restartOnCompletion(
        maxRestarts: Int? = nil,
        delay: (@Sendable (Int) async -> Void)? = nil
    ) -> LifecyclePolicy {
        LifecyclePolicy(policy: .onCompletion, maxRestarts: maxRestarts, delay: delay)
    }

    /// Restart after a failure or a completion, at most `maxRestarts` times.
    public static func restartAlways(
        maxRestarts: Int? = nil,
        delay: (@Sendable (Int) async -> Void)? = nil
    ) -> LifecyclePolicy {
        LifecyclePolicy(policy: .always, maxRestarts: maxRestarts, delay: delay)
    }

    /// Whether a side effect that ended with `termination` after `restartCount` restarts
    /// runs again.
    public func shouldRestart(after termination: Termination, restartCount: Int) -> Bool {
        if let maxRestarts, restartCount >= maxRestarts { return false }
        switch (policy, termination) {
        case (.never, _): return false
        case (.always, _): return true
        case (.onFailure, .failed): return true
        case (.onCompletion, .finished): return true
        case (.onFailure, .finished), (.onCompletion, .failed): return false
        }
    }
}
