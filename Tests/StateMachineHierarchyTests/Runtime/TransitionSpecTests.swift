import StateMachineHierarchy
import Testing

// Ports of TBSMTransitionTests.m (6) and TBSMCompoundTransitionTests.m (8). TBSM builds
// transition objects on the fly and tests their getters; ours are compiled into the chart,
// so each getter is checked through what the transition does and what the debugger logs.

private let eventNameA = "DummyEventA"

/// Runs `body` with a debugger attached and returns the lines it logged.
func debugLines(of chart: Chart, _ body: () throws -> Void) rethrows -> [String] {
    let lines = Recorder()
    chart.attachDebugger(StatechartDebugSink { lines.append($0) })
    defer { chart.detachDebugger() }
    try body()
    return lines.entries
}

@Suite("Transition spec (TBSMTransitionTests)")
struct TransitionSpecTests {
    static func chart(_ log: Recorder, kind: StatechartTransitionKind = .external) throws -> Chart {
        try Chart(name: "main") {
            Chart.State("a").onExit(log.record("a_exit"))
                .on(
                    eventNameA,
                    to: "b",
                    kind: kind,
                    action: log.record("action"),
                    guard: { _ in
                        log.append("guard")
                        return true
                    }
                )
                .onInternal("internal")
            Chart.State("b").onEnter(log.record("b_enter"))
        }
    }

    // TBSM names a target-less transition after its source; an internal transition targets
    // its source, so ours is logged as `a --> a` (TBStateMachine's debugger format).
    @Test("returns its name")
    func name() throws {
        let chart = try Self.chart(Recorder())
        chart.start()
        let internalLines = try debugLines(of: chart) { try chart.handle("internal") }
        #expect(internalLines.contains("[main] performing transition: a --> a data: nil"))
        let lines = try debugLines(of: chart) { try chart.handle(eventNameA) }
        #expect(lines.contains("[main] performing transition: a --> b data: nil"))
    }

    @Test("leaves its source state")
    func source() throws {
        let chart = try Self.chart(Recorder())
        chart.start()
        let exits = Box<[String]>([])
        let subscription = try chart.observe(.exited, at: "a") { exits.value.append($0.state) }
        try chart.handle(eventNameA)
        #expect(exits.value == ["a"])
        subscription.cancel()
    }

    @Test("enters its target state")
    func target() throws {
        let chart = try Self.chart(Recorder())
        chart.start()
        try chart.handle(eventNameA)
        #expect(chart.activeStates == ["b"])
    }

    @Test("runs its action between exit and entry")
    func action() throws {
        let log = Recorder()
        let chart = try Self.chart(log)
        chart.start()
        try chart.handle(eventNameA)
        #expect(log.entries == ["guard", "a_exit", "action", "b_enter"])
    }

    @Test("consults its guard before anything exits")
    func guardBlock() throws {
        let log = Recorder()
        let chart = try Self.chart(log)
        chart.start()
        try chart.handle(eventNameA)
        #expect(log.entries.first == "guard")
    }

    // TBSM finds no LCA for states outside any machine at run time; a target outside the
    // chart cannot be compiled.
    @Test("throws when the target is not in the chart (no LCA)")
    func noLCA() {
        #expect(
            throws: StatechartError.unknownState(name: "b", referencedBy: "the handler for event 'DummyEventA' on 'a'")
        ) {
            try Chart(name: "main") { Chart.State("a").on(eventNameA, to: "b") }
        }
    }
}

@Suite("Compound transition spec (TBSMCompoundTransitionTests)")
struct CompoundTransitionSpecTests {
    static func chart(_ log: Recorder, joinGuard: Bool = true) throws -> Chart {
        try Chart(name: "main") {
            Chart.State("c")
                .onExit(log.record("c_exit"))
                .on(eventNameA, to: .fork("fork"), action: log.record("fork_action"))
            Chart.State(parallel: "parallel") {
                Chart.Region { Chart.State("a").on("a_join", to: .join("join"), action: log.record("join_action")) }
                Chart.Region {
                    Chart.State("b0")
                    Chart.State("b").on(
                        "b_join",
                        to: .join("join"),
                        guard: { _ in
                            log.append("join_guard")
                            return joinGuard
                        }
                    )
                }
            }
            .onEnter(log.record("parallel_enter"))
            Chart.State("d").onEnter(log.record("d_enter"))
            Chart.Fork("fork", region: "parallel", targets: ["a", "b"])
            Chart.Join("join", region: "parallel", sources: ["a", "b"], target: "d")
        }
    }

