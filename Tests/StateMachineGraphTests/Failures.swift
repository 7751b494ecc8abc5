import StateMachineSupport
import StateMachineTest

/// Collects the failures a runner reports, in place of the test framework's.
final class Failures: Sendable {
    private let messages = Lock<[String]>([])

    /// The failure function to hand to a runner.
    var fail: FailFunction {
        { [messages] message, _, _ in messages.withLock { $0.append(message) } }
    }

    /// The failures so far.
    var all: [String] { messages.withLock { $0 } }
}
