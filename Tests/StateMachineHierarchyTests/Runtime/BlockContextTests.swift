import Dispatch
import Foundation
import StateMachineHierarchy
import Synchronization
import Testing

// What a block's context holds, and where it comes from: the chart lends its blocks
// contexts it made ahead of time (one per event, for steps without a payload) and makes one
// per block for a step with a payload, converting the payload once per step. These tests
// pin down that every block sees its own step's payload and event, and that a context a
// block keeps is a value of its own.

/// A count shared between a test and its callbacks.
private final class Count: Sendable {
    private let storage = Atomic<Int>(0)
    var value: Int { storage.load(ordering: .relaxed) }
    func add() { storage.add(1, ordering: .relaxed) }
}

@Suite("Block contexts and notifications")
struct BlockContextTests {
    /// `a` and `b`, going back and forth on `go` and `back`; every block logs what its
    /// context says, and `kept` receives every action's context.
    static func chart(_ log: Recorder, kept: Box<[Chart.Context]>) throws -> Chart {
        func record(_ what: String) -> Chart.Action {
            { context in log.append("\(what) \(context.event ?? "-") \(context.payload ?? "-")") }
        }
        return try Chart(name: "contexts") {
            Chart.State("a")
                .onEnter(record("enter a"))
                .onExit(record("exit a"))
                .on(
                    "go",
                    to: "b",
                    action: { context in
                        kept.value.append(context)
                        log.append("action go \(context.event ?? "-") \(context.payload ?? "-")")
                        if context.payload == "raise" {
                            context.raise("back")
                            context.raise("go", payload: "raised")
                        }
                    },
                    guard: { context in
                        log.append("guard go \(context.event ?? "-") \(context.payload ?? "-")")
                        return true
                    }
                )
            Chart.State("b")
                .onEnter(record("enter b"))
                .onExit(record("exit b"))
                .on("back", to: "a") { context in kept.value.append(context) }
        }
    }

