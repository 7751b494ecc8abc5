import StateMachineHierarchy
import Testing

// The typed builder: enum identifiers, a composite and a parallel state, a fork and a join.

enum Player: Hashable, Sendable {
    case stopped, active, playing, paused, normal, shuffled, repeatOff, repeatOn
}

enum PlayerEvent: Hashable, Sendable {
    case play, pause, stop, shuffle, toggleRepeat, startShuffled
}

typealias PlayerChart = Statechart<Player, PlayerEvent, Int>

@Suite("Typed DSL")
struct DSLTests {
    static func player(_ log: Recorder) throws -> PlayerChart {
        try PlayerChart(name: "player") {
            PlayerChart.State(.stopped)
                .on(.play, to: .active)
                .on(.startShuffled, to: .fork("shuffle-and-play"))
            PlayerChart.State(parallel: .active) {
                PlayerChart.Region {
                    PlayerChart.State(.playing).on(.pause, to: .paused)
                    PlayerChart.State(.paused).on(.play, to: .playing)
                }
                PlayerChart.Region {
                    PlayerChart.State(.normal).on(.shuffle, to: .shuffled)
                    PlayerChart.State(.shuffled).on(.shuffle, to: .normal)
                }
                PlayerChart.Region(initial: .repeatOn) {
                    PlayerChart.State(.repeatOff).on(.toggleRepeat, to: .repeatOn)
                    PlayerChart.State(.repeatOn).on(.toggleRepeat, to: .repeatOff)
                }
            }
            .onEnter { context in log.append("active_enter \(context.payload ?? 0)") }
            .onExit { _ in log.append("active_exit") }
            .on(.stop, to: .stopped) { _ in log.append("stop_action") }
            PlayerChart.Fork("shuffle-and-play", region: .active, targets: [.playing, .shuffled])
        }
    }

    @Test("declares nested and parallel states with typed identifiers")
    func typedChart() throws {
        let log = Recorder()
        let chart = try Self.player(log)
        chart.start()
        try chart.handle(.play, payload: 7)
        #expect(chart.activeStates == [.active, .playing, .normal, .repeatOn])
        try chart.handle(.pause)
        try chart.handle(.shuffle)
        #expect(chart.activeStates == [.active, .paused, .shuffled, .repeatOn])
        #expect(chart.isActive(.shuffled))
        try chart.handle(.stop)
        #expect(log.entries == ["active_enter 7", "active_exit", "stop_action"])
        try chart.handle(.startShuffled)
        #expect(chart.activeStates == [.active, .playing, .shuffled, .repeatOn])
        #expect(chart.path(of: .repeatOn) == "active@2/repeatOn")
        #expect(try chart.state(at: "active@1/shuffled") == .shuffled)
    }

    @Test("builders accept conditions and loops")
    func builderControlFlow() throws {
        let withExtra = true
        let chart = try Chart(name: "main") {
            for index in 0..<3 {
                Chart.State("s\(index)").on("next", to: "s\((index + 1) % 3)")
            }
            if withExtra {
                Chart.State("extra")
            } else {
                Chart.State("never")
            }
        }
        chart.start()
        try chart.handle("next")
        try chart.handle("next")
        #expect(chart.activeStates == ["s2"])
        #expect(chart.path(of: "extra") == "extra")
        #expect(chart.path(of: "never") == nil)
    }
}
