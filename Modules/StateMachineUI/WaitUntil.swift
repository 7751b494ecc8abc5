import Observation

/// Returns once `condition` holds. It is evaluated now and again after every change of the
/// `@Observable` state it reads (a ``UIStateMachine``'s `state`), on the main actor, so a
/// condition over observable state is never missed; a condition that reads nothing
/// observable and is false waits forever, so the caller bounds what it waits for.
@MainActor
public func waitUntil(_ condition: @escaping @MainActor () -> Bool) async {
    while !condition() {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            withObservationTracking {
                _ = condition()
            } onChange: {
                continuation.resume()
            }
        }
        // Observation announces a change before it is made: let it land.
        await Task.yield()
    }
}
