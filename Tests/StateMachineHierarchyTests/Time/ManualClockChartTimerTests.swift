import Testing

@testable import StateMachineHierarchy

/// A chart arms its delayed transitions on a `ManualStatechartClock` without a closure: it
/// registers its hooks with the clock once, and each timer names them by number (see
/// `ManualStatechartClock.scheduleChartTimer`). These tests hold the registry to account: a
/// timer reaches its own chart among several on one clock, a released chart leaves nothing
/// behind, and timers armed through a closure keep working beside the charts'.
@Suite("Chart timers on a shared manual clock")
struct ManualClockChartTimerTests {
    private static func light(_ clock: ManualStatechartClock, red: Duration) throws -> Chart {
        try Chart(name: "light", clock: clock) {
            Chart.State("red").after(red, to: "green")
            Chart.State("green").on("stop", to: "red")
        }
    }

    @Test("each chart's timer reaches that chart, at its own deadline")
    func timersReachTheirOwnChart() throws {
        let clock = ManualStatechartClock()
        let slow = try Self.light(clock, red: .seconds(3))
        let fast = try Self.light(clock, red: .seconds(1))
        slow.start()
        fast.start()
        #expect(clock.registeredChartCount == 2)
        clock.advance(by: .seconds(1))
        #expect(fast.activeStates == ["green"])
        #expect(slow.activeStates == ["red"])
        clock.advance(by: .seconds(2))
        #expect(slow.activeStates == ["green"])
        #expect(clock.pendingTimerCount == 0)
    }

    @Test("a released chart unregisters from the clock and takes its timers off it")
    func releasedChartsLeaveNothing() throws {
        let clock = ManualStatechartClock()
        let kept = try Self.light(clock, red: .seconds(5))
        kept.start()
        for _ in 0..<100 {
            let chart = try Self.light(clock, red: .seconds(1))
            chart.start()
        }
        #expect(clock.registeredChartCount == 1)
        #expect(clock.pendingTimerCount == 1)
        clock.advance(by: .seconds(5))
        #expect(kept.activeStates == ["green"])
    }

    @Test("a chart without delayed transitions does not register")
    func chartsWithoutTimersDoNotRegister() throws {
        let clock = ManualStatechartClock()
        let chart = try Chart(name: "plain", clock: clock) {
            Chart.State("a").on("go", to: "b")
            Chart.State("b")
        }
        chart.start()
        #expect(clock.registeredChartCount == 0)
    }

    @Test("closure timers and chart timers fire together in deadline order")
    func closureAndChartTimersInterleave() throws {
        let clock = ManualStatechartClock()
        let order = Recorder()
        let chart = try Chart(name: "light", clock: clock) {
            Chart.State("red").after(.seconds(2), to: "green", action: order.record("chart"))
            Chart.State("green")
        }
        let early = clock.schedule(after: .seconds(1)) { order.append("early") }
        let late = clock.schedule(after: .seconds(3)) { order.append("late") }
        let cancelled = clock.schedule(after: .seconds(2)) { order.append("cancelled") }
        chart.start()
        cancelled.cancel()
        clock.advance(by: .seconds(4))
        #expect(order.entries == ["early", "chart", "late"])
        _ = (early, late)
    }

    @Test("a timer re-armed by a self-transition replaces the cancelled one")
    func rearmedTimerReplacesTheOld() throws {
        let clock = ManualStatechartClock()
        let chart = try Chart(name: "pulse", clock: clock) {
            Chart.State("wait").after(.seconds(2), to: "done").on("poke", to: "wait")
            Chart.State("done")
        }
        chart.start()
        clock.advance(by: .seconds(1))
        try chart.handle("poke")
        #expect(clock.pendingTimerCount == 1)
        clock.advance(by: .seconds(1))
        #expect(chart.activeStates == ["wait"])
        clock.advance(by: .seconds(1))
        #expect(chart.activeStates == ["done"])
    }
}
