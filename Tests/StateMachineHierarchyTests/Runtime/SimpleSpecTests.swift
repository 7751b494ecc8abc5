import StateMachineHierarchy
import Synchronization
import Testing

// Port of TBSMStateMachineSimpleTests.m (22 cases).

typealias SimpleChart = Statechart<String, String, String>

private let eventA = "event_a"
private let eventB = "event_b"
private let dataValue = "DummyDataValue"

@Suite("Simple spec (TBSMStateMachineSimpleTests)")
struct SimpleSpecTests {
    // MARK: Exception handling on setup

    @Test("throws when name is an empty string")
    func emptyName() {
        #expect(throws: StatechartError.emptyName(what: "A statechart", location: "the root region")) {
            try SimpleChart(name: "") { SimpleChart.State("a") }
        }
    }

    // Swift's types make "a state that is not a state" impossible in code; the only untyped
    // entry point is JSON, where the same mistake is reported with its JSON path.
    @Test("throws when a state object is not a state")
    func stateNotOfTypeState() {
        let json = #"{"name": "StateMachine", "states": [{"name": "a", "type": "state"}, 42]}"#
        #expect(
            throws: StatechartError.invalidJSON(
                .init(issues: [.init(path: "$.states[1]", message: "expected a state object, found a number")])
            )
        ) {
            try SimpleChart.definition(fromJSON: json)
        }
    }

    @Test("throws when the initial state is not one of the states")
    func unknownInitialState() {
        #expect(throws: StatechartError.unknownInitialState(region: "StateMachine", state: "c")) {
            try SimpleChart(name: "StateMachine", initial: "c") {
                SimpleChart.State("a")
                SimpleChart.State("b")
            }
        }
    }

    // TBSM throws from setUp; we validate every region when the chart is built, so a
    // chart without states cannot exist to be started.
    @Test("throws when there is no initial state")
    func noInitialState() {
        #expect(throws: StatechartError.noInitialState(region: "StateMachine")) {
            try SimpleChart(name: "StateMachine") {}
        }
    }

    // TBSM rejects a concurrent NSOperationQueue. Our queue is owned by the chart and serial
    // by construction; this checks the property that check protected: steps never overlap.
    @Test("runs steps one at a time whatever the senders", .timeLimit(.minutes(1)))
    func stepsAreSerial() async throws {
        let inStep = Atomic<Bool>(false)
        let overlaps = Atomic<Int>(0)
        let guardStep: SimpleChart.Action = { _ in
            if inStep.exchange(true, ordering: .acquiringAndReleasing) { overlaps.add(1, ordering: .relaxed) }
            inStep.store(false, ordering: .releasing)
        }
        let chart = try SimpleChart(name: "StateMachine") {
            SimpleChart.State("a").onInternal(eventA, action: guardStep)
        }
        chart.start()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { for _ in 0..<200 { try await chart.send(eventA) } }
            }
            try await group.waitForAll()
        }
        #expect(overlaps.load(ordering: .relaxed) == 0)
    }

    // MARK: Setup and configuration

    @Test("accepts events from a background task (TBSM: accepts a serial queue)", .timeLimit(.minutes(1)))
    func eventsFromBackgroundTask() async throws {
        let chart = try SimpleChart(name: "StateMachine") {
            SimpleChart.State("a").on(eventA, to: "b")
            SimpleChart.State("b")
        }
        chart.start()
        let outcome = try await Task.detached { try await chart.send(eventA) }.value
        #expect(outcome == .handled)
        #expect(chart.activeStates == ["b"])
    }

    // MARK: Location inside hierarchy

    @Test("returns the regions above a state in descending order")
    func machinePath() throws {
        let chart = try SimpleChart(name: "StateMachine") {
            SimpleChart.State(parallel: "ParallelWrapper") {
                SimpleChart.Region {
                    SimpleChart.State("s") { SimpleChart.State("b") }
                }
            }
        }
        chart.start()
        let regions = chart.activeStateConfiguration.split(separator: "\n").enumerated()
            .filter { $0.offset.isMultiple(of: 2) }.map { String($0.element.drop { $0 == "\t" }) }
        #expect(regions == ["StateMachine", "ParallelWrapperSubMachine-0", "sSubMachine"])
    }

    // MARK: Getters

    @Test("returns its name")
    func name() throws {
        let chart = try SimpleChart(name: "StateMachineXYZ") { SimpleChart.State("a") }
        #expect(chart.name == "StateMachineXYZ")
    }

    @Test("returns the stored states")
    func storedStates() throws {
        let chart = try SimpleChart(name: "StateMachine") {
            SimpleChart.State("a")
            SimpleChart.State("b")
        }
        #expect(chart.path(of: "a") == "a")
        #expect(chart.path(of: "b") == "b")
        #expect(chart.path(of: "c") == nil)
    }

    // MARK: setUp / tearDown

    @Test("enters the initial state on start when it has been set explicitly", arguments: ["a", "b"])
    func explicitInitialState(initial: String) throws {
        let chart = try SimpleChart(name: "StateMachine", initial: initial) {
            SimpleChart.State("a")
            SimpleChart.State("b")
        }
        chart.start()
        #expect(chart.activeStates == [initial])
    }

    @Test("enters the initial state on start when it has been set implicitly")
    func implicitInitialState() throws {
        let chart = try SimpleChart(name: "StateMachine") {
            SimpleChart.State("a")
            SimpleChart.State("b")
        }
        #expect(!chart.isRunning)
        chart.start()
        #expect(chart.isRunning)
        #expect(chart.activeStates == ["a"])
    }

    @Test("exits the current state on stop")
    func exitsOnStop() throws {
        let log = Recorder()
        let chart = try SimpleChart(name: "StateMachine") {
            SimpleChart.State("a").onExit(log.record("a_exit"))
            SimpleChart.State("b")
        }
        chart.start()
        #expect(chart.activeStates == ["a"])
        chart.stop()
        #expect(chart.activeStates == [])
        #expect(!chart.isRunning)
        #expect(log.entries == ["a_exit"])
    }

    // MARK: Scheduling

    @Test("schedules an event by name and payload", .timeLimit(.minutes(1)))
    func scheduleByName() async throws {
        let chart = try SimpleChart(name: "StateMachine") {
            SimpleChart.State("a").on(eventA, to: "b")
            SimpleChart.State("b").on(eventB, to: "c")
            SimpleChart.State("c")
        }
        chart.start()
        chart.schedule(eventA, payload: dataValue)
        try await chart.send(eventB)
        #expect(chart.activeStates == ["c"])
    }

    @Test("switches to the specified state")
    func switchesState() throws {
        let chart = try SimpleChart(name: "StateMachine") {
            SimpleChart.State("a").on(eventA, to: "b", kind: .external)
            SimpleChart.State("b")
        }
        chart.start()
        #expect(chart.activeStates == ["a"])
        #expect(try chart.handle(eventA) == .handled)
        #expect(chart.activeStates == ["b"])
    }

    @Test("evaluates the guard, exits the current state, runs the action and enters the next state")
    func guardExitActionEnterOrder() throws {
        let log = Recorder()
        let chart = try SimpleChart(name: "StateMachine") {
            SimpleChart.State("a")
                .onEnter(log.record("enterA"))
                .onExit(log.record("-exitA"))
                .on(
                    eventA,
                    to: "b",
                    action: log.record("-actionA"),
                    guard: { _ in
                        log.append("-guardA")
                        return true
                    }
                )
            SimpleChart.State("b").onEnter(log.record("-enterB"))
        }
        chart.start()
        try chart.handle(eventA)
        #expect(log.entries.joined() == "enterA-guardA-exitA-actionA-enterB")
    }

    @Test("evaluates a guard and skips switching to the next state")
    func failingGuard() throws {
        let log = Recorder()
        let chart = try SimpleChart(name: "StateMachine") {
            SimpleChart.State("a").on(eventA, to: "b", action: log.record("action"), guard: { _ in false })
            SimpleChart.State("b")
        }
        chart.start()
        #expect(try chart.handle(eventA) == .unhandled)
        #expect(log.entries.isEmpty)
        #expect(chart.activeStates == ["a"])
    }

    @Test("evaluates multiple guards and switches to the next state")
    func multipleGuards() throws {
        let log = Recorder()
        let chart = try SimpleChart(name: "StateMachine") {
            SimpleChart.State("a")
                .on(eventA, to: "b", action: log.record("actionA"), guard: { _ in false })
                .on(eventA, to: "b", action: log.record("actionB"), guard: { _ in true })
            SimpleChart.State("b")
        }
        chart.start()
        try chart.handle(eventA)
        #expect(log.entries == ["actionB"])
        #expect(chart.activeStates == ["b"])
    }

    // The original's `expect(stateDataEnter).to.beNil` lacks `()` and checks nothing (a no-op in the original's tests);
    // here the set-up entry really is checked to receive no payload.
    @Test("passes the event payload to the enter, exit, action and guard blocks")
    func payloadEverywhere() throws {
        let seen = Box<[String: String?]>([:])
        func record(_ key: String) -> SimpleChart.Action { { context in seen.value[key] = context.payload } }
        let chart = try SimpleChart(name: "StateMachine") {
            SimpleChart.State("a")
                .onEnter(record("enterA"))
                .onExit(record("exitA"))
                .on(
                    eventA,
                    to: "b",
                    action: record("action"),
                    guard: { context in
                        seen.value["guard"] = context.payload
                        return true
                    }
                )
            SimpleChart.State("b").onEnter(record("enterB"))
        }
        chart.start()
        #expect(seen.value["enterA"] == .some(nil))
        try chart.handle(eventA, payload: dataValue)
        #expect(seen.value["exitA"] == dataValue)
        #expect(seen.value["guard"] == dataValue)
        #expect(seen.value["action"] == dataValue)
        #expect(seen.value["enterB"] == dataValue)
    }

    @Test("can re-enter a state")
    func reentersState() throws {
        let log = Recorder()
        let chart = try SimpleChart(name: "StateMachine") {
            SimpleChart.State("a").onEnter(log.record("a_enter")).onExit(log.record("a_exit")).on(eventA, to: "a")
            SimpleChart.State("b")
        }
        chart.start()
        log.clear()
        try chart.handle(eventA)
        #expect(chart.activeStates == ["a"])
        #expect(log.entries == ["a_exit", "a_enter"])
    }

    // MARK: Notifications (NSNotificationCenter in TBSM, subscriptions here)

    @Test("notifies entering the specified state with the payload")
    func enterNotification() throws {
        let chart = try SimpleChart(name: "StateMachine") { SimpleChart.State("a") }
        let received = Box<[SimpleChart.Notification]>([])
        let subscription = try chart.observe(.entered, at: "a") { received.value.append($0) }
        chart.start(payload: dataValue)
        #expect(received.value.map(\.state) == ["a"])
        #expect(received.value.map(\.payload) == [dataValue])
        subscription.cancel()
    }

    @Test("notifies exiting the specified state with the payload")
    func exitNotification() throws {
        let chart = try SimpleChart(name: "StateMachine") { SimpleChart.State("a") }
        chart.start()
        let received = Box<[SimpleChart.Notification]>([])
        let subscription = try chart.observe(.exited, at: "a") { received.value.append($0) }
        chart.stop(payload: dataValue)
        #expect(received.value.map(\.state) == ["a"])
        #expect(received.value.map(\.payload) == [dataValue])
        #expect(received.value.map(\.kind) == [.exited])
        subscription.cancel()
    }

    @Test("notifies an internal transition with the payload", .timeLimit(.minutes(1)))
    func internalTransitionNotification() async throws {
        let chart = try SimpleChart(name: "StateMachine") {
            SimpleChart.State("a").on(eventA, to: "a", kind: .internal)
        }
        chart.start()
        let stream = try chart.subscribe(to: .internalTransition(eventA), at: "a")
        chart.schedule(eventA, payload: dataValue)
        let notification = await stream.first()
        #expect(notification?.payload == dataValue)
        #expect(notification?.path == "a")
    }
}
