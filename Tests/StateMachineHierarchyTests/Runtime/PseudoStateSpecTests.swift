import StateMachineHierarchy
import Testing

// Ports of TBSMForkTests.m (3), TBSMJoinTests.m (4), TBSMJunctionTests.m (4) and
// TBSMPseudoStateTests.m (2).

@Suite("Fork spec (TBSMForkTests)")
struct ForkSpecTests {
    @Test("throws when name is an empty string")
    func emptyName() {
        #expect(throws: StatechartError.emptyName(what: "A fork", location: "chart 'main'")) {
            try Chart(name: "main") {
                Chart.State(parallel: "parallel") { Chart.Region { Chart.State("a") } }
                Chart.Fork("", region: "parallel", targets: ["a"])
            }
        }
    }

    @Test("throws when the target states are empty")
    func emptyTargets() {
        #expect(
            throws: StatechartError.invalidCompoundTransition(pseudoState: "Fork", reason: "it has no target states")
        ) {
            try Chart(name: "main") {
                Chart.State(parallel: "parallel") {
                    Chart.Region { Chart.State("a") }
                    Chart.Region { Chart.State("b") }
                }
                Chart.Fork("Fork", region: "parallel", targets: [])
            }
        }
    }

    @Test("returns its name")
    func name() throws {
        let chart = try Chart(name: "main") {
            Chart.State("c").on("go", to: .fork("Fork"))
            Chart.State(parallel: "parallel") {
                Chart.Region { Chart.State("a") }
                Chart.Region { Chart.State("b") }
            }
            Chart.Fork("Fork", region: "parallel", targets: ["a", "b"])
        }
        chart.start()
        let lines = try debugLines(of: chart) { try chart.handle("go") }
        #expect(lines.contains("[main] performing transition: c --> Fork --> parallel/[a,b] data: nil"))
    }
}

@Suite("Join spec (TBSMJoinTests)")
struct JoinSpecTests {
    @Test("throws when name is an empty string")
    func emptyName() {
        #expect(throws: StatechartError.emptyName(what: "A join", location: "chart 'main'")) {
            try Chart(name: "main") {
                Chart.State(parallel: "parallel") { Chart.Region { Chart.State("a") } }
                Chart.State("c")
                Chart.Join("", region: "parallel", sources: ["a"], target: "c")
            }
        }
    }

    @Test("throws when the source states are empty")
    func emptySources() {
        #expect(
            throws: StatechartError.invalidCompoundTransition(pseudoState: "Join", reason: "it has no source states")
        ) {
            try Chart(name: "main") {
                Chart.State(parallel: "parallel") {
                    Chart.Region { Chart.State("a") }
                    Chart.Region { Chart.State("b") }
                }
                Chart.State("c")
                Chart.Join("Join", region: "parallel", sources: [], target: "c")
            }
        }
    }

    @Test("returns its name")
    func name() throws {
        let chart = try Chart(name: "main") {
            Chart.State(parallel: "parallel") {
                Chart.Region { Chart.State("a").on("a_join", to: .join("Join")) }
                Chart.Region { Chart.State("b").on("b_join", to: .join("Join")) }
            }
            Chart.State("c")
            Chart.Join("Join", region: "parallel", sources: ["a", "b"], target: "c")
        }
        chart.start()
        let lines = try debugLines(of: chart) { try chart.handle("a_join") }
        #expect(lines.contains("[main] performing transition: parallel/[a,b] --> Join --> c data: nil"))
    }

    // TBSM: joinSourceState: a, a, b -> NO, NO, YES, then again NO, NO, YES after the reset.
    // Every arrival consumes its event; the join fires on the last source.
    @Test("fires once all sources have joined and resets afterwards")
    func joinsAndResets() throws {
        let chart = try Chart(name: "main", initial: "parallel") {
            Chart.State(parallel: "parallel") {
                Chart.Region { Chart.State("a").on("a_join", to: .join("Join")) }
                Chart.Region { Chart.State("b").on("b_join", to: .join("Join")) }
            }
            Chart.State("c").on("back", to: "parallel")
            Chart.Join("Join", region: "parallel", sources: ["a", "b"], target: "c")
        }
        chart.start()
        for _ in 0..<2 {
            #expect(try chart.handle("a_join") == .handled)
            #expect(chart.activeStates == ["parallel", "a", "b"])
            #expect(try chart.handle("a_join") == .handled)
            #expect(chart.activeStates == ["parallel", "a", "b"])
            #expect(try chart.handle("b_join") == .handled)
            #expect(chart.activeStates == ["c"])
            try chart.handle("back")
        }
    }
}