    @Test("every block of a step sees that step's event and payload, and a raised event's own")
    func stepPayloads() throws {
        let log = Recorder()
        let chart = try Self.chart(log, kept: Box([]))
        chart.start(payload: "s")
        try chart.handle("go", payload: "p1")
        try chart.handle("back")
        try chart.handle("go")
        try chart.handle("back", payload: "p2")
        try chart.handle("go", payload: "raise")
        #expect(
            log.entries == [
                "enter a - s",
                "guard go go p1", "exit a go p1", "action go go p1", "enter b go p1",
                "exit b back -", "enter a back -",
                "guard go go -", "exit a go -", "action go go -", "enter b go -",
                "exit b back p2", "enter a back p2",
                "guard go go raise", "exit a go raise", "action go go raise", "enter b go raise",
                // The raised events, each with its own payload (none, then "raised").
                "exit b back -", "enter a back -",
                "guard go go raised", "exit a go raised", "action go go raised", "enter b go raised",
            ]
        )
    }

    @Test("a context a block keeps is its own: later steps and the chart's end leave it as it was")
    func keptContexts() throws {
        let kept = Box<[Chart.Context]>([])
        var chart: Chart? = try Self.chart(Recorder(), kept: kept)
        chart?.start()
        try chart?.handle("go", payload: "p1")
        try chart?.handle("back")
        try chart?.handle("go", payload: "p3")
        try chart?.handle("back", payload: "p4")
        try chart?.handle("go")
        let contexts = kept.value
        #expect(contexts.map { $0.event ?? "-" } == ["go", "back", "go", "back", "go"])
        #expect(contexts.map { $0.payload ?? "-" } == ["p1", "-", "p3", "p4", "-"])
        weak let released = chart
        chart = nil
        #expect(released == nil)
        // The chart is gone: the kept contexts still say what they said, and raising is a
        // no-op.
        #expect(contexts.map { $0.event ?? "-" } == ["go", "back", "go", "back", "go"])
        #expect(contexts.map { $0.payload ?? "-" } == ["p1", "-", "p3", "p4", "-"])
        contexts[0].raise("back")
    }

    @Test("an eventless transition's blocks get the step's payload and no event name")
    func eventlessStep() throws {
        let log = Recorder()
        let chart = try Chart(name: "eventless") {
            Chart.State("a").on("go", to: "b")
            Chart.State("b").always(
                to: "c",
                action: { context in
                    log.append("always \(context.event ?? "-") \(context.payload ?? "-")")
                }
            )
            Chart.State("c").onEnter { context in
                log.append("enter c \(context.event ?? "-") \(context.payload ?? "-")")
            }
        }
        chart.start()
        try chart.handle("go", payload: "p")
        #expect(log.entries == ["always - p", "enter c - p"])
    }

    @Test("a subscriber that subscribes or cancels in its callback changes the deliveries from the next notification")
    func subscribingInCallbacks() throws {
        let log = Recorder()
        let chart = try Self.chart(Recorder(), kept: Box([]))
        let later = Box<StatechartSubscription?>(nil)
        let first = Box<StatechartSubscription?>(nil)
        first.value = try chart.observe(.entered, at: "b") { notification in
            log.append("first \(notification.state) \(notification.payload ?? "-")")
            // Cancels itself, and subscribes another observer, for the next entries.
            first.value?.cancel()
            later.value = try? chart.observe(.entered, at: "b") { notification in
                log.append("later \(notification.state) \(notification.payload ?? "-")")
            }
        }
        let exits = try chart.observe(.exited, at: "a") { notification in
            log.append("exited \(notification.path) \(notification.payload ?? "-")")
        }
        chart.start()
        try chart.handle("go", payload: "p1")
        try chart.handle("back")
        try chart.handle("go", payload: "p2")
        withExtendedLifetime(exits) {}
        #expect(log.entries == ["exited a p1", "first b p1", "exited a p2", "later b p2"])
    }

    @Test("each subscriber hears only its kind: entries, exits, or internal transitions on its own event")
    func kindsApart() throws {
        let log = Recorder()
        let chart = try Chart(name: "kinds") {
            Chart.State("a")
                .on("x", to: "a", kind: .internal)
                .on("y", to: "a", kind: .internal)
                .on("go", to: "b")
            Chart.State("b").on("back", to: "a")
        }
        var subscriptions: [StatechartSubscription] = []
        for kind in [Chart.Notification.Kind.entered, .exited, .internalTransition("x"), .internalTransition("y")] {
            subscriptions.append(
                try chart.observe(kind, at: "a") { notification in
                    log.append("\(kind) heard \(notification.kind) \(notification.payload ?? "-")")
                }
            )
        }
        chart.start()
        try chart.handle("x", payload: "1")
        try chart.handle("y")
        try chart.handle("go", payload: "2")
        try chart.handle("back")
        withExtendedLifetime(subscriptions) {}
        #expect(
            log.entries == [
                "entered heard entered -",
                "internalTransition(\"x\") heard internalTransition(\"x\") 1",
                "internalTransition(\"y\") heard internalTransition(\"y\") -",
                "exited heard exited 2",
                "entered heard entered -",
            ]
        )
    }

    @Test("subscriptions made and cancelled on other threads while steps run are delivered while they exist")
    func concurrentSubscriptions() async throws {
        let chart = try Self.chart(Recorder(), kept: Box([]))
        chart.start()
        let delivered = Count()
        let steady = try chart.observe(.entered, at: "b") { _ in delivered.add() }
        let churned = Count()
        let rounds = 2_000
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for _ in 0..<rounds {
                    _ = try? chart.handle("go")
                    _ = try? chart.handle("back")
                }
            }
            group.addTask {
                for _ in 0..<200 {
                    let subscription = try? chart.observe(.exited, at: "a") { _ in
                        churned.add()
                    }
                    subscription?.cancel()
                }
            }
        }
        // The steady observer saw every entry of b; the churned ones at most one per step.
        #expect(delivered.value == rounds)
        #expect(churned.value <= rounds)
        withExtendedLifetime(steady) {}
        // Once every churned subscription is cancelled, none is delivered.
        let before = churned.value
        try chart.handle("go")
        #expect(churned.value == before)
    }
}
