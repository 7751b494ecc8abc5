import StateMachineHierarchy
import Testing

@Suite("Final states, done events and eventless transitions")
struct CompletionTests {
    @Test("a composite state whose region reaches a final state raises done.state.<id>")
    func compositeDone() throws {
        let log = Recorder()
        let chart = try Chart(name: "job") {
            Chart.State("work") {
                Chart.State("step1").on("next", to: "step2")
                Chart.State("step2").on("next", to: "finished")
                Chart.State(final: "finished").onEnter(log.record("finished_enter"))
            }
            .onDone(to: "report", action: log.record("done_action"))
            Chart.State("report").onEnter(log.record("report_enter"))
        }
        chart.start()
        try chart.handle("next")
        #expect(chart.activeStates == ["work", "step2"])
        #expect(try chart.handle("next") == .handled)
        #expect(chart.activeStates == ["report"])
        #expect(log.entries == ["finished_enter", "done_action", "report_enter"])
        #expect(chart.isFinished == false)
    }

    @Test("a parallel state is done only when every region is in a final state")
    func parallelDone() throws {
        let chart = try Chart(name: "setup") {
            Chart.State(parallel: "both") {
                Chart.Region {
                    Chart.State("a").on("a", to: "aDone")
                    Chart.State(final: "aDone")
                }
                Chart.Region {
                    Chart.State("b").on("b", to: "bDone")
                    Chart.State(final: "bDone")
                }
            }
            .onDone(to: "ready")
            Chart.State("ready")
        }
        chart.start()
        try chart.handle("a")
        #expect(chart.activeStates == ["both", "aDone", "b"])
        try chart.handle("b")
        #expect(chart.activeStates == ["ready"])
    }

    @Test("an ancestor can handle the done event of a nested state")
    func doneOfNested() throws {
        let chart = try Chart(name: "outer") {
            Chart.State("top") {
                Chart.State("inner") {
                    Chart.State("i1").on("go", to: "iEnd")
                    Chart.State(final: "iEnd")
                }
            }
            .onDone(of: "inner", to: "after")
            Chart.State("after")
        }
        chart.start()
        try chart.handle("go")
        #expect(chart.activeStates == ["after"])
    }

    @Test("done events are processed before events already queued")
    func doneBeforeQueued() throws {
        let log = Recorder()
        let chart = try Chart(name: "order") {
            Chart.State("work") {
                Chart.State("w").on("finish", to: "end") { context in
                    context.raise("queued")
                    log.append("finish_action")
                }
                Chart.State(final: "end")
            }
            .onDone(to: "next", action: log.record("done"))
            Chart.State("next").on("queued", to: "last", action: log.record("queued"))
            Chart.State("last")
        }
        chart.start()
        try chart.handle("finish")
        #expect(log.entries == ["finish_action", "done", "queued"])
        #expect(chart.activeStates == ["last"])
    }

    @Test("a final state of the root region finishes the chart")
    func rootFinal() throws {
        let chart = try Chart(name: "once") {
            Chart.State("running").on("quit", to: "over")
            Chart.State(final: "over")
        }
        chart.start()
        #expect(!chart.isFinished)
        try chart.handle("quit")
        #expect(chart.isFinished)
        #expect(try chart.handle("quit") == .unhandled)
        chart.stop()
        #expect(!chart.isFinished)
    }

    @Test("eventless transitions run after every step until the configuration is stable")
    func eventlessChain() throws {
        let log = Recorder()
        let count = Box(0)
        let chart = try Chart(name: "chain") {
            Chart.State("idle").on("go", to: "a")
            Chart.State("a").always(to: "b", action: log.record("a->b"))
            Chart.State("b").always(to: "c", action: log.record("b->c"), guard: { _ in count.value > 0 })
                .on("arm", to: "b", kind: .internal) { _ in count.value = 1 }
            Chart.State("c").onEnter(log.record("c_enter"))
        }
        chart.start()
        try chart.handle("go")
        #expect(chart.activeStates == ["b"])
        #expect(log.entries == ["a->b"])
        try chart.handle("arm")
        #expect(chart.activeStates == ["c"])
        #expect(log.entries == ["a->b", "b->c", "c_enter"])
    }

    @Test("eventless transitions are tried from the initial configuration on start")
    func eventlessOnStart() throws {
        let chart = try Chart(name: "boot") {
            Chart.State("boot").always(to: "ready")
            Chart.State("ready")
        }
        chart.start()
        #expect(chart.activeStates == ["ready"])
    }

    @Test("eventless transitions that never settle fail the step and name the cycle")
    func eventlessLoop() throws {
        let chart = try Chart(name: "loop", options: StatechartOptions(maxMicrosteps: 50)) {
            Chart.State("idle").on("go", to: "ping")
            Chart.State("ping").always(to: "pong")
            Chart.State("pong").always(to: "ping")
        }
        chart.start()
        #expect(throws: StatechartError.eventlessLoop(limit: 50, cycle: ["ping --> pong", "pong --> ping"])) {
            try chart.handle("go")
        }
        // The failed step leaves one consistent configuration behind.
        #expect(chart.activeStates.count == 1)
        #expect(["ping", "pong"].contains(chart.activeStates[0]))
    }

    @Test("declaration errors: transitions out of a final state, done of a simple state")
    func errors() {
        #expect(
            throws: StatechartError.invalidTransition(source: "f", reason: "a final state has no outgoing transitions")
        ) {
            try Chart(name: "x") { Chart.State(final: "f").on("e", to: "f") }
        }
        #expect(
            throws: StatechartError.invalidTransition(
                source: "a",
                reason: "'a' is a simple state, so it raises no done event"
            )
        ) {
            try Chart(name: "x") { Chart.State("a").onDone(to: "a") }
        }
    }
}

@Suite("Join semantics")
struct JoinSemanticsTests {
    private static func chart(_ semantics: StatechartOptions.JoinSemantics) throws -> Chart {
        try Chart(name: "sync", options: StatechartOptions(joinSemantics: semantics)) {
            Chart.State(parallel: "both") {
                Chart.Region {
                    Chart.State("a1").on("a", to: "a2")
                    Chart.State("a2").on("done", to: .join("j"))
                }
                Chart.Region {
                    Chart.State("b1").on("b", to: "b2")
                    Chart.State("b2").on("done", to: .join("j"))
                }
            }
            .on("done", to: "fallback")
            Chart.State("joined")
            Chart.State("fallback")
            Chart.Join("j", region: "both", sources: ["a2", "b2"], target: "joined")
        }
    }

    @Test("TBStateMachine's default: a partial join remembers its arrival and consumes the event")
    func rememberArrivals() throws {
        let chart = try Self.chart(.rememberArrivals)
        chart.start()
        try chart.handle("a")
        #expect(try chart.handle("done") == .handled)
        #expect(chart.activeStates == ["both", "a2", "b1"])
        try chart.handle("b")
        try chart.handle("done")
        #expect(chart.activeStates == ["joined"])
    }

    @Test("simultaneous (UML/SCXML): the join fires only when every source is active")
    func simultaneous() throws {
        let partial = try Self.chart(.simultaneous)
        partial.start()
        try partial.handle("a")
        try partial.handle("done")
        #expect(partial.activeStates == ["fallback"], "the join did not fire, so the outer handler took the event")

        let complete = try Self.chart(.simultaneous)
        complete.start()
        try complete.handle("a")
        try complete.handle("b")
        try complete.handle("done")
        #expect(complete.activeStates == ["joined"])
    }
}
