import StateMachineHierarchy
import Testing

// Behaviour where the article "Semantics and decisions" (StateMachineHierarchy.docc) records a
// decision to differ from TBStateMachine, or where
// the original is silent or crashes.

@Suite("Our decisions on the original's hazards")
struct DecisionTests {
    /// The nested fixture plus the extra handlers these tests need.
    static func fixture(
        _ extra: (inout NestedChart.Definition, Recorder) throws -> Void
    ) throws -> (NestedChart, Recorder) {
        let log = Recorder()
        var definition = try NestedChart.definition(fromFile: try Fixtures.path("statemachine"))
        for path in nestedStatePaths {
            let name = String(path.split(separator: "/").last!.split(separator: "@").first!)
            try definition.onEnter(at: path, log.record("\(name)_enter"))
            try definition.onExit(at: path, log.record("\(name)_exit"))
        }
        try extra(&definition, log)
        let chart = try NestedChart(definition)
        chart.start()
        return (chart, log)
    }

    // "Local transitions on parallel states": TBSM crashes (bad cast) on a local transition whose container is a parallel state.
    @Test("local transition from a parallel state into one of its regions leaves the other regions alone")
    func localIntoParallelRegion() throws {
        let (chart, log) = try Self.fixture { definition, _ in
            try definition.addTransition(from: "b/b3", on: "b3_b322", to: "b/b3@1/b322", kind: .local)
        }
        try chart.handle("a_guard")
        try chart.handle("b_b3")
        log.clear()
        try chart.handle("b3_b322")
        #expect(log.entries == ["b321_exit", "b322_enter"])
        #expect(chart.activeStates == ["b", "b3", "b311", "b322"])
    }

    @Test("local transition from inside a parallel region to the parallel state restarts that region")
    func localOutOfParallelRegion() throws {
        let (chart, log) = try Self.fixture { definition, _ in
            try definition.addTransition(from: "b/b3@1/b321", on: "b321_b3", to: "b/b3", kind: .local)
        }
        try chart.handle("a_guard")
        try chart.handle("b_b3")
        log.clear()
        try chart.handle("b321_b3")
        // Only region 1 restarts: b311 (region 0) and b3 itself stay.
        #expect(log.entries == ["b321_exit", "b321_enter"])
        #expect(chart.activeStates == ["b", "b3", "b311", "b321"])
    }

    @Test(
        "local self-transitions keep the state: composite and parallel restart their children, simple behaves as external",
        arguments: [
            ("a", "a/a1", ["a", "a1"], ["a1_exit", "a1_enter"]),
            ("b/b3", "b/b3", ["b", "b3"], ["b311_exit", "b321_exit", "b311_enter", "b321_enter"]),
            ("a/a1", "a/a1", ["a", "a1"], ["a1_exit", "a1_enter"]),
        ]
    )
    func localSelfTransitions(state: String, _ unused: String, setup: [String], expected: [String]) throws {
        let (chart, log) = try Self.fixture { definition, _ in
            try definition.addTransition(from: state, on: "self", to: state, kind: .local)
        }
        if setup.contains("b") {
            try chart.handle("a_guard")
            try chart.handle("b_b3")
        }
        log.clear()
        try chart.handle("self")
        #expect(log.entries == expected)
    }

    // "Partial joins reset on exit": TBSM keeps a partial join when its region is left another way.
    @Test("a partial join is reset when its region is exited")
    func joinResetOnExit() throws {
        let (chart, log) = try Self.fixture { definition, _ in
            try definition.addTransition(from: "c", on: "c_a", to: "a")
        }
        try chart.handle("a_fork")
        try chart.handle("c212_join")  // partial: c212 has joined
        try chart.handle("c_a")  // leaves c2 without completing the join
        try chart.handle("a_fork")
        log.clear()
        try chart.handle("c222_join")  // would complete a stale join in TBSM
        #expect(log.entries.isEmpty)
        #expect(chart.activeStates == ["c", "c2", "c212", "c222"])
        try chart.handle("c212_join")
        #expect(chart.activeStates == ["b", "b1"])
    }

