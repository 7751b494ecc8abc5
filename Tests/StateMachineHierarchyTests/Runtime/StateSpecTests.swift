import StateMachineHierarchy
import Testing

// Ports of TBSMStateTests.m (7), TBSMSubStateTests.m (5), TBSMParallelStateTests.m (7)
// and TBSMEventTests.m (4). TBSM tests its objects' getters; our states live inside a
// compiled chart, so each case checks the same fact through the chart's public API.

typealias Chart = Statechart<String, String, String>

private let eventNameA = "DummyEventA"
private let eventNameB = "DummyEventB"

@Suite("State spec (TBSMStateTests)")
struct StateSpecTests {
    @Test("throws when name is an empty string")
    func emptyName() {
        #expect(throws: StatechartError.emptyName(what: "A state", location: "region 'main'")) {
            try Chart(name: "main") { Chart.State("") }
        }
    }

    @Test("throws when adding an internal handler whose target is another state")
    func internalToOtherState() {
        #expect(throws: StatechartError.internalTransitionTargetMismatch(event: eventNameA, source: "a", target: "b")) {
            try Chart(name: "main") {
                Chart.State("a").on(eventNameA, to: "b", kind: .internal)
                Chart.State("b")
            }
        }
    }

    @Test("returns its name")
    func name() throws {
        let chart = try Chart(name: "main") { Chart.State("StateXYZ") }
        #expect(try chart.state(at: "StateXYZ") == "StateXYZ")
    }

    @Test("registers a handler with a given target state")
    func registersHandler() throws {
        let log = Recorder()
        let chart = try Chart(name: "main") {
            Chart.State("a").onEnter(log.record("a_enter")).onExit(log.record("a_exit")).on(eventNameA, to: "a")
        }
        chart.start()
        log.clear()
        #expect(try chart.handle(eventNameA) == .handled)
        #expect(log.entries == ["a_exit", "a_enter"])
    }

    @Test("reports whether an event can be handled")
    func canHandle() throws {
        let chart = try Chart(name: "main") { Chart.State("a").on(eventNameA, to: "a", kind: .internal) }
        chart.start()
        #expect(try chart.handle(eventNameA) == .handled)
        #expect(try chart.handle(eventNameB) == .unhandled)
    }

    // TBSM's `expect(resultA).to.beNil` lacks `()` and asserts nothing (a no-op in the original's tests); the handlers of
    // each event are checked through what they do.
    @Test("keeps the handlers of each event apart")
    func handlersPerEvent() throws {
        let log = Recorder()
        let chart = try Chart(name: "main") {
            Chart.State("a")
                .onEnter(log.record("a_enter")).onExit(log.record("a_exit"))
                .on(eventNameA, to: "a", kind: .internal, action: log.record("internal"))
                .on(eventNameB, to: "a")
        }
        chart.start()
        log.clear()
        try chart.handle(eventNameB)
        #expect(log.entries == ["a_exit", "a_enter"])
        log.clear()
        try chart.handle(eventNameA)
        #expect(log.entries == ["internal"])
    }

    @Test("returns its path inside the hierarchy")
    func statePath() throws {
        let chart = try Chart(name: "stateMachine") {
            Chart.State(parallel: "p") {
                Chart.Region { Chart.State("s") { Chart.State("b") } }
            }
        }
        // [stateMachine, p, pSubMachine-0, s, sSubMachine, b]: states by name, regions by '@index' and '/'.
        #expect(chart.path(of: "b") == "p@0/s/b")
        #expect(try chart.state(at: "p@0/s/b") == "b")
        chart.start()
        #expect(
            chart.activeStateConfiguration
                == "stateMachine\n\tp\n\t\tpSubMachine-0\n\t\t\ts\n\t\t\t\tsSubMachine\n\t\t\t\t\tb\n"
        )
    }
}

