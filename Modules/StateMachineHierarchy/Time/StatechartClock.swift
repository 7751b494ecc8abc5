import StateMachineSupport

/// The time source behind delayed transitions (`after:`) and delayed SCXML `<send>`s.
///
/// A clock only runs callbacks later; the machine decides what a callback means (and
/// ignores one whose state has been exited in the meantime, so a timer that fires while
/// it is being cancelled never takes a stale transition). Use ``continuous`` in
/// production and a ``ManualStatechartClock`` in tests, which fires timers only when told
/// to, on the caller's thread, so tests never wait for real time.
public protocol StatechartClock: Sendable {
    /// The time elapsed since the clock's origin (a fixed instant of this clock). Only
    /// differences between two readings mean something: a machine reads it to know how
    /// much of a pending delay is left (for snapshots).
    var now: Duration { get }

    /// Calls `fire` once, after `delay`, unless the returned timer is cancelled first.
    /// `fire` may run on any thread, but never before `schedule` returns: machines call
    /// `schedule` while holding their own lock, which `fire` takes.
    func schedule(after delay: Duration, _ fire: @escaping @Sendable () -> Void) -> StatechartTimer
}

extension StatechartClock where Self == ContinuousStatechartClock {
    /// Real time: each timer is a task sleeping on `ContinuousClock`.
    public static var continuous: ContinuousStatechartClock { ContinuousStatechartClock() }
}

/// What a ``ManualStatechartClock`` calls when a statechart's delayed transition falls due
/// (see `ManualStatechartClock.scheduleChartTimer`): the engine's hooks, which hold the
/// engine weakly, so a pending timer keeps no dropped chart alive.
protocol ManualClockTimerTarget: AnyObject, Sendable {
    /// The delayed transition `timer`, armed in its state's `generation`, fell due;
    /// `selfFed` when it was armed with no delay.
    func timerFired(_ timer: Int32, generation: UInt64, selfFed: Bool)
}

/// A pending callback of a ``StatechartClock``.
public struct StatechartTimer: Sendable {
    private let onCancel: @Sendable () -> Void

    /// A timer that runs `cancel` when it is cancelled. `cancel` must be idempotent.
    public init(cancel: @escaping @Sendable () -> Void) {
        onCancel = cancel
    }

    /// Stops the callback from running if it has not started. Idempotent.
    public func cancel() {
        onCancel()
    }
}

/// Real time: every timer is a `Task` that sleeps on `ContinuousClock` and then fires,
/// unless it was cancelled while sleeping. Costs one task per pending timer.
public struct ContinuousStatechartClock: StatechartClock {
    /// The instant every `ContinuousStatechartClock` measures ``now`` from, so that readings
    /// of two instances can be compared.
    private static let origin = ContinuousClock.now

    /// The real-time clock.
    public init() {}

    /// The `ContinuousClock` time elapsed since the first use of this type in the process.
    public var now: Duration { ContinuousClock.now - Self.origin }

    /// Schedules `fire` after `delay` of real time.
    public func schedule(after delay: Duration, _ fire: @escaping @Sendable () -> Void) -> StatechartTimer {
        let task = Task {
            do {
                try await Task.sleep(for: delay, clock: .continuous)
            } catch {
                return
            }
            fire()
        }
        return StatechartTimer { task.cancel() }
    }
}

/// A clock that moves only when ``advance(by:)`` is called: the clock for tests.
///
/// `advance(by:)` fires every timer that falls due, in deadline order (timers with the
/// same deadline in the order they were scheduled), synchronously on the caller's thread,
/// with ``now`` set to each timer's deadline while it fires. Timers scheduled by a
/// callback fire in the same call when they fall due before its end. When a machine is
/// idle its callback runs the triggered step right there, so when `advance` returns the
/// delayed transitions have been taken.
public final class ManualStatechartClock: StatechartClock {
    private struct Pending {
        var deadline: Duration
        var sequence: UInt64
        var fire: Fire
    }

    /// What a pending timer runs when it falls due: a caller's closure, or a statechart's
    /// delayed transition, armed without allocating or retaining anything (see
    /// ``scheduleChartTimer(after:target:timer:generation:)``).
    private enum Fire {
        case closure(@Sendable () -> Void)
        /// The delayed transition `timer` of the chart registered as `target` (see
        /// ``register(_:)``), armed in its state's `generation`.
        case chartTimer(target: Int, timer: Int32, generation: UInt64, selfFed: Bool)
    }

    private struct Timeline {
        var now: Duration = .zero
        var nextSequence: UInt64 = 0
        /// In the order they were scheduled, so by sequence: scheduling appends, and a
        /// cancelled timer is found by binary search (no hashing, as a dictionary would).
        var pending: [Pending] = []
        /// The charts that arm timers on this clock (see ``register(_:)``), by number.
        var targets: [Int: any ManualClockTimerTarget] = [:]
        var nextTarget = 0

        /// Removes the timer `sequence` if it is still pending, and returns it.
        mutating func remove(_ sequence: UInt64) -> Pending? {
            var low = 0
            var high = pending.count
            while low < high {
                let middle = (low + high) / 2
                if pending[middle].sequence < sequence { low = middle + 1 } else { high = middle }
            }
            guard low < pending.count, pending[low].sequence == sequence else { return nil }
            return pending.remove(at: low)
        }
    }