@Suite("Junction spec (TBSMJunctionTests)")
struct JunctionSpecTests {
    @Test("throws when name is an empty string")
    func emptyName() {
        #expect(throws: StatechartError.emptyName(what: "A junction", location: "chart 'main'")) {
            try Chart(name: "main") {
                Chart.State("a")
                Chart.Junction("", paths: [.init(to: "a", guard: { _ in true })])
            }
        }
    }

    // Swift's types make a nil guard impossible (every path takes one); the remaining way to
    // give a junction no usable path is to give it none.
    @Test("throws when a junction has no usable outgoing path")
    func noPaths() {
        #expect(throws: StatechartError.invalidJunction(junction: "junction", reason: "it has no outgoing paths")) {
            try Chart(name: "main") {
                Chart.State("a")
                Chart.Junction("junction", paths: [])
            }
        }
        #expect(throws: StatechartError.unknownState(name: "zz", referencedBy: "junction 'junction'")) {
            try Chart(name: "main") {
                Chart.State("a")
                Chart.Junction("junction", paths: [.init(to: "zz", guard: { _ in true })])
            }
        }
    }

    // The original throws an uncaught exception on the event queue; we report a typed error
    // and, since path guards run before anything exits, leave the configuration untouched.
    @Test("throws when no outgoing path could be determined")
    func noOutgoingPath() throws {
        let log = Recorder()
        let chart = try Chart(name: "main", initial: "b") {
            Chart.State("a")
            Chart.State("b").onExit(log.record("b_exit")).on("go", to: .junction("junction"))
            Chart.Junction("junction", paths: [.init(to: "a", guard: { _ in false })])
        }
        chart.start()
        #expect(throws: StatechartError.noOutgoingJunctionPath(junction: "junction", event: "go")) {
            try chart.handle("go")
        }
        #expect(log.entries.isEmpty)
        #expect(chart.activeStates == ["b"])
    }

    @Test("returns its name")
    func name() throws {
        let chart = try Chart(name: "main", initial: "b") {
            Chart.State("a")
            Chart.State("b").on("go", to: .junction("Junction"))
            Chart.Junction("Junction", paths: [.init(to: "a", guard: { _ in true })])
        }
        chart.start()
        let lines = try debugLines(of: chart) { try chart.handle("go") }
        #expect(lines.contains("[main] performing transition: b --> Junction --> [a] data: nil"))
    }
}

@Suite("Pseudo state spec (TBSMPseudoStateTests)")
struct PseudoStateSpecTests {
    @Test("throws when name is an empty string", arguments: ["fork", "join", "junction"])
    func emptyName(kind: String) {
        let error = #expect(throws: StatechartError.self) {
            try Chart(name: "main") {
                Chart.State(parallel: "p") { Chart.Region { Chart.State("a") } }
                if kind == "fork" { Chart.Fork("", region: "p", targets: ["a"]) }
                if kind == "join" { Chart.Join("", region: "p", sources: ["a"], target: "p") }
                if kind == "junction" { Chart.Junction("", paths: [.init(to: "a", guard: { _ in true })]) }
            }
        }
        guard case .emptyName(let what, _)? = error else {
            Issue.record("expected emptyName, got \(String(describing: error))")
            return
        }
        #expect(what == "A \(kind)")
    }

    @Test("pseudo state names are unique and named in errors")
    func name() {
        #expect(throws: StatechartError.duplicatePseudoState(name: "name")) {
            try Chart(name: "main") {
                Chart.State(parallel: "p") { Chart.Region { Chart.State("a") } }
                Chart.Fork("name", region: "p", targets: ["a"])
                Chart.Junction("name", paths: [.init(to: "a", guard: { _ in true })])
            }
        }
    }
}