@Suite("Sub state spec (TBSMSubStateTests)")
struct SubStateSpecTests {
    @Test("throws when name is an empty string")
    func emptyName() {
        #expect(throws: StatechartError.emptyName(what: "A state", location: "region 'main'")) {
            try Chart(name: "main") { Chart.State("") { Chart.State("a1") } }
        }
    }

    // Swift's types rule out a non-machine as a sub machine; in JSON the same mistake
    // (states that are not an array) is reported with its path.
    @Test("throws when the nested states are not states")
    func nestedStatesNotStates() {
        let json = #"{"name": "main", "states": [{"name": "subState", "type": "sub", "states": {"a1": 1}}]}"#
        #expect(
            throws: StatechartError.invalidJSON(
                .init(issues: [
                    .init(path: "$.states[0].states", message: "expected an array of states, found an object")
                ])
            )
        ) {
            try Chart.definition(fromJSON: json)
        }
    }

    // TBSM throws when a sub state without machine is entered or exited; we refuse to build it.
    @Test("throws when a composite state has no states")
    func emptyComposite() {
        #expect(throws: StatechartError.noInitialState(region: "subStateSubMachine")) {
            try Chart(name: "main") { Chart.State("subState") {} }
        }
    }

    @Test("names its nested region <name>SubMachine")
    func implicitMachineName() throws {
        let chart = try Chart(name: "main") {
            Chart.State("subState") {
                Chart.State("a1")
                Chart.State("a2")
            }
        }
        chart.start()
        #expect(chart.activeStateConfiguration == "main\n\tsubState\n\t\tsubStateSubMachine\n\t\t\ta1\n")
    }

    @Test("enters and exits all initial states")
    func entersAndExitsInitialStates() throws {
        let chart = try Chart(name: "main") {
            Chart.State("a") {
                Chart.State("a1")
                Chart.State("a2")
            }
        }
        chart.start()
        #expect(try chart.activeChild(of: "a") == "a1")
        chart.stop()
        #expect(try chart.activeChild(of: "a") == nil)
    }
}