    private let timeline = Lock(Timeline())

    /// A clock at time zero with no timers.
    public init() {}

    /// The time elapsed on this clock since it was created.
    public var now: Duration { timeline.withLock { $0.now } }

    /// How many timers are scheduled and not yet fired or cancelled.
    public var pendingTimerCount: Int { timeline.withLock { $0.pending.count } }

    /// How many charts have timers registered on this clock (see ``register(_:)``).
    var registeredChartCount: Int { timeline.withLock { $0.targets.count } }

    /// The earliest deadline of the pending timers, nil when none is pending: where a
    /// driver that lets time pass only when a machine waits (the W3C conformance runner)
    /// moves the clock next. Linear in the number of pending timers.
    package var nextDeadline: Duration? {
        timeline.withLock { $0.pending.lazy.map(\.deadline).min() }
    }

    /// Schedules `fire` at `now + delay` (a negative delay counts as zero).
    public func schedule(after delay: Duration, _ fire: @escaping @Sendable () -> Void) -> StatechartTimer {
        let sequence = append(after: delay, .closure(fire)).sequence
        return StatechartTimer { [self] in cancel(sequence) }
    }

    /// Registers a statechart's hooks as the target of its timers on this clock, until
    /// ``unregister(_:)``; returns the number that ``scheduleChartTimer(after:target:timer:generation:)``
    /// names it by. The clock holds `target` strongly (the hooks hold their chart weakly).
    func register(_ target: any ManualClockTimerTarget) -> Int {
        timeline.withLock { timeline in
            let number = timeline.nextTarget
            timeline.nextTarget += 1
            timeline.targets[number] = target
            return number
        }
    }

    /// Forgets the target `number` (its chart is gone, its timers cancelled).
    func unregister(_ number: Int) {
        let target = timeline.withLock { $0.targets.removeValue(forKey: number) }
        _ = target  // Released outside the lock.
    }

    /// Schedules a statechart's delayed transition `timer`, armed in its state's
    /// `generation`: at `now + delay`, registered target `target`'s `timerFired` is called
    /// with them. What the statechart engine arms its timers with on this clock: nothing
    /// is allocated or retained (the timer names its target by number and is cancelled by
    /// its sequence number, with ``cancel(_:)``), so a chart entering and leaving a timed
    /// state costs two short critical sections. Returns the timer's sequence number and
    /// its deadline.
    func scheduleChartTimer(
        after delay: Duration,
        target: Int,
        timer: Int32,
        generation: UInt64
    ) -> (sequence: UInt64, deadline: Duration) {
        append(after: delay, .chartTimer(target: target, timer: timer, generation: generation, selfFed: delay <= .zero))
    }

    /// Cancels the timer with sequence number `sequence` if it is still pending.
    func cancel(_ sequence: UInt64) {
        // Released outside the lock: its closure may hold the last reference to anything.
        let cancelled = timeline.withLock { $0.remove(sequence) }
        _ = cancelled
    }

    /// Adds a timer at `now + delay` (a negative delay counts as zero); returns its
    /// sequence number and deadline.
    private func append(after delay: Duration, _ fire: Fire) -> (sequence: UInt64, deadline: Duration) {
        timeline.withLock { timeline in
            let sequence = timeline.nextSequence
            let deadline = timeline.now + max(delay, .zero)
            timeline.nextSequence += 1
            timeline.pending.append(Pending(deadline: deadline, sequence: sequence, fire: fire))
            return (sequence, deadline)
        }
    }

    /// Moves the clock forward by `duration`, firing every timer that falls due on the way.
    public func advance(by duration: Duration) {
        let end = timeline.withLock { $0.now } + max(duration, .zero)
        while let (fire, target) = takeNextTimer(dueBy: end) {
            switch fire {
            case .closure(let run):
                run()
            case .chartTimer(_, let timer, let generation, let selfFed):
                target?.timerFired(timer, generation: generation, selfFed: selfFed)
            }
        }
        timeline.withLock { $0.now = max($0.now, end) }
    }

    /// Removes and returns the earliest timer due by `end`, moving `now` to its deadline,
    /// with its chart's registered target when it is a chart's timer (looked up under the
    /// lock, to be called outside it).
    private func takeNextTimer(dueBy end: Duration) -> (fire: Fire, target: (any ManualClockTimerTarget)?)? {
        timeline.withLock { timeline in
            while true {
                // The earliest deadline; of equal ones, the first scheduled (the lowest position).
                guard var next = timeline.pending.indices.first else { return nil }
                for position in timeline.pending.indices.dropFirst()
                where timeline.pending[position].deadline < timeline.pending[next].deadline {
                    next = position
                }
                guard timeline.pending[next].deadline <= end else { return nil }
                let due = timeline.pending.remove(at: next)
                timeline.now = max(timeline.now, due.deadline)
                guard case .chartTimer(let number, _, _, _) = due.fire else { return (due.fire, nil) }
                // A chart cancels its timers before it unregisters, so its target is always
                // found; were it not, the timer would have no one to tell.
                guard let target = timeline.targets[number] else { continue }
                return (due.fire, target)
            }
        }
    }
}
