import StateMachineHierarchy
import Testing

@Suite("History states")
struct HistoryTests {
    /// `player` { `off` | `on` { `playing` | `paused` { `quiet` | `loud` } } } with a
    /// shallow and a deep history on `on`, reached from `off`.
    private static func player(_ log: Recorder, default defaultTarget: String? = nil) throws -> Chart {
        func logged(_ state: Chart.State, _ name: String) -> Chart.State {
            state.onEnter(log.record("\(name)_enter")).onExit(log.record("\(name)_exit"))
        }
        return try Chart(name: "player") {
            logged(Chart.State("off"), "off")
                .on("resume", to: .history("onShallow"))
                .on("resumeDeep", to: .history("onDeep"))
                .on("power", to: "on")
            logged(
                Chart.State("on") {
                    logged(Chart.State("playing"), "playing").on("pause", to: "paused")
                    logged(
                        Chart.State("paused") {
                            logged(Chart.State("quiet"), "quiet").on("louder", to: "loud")
                            logged(Chart.State("loud"), "loud")
                        },
                        "paused"
                    )
                    .on("play", to: "playing")
                },
                "on"
            )
            .history("onShallow", .shallow, default: defaultTarget)
            .history("onDeep", .deep)
            .on("off", to: "off")
        }
    }

    @Test("shallow history re-enters the remembered child, then its initial states")
    func shallow() throws {
        let log = Recorder()
        let chart = try Self.player(log)
        chart.start()
        try chart.handle("power")
        try chart.handle("pause")
        try chart.handle("louder")
        try chart.handle("off")
        #expect(chart.activeStates == ["off"])
        log.clear()
        try chart.handle("resume")
        #expect(chart.activeStates == ["on", "paused", "quiet"])
        #expect(log.entries == ["off_exit", "on_enter", "paused_enter", "quiet_enter"])
    }

    @Test("deep history re-enters the whole remembered sub-configuration")
    func deep() throws {
        let log = Recorder()
        let chart = try Self.player(log)
        chart.start()
        try chart.handle("power")
        try chart.handle("pause")
        try chart.handle("louder")
        try chart.handle("off")
        log.clear()
        try chart.handle("resumeDeep")
        #expect(chart.activeStates == ["on", "paused", "loud"])
        #expect(log.entries == ["off_exit", "on_enter", "paused_enter", "loud_enter"])
    }

    @Test("without a record, history takes its default transition, else the initial states")
    func defaults() throws {
        let withDefault = try Self.player(Recorder(), default: "loud")
        withDefault.start()
        try withDefault.handle("resume")
        #expect(withDefault.activeStates == ["on", "paused", "loud"])

        let withoutDefault = try Self.player(Recorder())
        withoutDefault.start()
        try withoutDefault.handle("resumeDeep")
        #expect(withoutDefault.activeStates == ["on", "playing"])
    }

    @Test("the record is the configuration at the last exit, and stop forgets it")
    func latestExitWins() throws {
        let chart = try Self.player(Recorder())
        chart.start()
        try chart.handle("power")
        try chart.handle("pause")
        try chart.handle("off")
        try chart.handle("resume")
        try chart.handle("play")
        try chart.handle("off")
        try chart.handle("resume")
        #expect(chart.activeStates == ["on", "playing"])
        try chart.handle("pause")
        try chart.handle("off")
        chart.stop()
        chart.start()
        try chart.handle("resume")
        #expect(chart.activeStates == ["on", "playing"])
    }

    @Test("deep history of a parallel state restores every region")
    func parallelDeep() throws {
        let chart = try Chart(name: "p") {
            Chart.State("idle").on("back", to: .history("h"))
            Chart.State(parallel: "work") {
                Chart.Region {
                    Chart.State("a1").on("a", to: "a2")
                    Chart.State("a2")
                }
                Chart.Region {
                    Chart.State("b1").on("b", to: "b2")
                    Chart.State("b2")
                }
            }
            .history("h", .deep)
            .on("leave", to: "idle")
        }
        chart.start()
        try chart.handle("back")
        #expect(chart.activeStates == ["work", "a1", "b1"])
        try chart.handle("a")
        try chart.handle("b")
        try chart.handle("leave")
        try chart.handle("back")
        #expect(chart.activeStates == ["work", "a2", "b2"])
    }

    @Test("declaration errors name the history")
    func errors() {
        #expect(
            throws: StatechartError.invalidHistory(
                history: "h",
                reason: "'a' is a simple state; only composite and parallel states have a history"
            )
        ) {
            try Chart(name: "x") { Chart.State("a").history("h") }
        }
        #expect(throws: StatechartError.invalidHistory(history: "h", reason: "its default 'b' is not inside 'a'")) {
            try Chart(name: "x") {
                Chart.State("a") { Chart.State("a1") }.history("h", default: "b")
                Chart.State("b")
            }
        }
        #expect(
            throws: StatechartError.unknownPseudoState(name: "nope", referencedBy: "the handler for event 'e' on 'a'")
        ) {
            try Chart(name: "x") { Chart.State("a").on("e", to: .history("nope")) }
        }
        #expect(throws: StatechartError.duplicatePseudoState(name: "h")) {
            try Chart(name: "x") {
                Chart.State("a") { Chart.State("a1") }.history("h")
                Chart.State("b") { Chart.State("b1") }.history("h")
            }
        }
    }
}