    @Test("returns its name from a fork transition")
    func forkName() throws {
        let chart = try Self.chart(Recorder())
        chart.start()
        let lines = try debugLines(of: chart) { try chart.handle(eventNameA) }
        #expect(lines.contains("[main] performing transition: c --> fork --> parallel/[a,b] data: nil"))
    }

    @Test("returns its name from a join transition")
    func joinName() throws {
        let chart = try Self.chart(Recorder())
        chart.start()
        try chart.handle(eventNameA)
        let lines = try debugLines(of: chart) { try chart.handle("a_join") }
        #expect(lines.contains("[main] performing transition: parallel/[a,b] --> join --> d data: nil"))
    }

    @Test("starts at its source state")
    func source() throws {
        let chart = try Self.chart(Recorder())
        chart.start()
        try chart.handle(eventNameA)
        #expect(try chart.handle("b_join") == .handled)  // b is a source of the join...
        #expect(
            throws: StatechartError.invalidCompoundTransition(
                pseudoState: "join",
                reason: "'c' handles 'x' with the join but is not one of its sources"
            )
        ) {
            try Chart(name: "main") {  // ...c is not, so it may not take the join.
                Chart.State("c").on("x", to: .join("join"))
                Chart.State(parallel: "p") { Chart.Region { Chart.State("a") } }
                Chart.Join("join", region: "p", sources: ["a"], target: "c")
            }
        }
    }

    @Test("goes through its target pseudo state")
    func targetPseudoState() {
        #expect(
            throws: StatechartError.unknownPseudoState(
                name: "nowhere",
                referencedBy: "the handler for event 'x' on 'c'"
            )
        ) {
            try Chart(name: "main") { Chart.State("c").on("x", to: .join("nowhere")) }
        }
    }

    @Test("ends in its target state")
    func targetState() throws {
        let log = Recorder()
        let chart = try Self.chart(log)
        chart.start()
        try chart.handle(eventNameA)
        try chart.handle("a_join")
        try chart.handle("b_join")
        #expect(chart.activeStates == ["d"])
    }

    @Test("runs its action: the fork's handler action, never a join handler's")
    func action() throws {
        let log = Recorder()
        let chart = try Self.chart(log)
        chart.start()
        try chart.handle(eventNameA)
        #expect(log.entries == ["c_exit", "fork_action", "parallel_enter"])
        log.clear()
        try chart.handle("a_join")
        try chart.handle("b_join")
        #expect(!log.entries.contains("join_action"))
    }

    @Test("consults its guard")
    func guardBlock() throws {
        let log = Recorder()
        let chart = try Self.chart(log, joinGuard: false)
        chart.start()
        try chart.handle(eventNameA)
        try chart.handle("a_join")
        #expect(try chart.handle("b_join") == .unhandled)
        #expect(log.entries.contains("join_guard"))
        #expect(chart.activeStates == ["parallel", "a", "b"])
    }

    @Test("throws when the transition has ambiguous attributes")
    func ambiguous() {
        #expect(
            throws: StatechartError.invalidCompoundTransition(
                pseudoState: "join",
                reason: "'parallel@0/a' is not inside its region 'empty'"
            )
        ) {
            try Chart(name: "main") {
                Chart.State(parallel: "parallel") { Chart.Region { Chart.State("a") } }
                Chart.State(parallel: "empty") { Chart.Region { Chart.State("e") } }
                Chart.State("b")
                Chart.Join("join", region: "empty", sources: ["a"], target: "b")
            }
        }
    }
}