@Suite("Parallel state spec (TBSMParallelStateTests)")
struct ParallelStateSpecTests {
    @Test("throws when name is an empty string")
    func emptyName() {
        #expect(throws: StatechartError.emptyName(what: "A state", location: "region 'main'")) {
            try Chart(name: "main") { Chart.State(parallel: "") { Chart.Region { Chart.State("a1") } } }
        }
    }

    @Test("throws when regions are not arrays of states")
    func regionsNotMachines() {
        let json =
            #"{"name": "main", "states": [{"name": "p", "type": "parallel", "regions": [[{"name": "a", "type": "state"}], 7]}]}"#
        #expect(
            throws: StatechartError.invalidJSON(
                .init(issues: [
                    .init(path: "$.states[0].regions[1]", message: "expected an array of states, found a number")
                ])
            )
        ) {
            try Chart.definition(fromJSON: json)
        }
    }

    @Test("throws when it has no regions, or an empty region")
    func noRegions() {
        #expect(throws: StatechartError.noInitialState(region: "pSubMachine-0")) {
            try Chart(name: "main") { Chart.State(parallel: "p") {} }
        }
        #expect(throws: StatechartError.noInitialState(region: "pSubMachine-1")) {
            try Chart(name: "main") {
                Chart.State(parallel: "p") {
                    Chart.Region { Chart.State("a1") }
                    Chart.Region {}
                }
            }
        }
    }

    // TBSM allows empty regions (`p.states = @[@[], @[]]`) that could never be entered; we
    // reject them at build time (above), so the count is checked on regions with states.
    @Test("returns the stored regions")
    func storedRegions() throws {
        let chart = try Chart(name: "main") {
            Chart.State(parallel: "p") {
                Chart.Region { Chart.State("a1") }
                Chart.Region { Chart.State("b1") }
            }
        }
        chart.start()
        #expect(try chart.activeChild(of: "p", region: 0) == "a1")
        #expect(try chart.activeChild(of: "p", region: 1) == "b1")
        #expect(throws: StatechartError.self) { try chart.activeChild(of: "p", region: 2) }
    }

    @Test("names its regions <name>SubMachine-<index>")
    func implicitMachineNames() throws {
        let chart = try Chart(name: "main") {
            Chart.State(parallel: "p") {
                Chart.Region { Chart.State("a1") }
                Chart.Region { Chart.State("a2") }
            }
        }
        chart.start()
        #expect(
            chart.activeStateConfiguration == "main\n\tp\n\t\tpSubMachine-0\n\t\t\ta1\n\t\tpSubMachine-1\n\t\t\ta2\n"
        )
    }

    static func threeRegions(_ log: Recorder) throws -> Chart {
        func state(_ name: String) -> Chart.State {
            Chart.State(name).onEnter(log.record("\(name)_enter")).onExit(log.record("\(name)_exit"))
        }
        return try Chart(name: "main") {
            Chart.State("x").on("fork", to: .fork("fork"))
            Chart.State(parallel: "p") {
                Chart.Region {
                    state("a1")
                    state("a2")
                }
                Chart.Region {
                    state("b1")
                    state("b2")
                }
                Chart.Region {
                    state("c1")
                    state("c2")
                }
            }
            .onEnter(log.record("p_enter")).onExit(log.record("p_exit"))
            Chart.Fork("fork", region: "p", targets: ["a2", "b2"])
        }
    }

    @Test("enters and exits all initial states, regions in index order")
    func entersAndExitsInitialStates() throws {
        let log = Recorder()
        let plain = try Chart(name: "main", initial: "p") {
            Chart.State("x")
            Chart.State(parallel: "p") {
                Chart.Region {
                    Chart.State("a1").onEnter(log.record("a1_enter")).onExit(log.record("a1_exit"))
                    Chart.State("a2")
                }
                Chart.Region {
                    Chart.State("b1").onEnter(log.record("b1_enter")).onExit(log.record("b1_exit"))
                    Chart.State("b2")
                }
                Chart.Region {
                    Chart.State("c1").onEnter(log.record("c1_enter")).onExit(log.record("c1_exit"))
                    Chart.State("c2")
                }
            }
        }
        plain.start()
        #expect(plain.activeStates == ["p", "a1", "b1", "c1"])
        plain.stop()
        // Regions exit in forward index order, as TBSM does (article "Semantics and decisions": "Regions exit in index order").
        #expect(log.entries == ["a1_enter", "b1_enter", "c1_enter", "a1_exit", "b1_exit", "c1_exit"])
    }

    // TBSM calls `enter:targetStates:region:` directly; the public way to do that is a fork.
    @Test("enters dedicated target states and default-enters the other regions")
    func entersDedicatedTargets() throws {
        let log = Recorder()
        let chart = try Self.threeRegions(log)
        chart.start()
        try chart.handle("fork")
        #expect(chart.activeStates == ["p", "a2", "b2", "c1"])
        #expect(log.entries == ["p_enter", "a2_enter", "b2_enter", "c1_enter"])
    }
}

@Suite("Event spec (TBSMEventTests)")
struct EventSpecTests {
    @Test("throws when an event's name is an empty string")
    func emptyEventName() throws {
        let chart = try Chart(name: "main") { Chart.State("a") }
        chart.start()
        #expect(throws: StatechartError.emptyName(what: "An event", location: "an event sent to 'main'")) {
            try chart.handle("")
        }
    }

    @Test("returns its name")
    func eventName() {
        let event = Chart.Event("a")
        #expect(event.name == "a")
        #expect(event.payload == nil)
    }

    @Test("throws when a handler's event name is an empty string")
    func emptyHandlerName() {
        #expect(throws: StatechartError.emptyName(what: "An event", location: "a handler of state 'state'")) {
            try Chart(name: "main") { Chart.State("state").on("", to: "state") }
        }
    }

    @Test("a handler answers to its event name")
    func handlerName() throws {
        let chart = try Chart(name: "main") {
            Chart.State("state").on("a", to: "other")
            Chart.State("other")
        }
        chart.start()
        #expect(try chart.handle("b") == .unhandled)
        #expect(try chart.handle("a") == .handled)
    }
}
