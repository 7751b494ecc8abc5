import StateMachineHierarchy

/// Real time with every delay multiplied by `scale` (`--delay-scale`): 0.01 makes a chart's
/// delayed transitions and sends 100 times shorter, 0 fires them at once.
struct ScaledStatechartClock: StatechartClock {
    let scale: Double
    private let clock = ContinuousStatechartClock()

    /// The real time elapsed, as the chart sees it (divided by `scale`, so that a delay and
    /// the time it takes agree); real time when the scale is 0.
    var now: Duration { scale > 0 ? clock.now / scale : clock.now }

    func schedule(after delay: Duration, _ fire: @escaping @Sendable () -> Void) -> StatechartTimer {
        clock.schedule(after: delay * scale, fire)
    }
}
