import StateMachineSupport

/// The optional run-time check that every call comes from the isolation of the first.
/// Compiled to nothing in release builds, like swift-fsm's.
@usableFromInline
final class ConcurrencyChecker: Sendable {
    /// The first caller's actor (`nil` inside for nonisolated) and its name.
    private let expected = Lock<(set: Bool, id: ObjectIdentifier?, name: String)>((false, nil, ""))

    init() {}

    @usableFromInline
    func check(_ method: String, _ isolation: (any Actor)?) {
        #if DEBUG
        if let violation = violation(method, isolation) { preconditionFailure(violation) }
        #endif
    }

    /// The message for a call from another isolation than the first call's, or `nil`.
    func violation(_ method: String, _ isolation: (any Actor)?) -> String? {
        let id = isolation.map { ObjectIdentifier($0) }
        let name = isolation.map { String(describing: type(of: $0)) } ?? "NonIsolated"
        return expected.withLock { expected in
            guard expected.set else {
                expected = (true, id, name)
                return nil
            }
            guard expected.id != id else { return nil }
            return "Concurrency violation: \(method) called by \(name) (expected \(expected.name))"
        }
    }
}