    // "One event queue": leaving a composite state tore down its machine and cancelled the shared queue.
    @Test("leaving composite states keeps events queued on the root")
    func queueSurvivesExits() throws {
        let (chart, log) = try Self.fixture { definition, log in
            try definition.setAction(forTransition: "b311_a1") { context in context.raise("a1_internal") }
            try definition.addTransition(
                from: "a/a1",
                on: "a1_internal",
                to: "a/a1",
                kind: .internal,
                action: log.record("a1_internal_action")
            )
        }
        try chart.handle("a_guard")
        try chart.handle("b_b3")
        log.clear()
        try chart.handle("b311_a1")
        #expect(
            log.entries == ["b311_exit", "b321_exit", "b3_exit", "b_exit", "a_enter", "a1_enter", "a1_internal_action"]
        )
    }

    @Test("only an explicit stop drops queued events, and their waiters learn it")
    func stopDropsPending() throws {
        let chartBox = Box<NestedChart?>(nil)
        let dropped = Box<Result<StatechartStepOutcome, StatechartError>?>(nil)
        let (chart, log) = try Self.fixture { definition, log in
            try definition.addTransition(from: "a/a1", on: "a1_internal", to: "a/a1", kind: .internal) { _ in
                chartBox.value?.schedule("a_a2") { dropped.value = $0 }
                chartBox.value?.stop()
                log.append("stopping")
            }
        }
        chartBox.value = chart
        log.clear()
        #expect(try chart.handle("a1_internal") == .handled)
        #expect(dropped.value == .success(.discarded))
        #expect(log.entries == ["stopping", "a1_exit", "a_exit"])
        #expect(!chart.isRunning)
        #expect(chart.activeStates == [])
        chartBox.value = nil
    }

    @Test("events before start are discarded silently")
    func beforeStart() throws {
        let chart = try Chart(name: "main") {
            Chart.State("a").on("go", to: "b")
            Chart.State("b")
        }
        #expect(try chart.handle("go") == .discarded)
        chart.start()
        #expect(try chart.handle("unknown") == .unhandled)
        #expect(try chart.handle("go") == .handled)
        chart.start()  // already running: nothing happens
        #expect(chart.activeStates == ["b"])
    }

    @Test("a cross-region transition exits and re-enters the whole parallel state (derived)")
    func crossRegion() throws {
        let (chart, log) = try Self.fixture { definition, _ in
            try definition.addTransition(from: "b/b3@0/b311", on: "across", to: "b/b3@1/b322")
        }
        try chart.handle("a_guard")
        try chart.handle("b_b3")
        log.clear()
        try chart.handle("across")
        #expect(log.entries == ["b311_exit", "b321_exit", "b3_exit", "b3_enter", "b311_enter", "b322_enter"])
    }

    @Test("stop from the initial and from the fork configurations (derived)")
    func stopSequences() throws {
        let (chart, log) = try Self.fixture { _, _ in }
        log.clear()
        chart.stop()
        #expect(log.entries == ["a1_exit", "a_exit"])
        chart.start()
        try chart.handle("a_fork")
        log.clear()
        chart.stop()
        #expect(log.entries == ["c212_exit", "c222_exit", "c2_exit", "c_exit"])
    }
}

