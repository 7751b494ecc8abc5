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
        var fire: @Sendable () -> Void
    }

    private struct Timeline {
        var now: Duration = .zero
        var nextSequence: UInt64 = 0
        /// In the order they were scheduled, so by sequence: scheduling appends, and a
        /// cancelled timer is found by binary search (no hashing, as a dictionary would).
        var pending: [Pending] = []

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

    /// The earliest deadline of the pending timers, nil when none is pending: where a
    /// driver that lets time pass only when a machine waits (the W3C conformance runner)
    /// moves the clock next. Linear in the number of pending timers.
    package var nextDeadline: Duration? {
        timeline.withLock { $0.pending.lazy.map(\.deadline).min() }
    }

    /// Schedules `fire` at `now + delay` (a negative delay counts as zero).
    public func schedule(after delay: Duration, _ fire: @escaping @Sendable () -> Void) -> StatechartTimer {
        scheduleReportingDeadline(after: delay, fire).timer
    }

    /// ``schedule(after:_:)``, and the deadline it set, under one lock: what the statechart
    /// engine arms its timers with on this clock (on another, it also reads `now`).
    func scheduleReportingDeadline(
        after delay: Duration,
        _ fire: @escaping @Sendable () -> Void
    ) -> (timer: StatechartTimer, deadline: Duration) {
        let (sequence, deadline) = timeline.withLock { timeline -> (UInt64, Duration) in
            let sequence = timeline.nextSequence
            let deadline = timeline.now + max(delay, .zero)
            timeline.nextSequence += 1
            timeline.pending.append(Pending(deadline: deadline, sequence: sequence, fire: fire))
            return (sequence, deadline)
        }
        let timer = StatechartTimer { [timeline] in
            // Released outside the lock: its closure may hold the last reference to anything.
            let cancelled = timeline.withLock { $0.remove(sequence) }
            _ = cancelled
        }
        return (timer, deadline)
    }

    /// Moves the clock forward by `duration`, firing every timer that falls due on the way.
    public func advance(by duration: Duration) {
        let end = timeline.withLock { $0.now } + max(duration, .zero)
        while let due = takeNextTimer(dueBy: end) {
            due()
        }
        timeline.withLock { $0.now = max($0.now, end) }
    }

    /// Removes and returns the earliest timer due by `end`, moving `now` to its deadline.
    private func takeNextTimer(dueBy end: Duration) -> (@Sendable () -> Void)? {
        timeline.withLock { timeline in
            // The earliest deadline; of equal ones, the first scheduled (the lowest position).
            guard var next = timeline.pending.indices.first else { return nil }
            for position in timeline.pending.indices.dropFirst()
            where timeline.pending[position].deadline < timeline.pending[next].deadline {
                next = position
            }
            guard timeline.pending[next].deadline <= end else { return nil }
            let due = timeline.pending.remove(at: next)
            timeline.now = max(timeline.now, due.deadline)
            return due.fire
        }
    }
}
