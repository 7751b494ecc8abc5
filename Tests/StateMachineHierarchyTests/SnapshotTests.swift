import Foundation
import StateMachineHierarchy
import Testing

@Suite("Statechart snapshots")
struct SnapshotTests {
    /// A player with a deep history, a delayed transition and a parallel state with a join.
    private static func definition(_ log: Recorder) -> Chart.Definition {
        Chart.Definition(name: "device") {
            Chart.State("standby")
                .on("wake", to: .history("mode"))
                .onEnter(log.record("standby_enter"))
            Chart.State("active") {
                Chart.State("menu").on("select", to: "settings")
                Chart.State("settings") {
                    Chart.State("general").on("next", to: "network")
                    Chart.State("network").after(.seconds(10), to: "general")
                }
            }
            .history("mode", .deep)
            .onEnter(log.record("active_enter"))
            .on("sleep", to: "standby")
            .on("sync", to: "syncing")
            Chart.State(parallel: "syncing") {
                Chart.Region {
                    Chart.State("upload").on("uploaded", to: .join("synced"))
                }
                Chart.Region {
                    Chart.State("download").on("downloaded", to: .join("synced"))
                }
            }
            Chart.Join("synced", region: "syncing", sources: ["upload", "download"], target: "standby")
        }
    }

    private static func roundTrip(_ snapshot: StatechartSnapshot) throws -> StatechartSnapshot {
        try JSONDecoder().decode(StatechartSnapshot.self, from: JSONEncoder().encode(snapshot))
    }

    @Test("configuration, deep history and pending timers survive a JSON round trip")
    func resume() throws {
        let clock = ManualStatechartClock()
        let chart = try Chart(Self.definition(Recorder()), clock: clock)
        chart.start()
        try chart.handle("wake")
        try chart.handle("select")
        try chart.handle("next")
        clock.advance(by: .seconds(4))
        let saved = try Self.roundTrip(chart.snapshot())
        #expect(saved.configuration == ["active", "active/settings", "active/settings/network"])
        #expect(saved.timers == [.init(state: "active/settings/network", delayedTransition: 0, remaining: .seconds(6))])
        let json = String(decoding: try JSONEncoder().encode(saved.timers), as: UTF8.self)
        #expect(json.contains(#""remainingNanoseconds":6000000000"#), "\(json)")

        // The old chart goes on alone; the restored one must behave as it would have.
        chart.stop()
        let log = Recorder()
        let newClock = ManualStatechartClock()
        let restored = try Chart(Self.definition(log), clock: newClock, restoring: saved)
        #expect(restored.isRunning)
        #expect(restored.activeStates == ["active", "settings", "network"])
        #expect(log.entries.isEmpty, "restoring runs no enter block")
        newClock.advance(by: .milliseconds(5_999))
        #expect(restored.activeStates == ["active", "settings", "network"])
        newClock.advance(by: .milliseconds(1))
        #expect(restored.activeStates == ["active", "settings", "general"])

        try restored.handle("next")
        try restored.handle("sleep")
        let asleep = try Self.roundTrip(restored.snapshot())
        #expect(asleep.history == ["mode": ["active/settings", "active/settings/network"]])
        #expect(asleep.timers.isEmpty)
        let again = try Chart(Self.definition(Recorder()), clock: ManualStatechartClock(), restoring: asleep)
        try again.handle("wake")
        #expect(again.activeStates == ["active", "settings", "network"])
    }

    @Test("a delayed transition that already fired (its guard failed) does not restart on restore")
    func firedTimerStaysFired() throws {
        let definition = Chart.Definition(name: "t") {
            Chart.State("waiting").after(.seconds(1), to: "late", guard: { _ in false })
            Chart.State("late")
        }
        let clock = ManualStatechartClock()
        let chart = try Chart(definition, clock: clock)
        chart.start()
        clock.advance(by: .seconds(1))
        let saved = chart.snapshot()
        #expect(saved.timers.isEmpty)
        let newClock = ManualStatechartClock()
        let restored = try Chart(definition, clock: newClock, restoring: saved)
        #expect(newClock.pendingTimerCount == 0)
        newClock.advance(by: .seconds(5))
        #expect(restored.activeStates == ["waiting"])
    }

    @Test("a partial join is saved and completes after restoring")
    func joins() throws {
        let chart = try Chart(Self.definition(Recorder()), clock: ManualStatechartClock())
        chart.start()
        try chart.handle("wake")
        try chart.handle("sync")
        try chart.handle("uploaded")
        let saved = try Self.roundTrip(chart.snapshot())
        #expect(saved.joins == ["synced": ["syncing@0/upload"]])
        let restored = try Chart(Self.definition(Recorder()), clock: ManualStatechartClock(), restoring: saved)
        try restored.handle("downloaded")
        #expect(restored.activeStates == ["standby"])
    }

    @Test("a stopped chart's snapshot restores a stopped chart")
    func stopped() throws {
        let chart = try Chart(Self.definition(Recorder()))
        let restored = try Chart(Self.definition(Recorder()), restoring: chart.snapshot())
        #expect(!restored.isRunning)
        #expect(restored.activeStates.isEmpty)
    }

    @Test("a snapshot that does not fit the chart is an error naming what is wrong")
    func invalid() throws {
        func restore(_ snapshot: StatechartSnapshot) throws {
            _ = try Chart(Self.definition(Recorder()), restoring: snapshot)
        }
        #expect(throws: StatechartError.invalidSnapshot(reason: "it was taken from chart 'other', not 'device'")) {
            try restore(StatechartSnapshot(chart: "other", isRunning: true, configuration: ["standby"]))
        }
        #expect(throws: StatechartError.self) {
            try restore(StatechartSnapshot(chart: "device", isRunning: true, configuration: ["nowhere"]))
        }
        #expect(throws: StatechartError.invalidSnapshot(reason: "region 'activeSubMachine' has no active state")) {
            try restore(StatechartSnapshot(chart: "device", isRunning: true, configuration: ["active"]))
        }
        #expect(
            throws: StatechartError.invalidSnapshot(
                reason: "'standby' and 'active' are both active in region 'device'"
            )
        ) {
            try restore(StatechartSnapshot(chart: "device", isRunning: true, configuration: ["active", "standby"]))
        }
        #expect(throws: StatechartError.invalidSnapshot(reason: "'active/menu' is active but its parent is not")) {
            try restore(
                StatechartSnapshot(chart: "device", isRunning: true, configuration: ["standby", "active/menu"])
            )
        }
        #expect(throws: StatechartError.invalidSnapshot(reason: "the chart has no history named 'h'")) {
            try restore(
                StatechartSnapshot(chart: "device", isRunning: true, configuration: ["standby"], history: ["h": []])
            )
        }
        #expect(
            throws: StatechartError.invalidSnapshot(
                reason: "'standby' has no active delayed transition number 0"
            )
        ) {
            try restore(
                StatechartSnapshot(
                    chart: "device",
                    isRunning: true,
                    configuration: ["standby"],
                    timers: [.init(state: "standby", delayedTransition: 0, remaining: .seconds(1))]
                )
            )
        }
    }
}
