import StateMachineHierarchy

/// A manual clock whose timers cannot be cancelled: every callback fires when due, so a
/// machine must recognise stale callbacks itself. Move it with `inner.advance(by:)`.
struct UncancellableClock: StatechartClock {
    let inner = ManualStatechartClock()
    var now: Duration { inner.now }

    func schedule(after delay: Duration, _ fire: @escaping @Sendable () -> Void) -> StatechartTimer {
        _ = inner.schedule(after: delay, fire)
        return StatechartTimer {}
    }
}
