import FoundationEssentials

extension DurableMachine {
    // MARK: The clock

    func clockAdvanced(to time: DurableInstant) async {
        guard !isClosed else { return }
        manualTime = max(manualTime, time)
        enqueueDueTimers(by: time)
        await runPending()
    }

    func currentTime() -> DurableInstant {
        store.clock == .manual ? manualTime : DurableClock.wallTime()
    }

    var allTimers: [DurableTimer] { form.timers(of: instance) + scheduled.values }

    static func dueOrder(_ a: DurableTimer, _ b: DurableTimer) -> Bool {
        (a.due, a.id) < (b.due, b.id)
    }

    func enqueueDueTimers(by time: DurableInstant) {
        let queued = Set(pending.compactMap { if case .timer(let timer) = $0.source { timer.id } else { nil } })
        for timer in allTimers.sorted(by: Self.dueOrder) where timer.due <= time && !queued.contains(timer.id) {
            pending.append(Pending(source: .timer(timer), waiter: nil))
        }
    }

    /// On the wall clock: a task that sleeps until the earliest timer falls due.
    func armWake() {
        guard store.clock == .system, !isClosed else { return }
        guard let next = allTimers.map(\.due).min() else {
            wake?.task.cancel()
            wake = nil
            return
        }
        if let wake, wake.due == next { return }
        wake?.task.cancel()
        let delay = max(0, next - DurableClock.wallTime())
        wake = (
            next,
            Task { [weak self] in
                try? await Task.sleep(for: .nanoseconds(delay))
                guard !Task.isCancelled, let self else { return }
                await self.wakeUp()
            }
        )
    }

    func wakeUp() async {
        wake = nil
        enqueueDueTimers(by: DurableClock.wallTime())
        startDraining()
    }
}