@Suite("Build errors")
struct BuildErrorTests {
    @Test("duplicate state names name both paths")
    func duplicateState() {
        #expect(throws: StatechartError.duplicateState(name: "x", firstPath: "a/x", secondPath: "b@1/x")) {
            try Chart(name: "main") {
                Chart.State("a") { Chart.State("x") }
                Chart.State(parallel: "b") {
                    Chart.Region { Chart.State("b1") }
                    Chart.Region { Chart.State("x") }
                }
            }
        }
    }

    @Test("a fork's or join's region must be a parallel state")
    func regionNotParallel() {
        #expect(
            throws: StatechartError.invalidCompoundTransition(
                pseudoState: "f",
                reason: "its region 'a' is not a parallel state"
            )
        ) {
            try Chart(name: "main") {
                Chart.State("a") { Chart.State("a1") }
                Chart.Fork("f", region: "a", targets: ["a1"])
            }
        }
    }

    @Test("two fork targets may not share a region")
    func forkTargetsSameRegion() {
        #expect(
            throws: StatechartError.invalidCompoundTransition(
                pseudoState: "f",
                reason: "targets 'p@0/a1' and 'p@0/a2' lie in the same region 'pSubMachine-0'"
            )
        ) {
            try Chart(name: "main") {
                Chart.State(parallel: "p") {
                    Chart.Region {
                        Chart.State("a1")
                        Chart.State("a2")
                    }
                    Chart.Region { Chart.State("b1") }
                }
                Chart.Fork("f", region: "p", targets: ["a1", "a2"])
            }
        }
    }

    @Test("fork targets must lie inside the region")
    func forkTargetOutside() {
        #expect(
            throws: StatechartError.invalidCompoundTransition(
                pseudoState: "f",
                reason: "'x' is not inside its region 'p'"
            )
        ) {
            try Chart(name: "main") {
                Chart.State("x")
                Chart.State(parallel: "p") { Chart.Region { Chart.State("a1") } }
                Chart.Fork("f", region: "p", targets: ["x"])
            }
        }
    }

    @Test("internal transitions cannot target a pseudo state")
    func internalToPseudoState() {
        #expect(throws: StatechartError.internalTransitionTargetMismatch(event: "go", source: "x", target: "f")) {
            try Chart(name: "main") {
                Chart.State("x").on("go", to: .fork("f"), kind: .internal)
                Chart.State(parallel: "p") { Chart.Region { Chart.State("a1") } }
                Chart.Fork("f", region: "p", targets: ["a1"])
            }
        }
    }

    @Test("editing a definition by an invalid path throws")
    func editingByBadPath() throws {
        var definition = Chart.Definition(name: "main") {
            Chart.State(parallel: "p") { Chart.Region { Chart.State("a1") } }
        }
        #expect(
            throws: StatechartError.invalidPath(
                path: "p/a1",
                component: "p",
                reason: "'p' is a parallel state; add '@<region index>' (0..<1)"
            )
        ) {
            try definition.onEnter(at: "p/a1") { _ in }
        }
        #expect(
            throws: StatechartError.invalidPath(
                path: "p@0",
                component: "p@0",
                reason: "a region index must be followed by a state in that region"
            )
        ) {
            try definition.onExit(at: "p@0") { _ in }
        }
        #expect(
            throws: StatechartError.invalidPath(path: "p@0//x", component: "", reason: "a component has no state name")
        ) {
            try definition.addTransition(from: "p@0//x", on: "e", to: "p")
        }
    }

    @Test("every error reads as a sentence naming its subject")
    func descriptions() {
        let errors: [(StatechartError, String)] = [
            (
                .noOutgoingJunctionPath(junction: "j", event: "e"),
                "No outgoing path of junction 'j' has a passing guard for event 'e'."
            ),
            (.unknownState(name: "x", referencedBy: "fork 'f'"), "Unknown state 'x' referenced by fork 'f'."),
            (.invalidPath(path: "a/b", component: "b", reason: "r"), "Invalid path 'a/b' at component 'b': r."),
            (
                .duplicateState(name: "x", firstPath: "a/x", secondPath: "x"),
                "State name 'x' is used twice: at 'a/x' and at 'x'."
            ),
        ]
        for (error, text) in errors { #expect(error.description == text) }
        let json = StatechartError.invalidJSON(.init(issues: [.init(path: "$.name", message: "m")]))
        #expect(json.description == "Invalid statechart JSON (1 problem):\n  $.name: m")
    }
}
