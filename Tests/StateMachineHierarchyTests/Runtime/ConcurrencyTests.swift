import Dispatch
import StateMachineHierarchy
import Testing

@Suite("Event queue and concurrency")
struct ConcurrencyTests {
    /// A chart whose internal transition records every payload it sees, in step order.
    static func recordingChart(_ log: Recorder) throws -> Chart {
        try Chart(name: "main") {
            Chart.State("idle").onInternal("tick") { context in log.append(context.payload ?? "?") }
        }
    }

    /// Checks that `entries` holds exactly `count` events of each sender, each sender's in order.
    static func expectComplete(_ entries: [String], senders: [String], count: Int) {
        #expect(entries.count == senders.count * count)
        var next: [String: Int] = [:]
        for entry in entries {
            let parts = entry.split(separator: ":")
            let sender = String(parts[0])
            let sequence = Int(parts[1])!
            #expect(sequence == next[sender, default: 0], "sender \(sender) out of order")
            next[sender] = sequence + 1
        }
        for sender in senders { #expect(next[sender] == count, "sender \(sender) lost events") }
    }

    @Test("concurrent senders lose and reorder nothing", .timeLimit(.minutes(1)))
    func stress() async throws {
        let log = Recorder()
        let chart = try Self.recordingChart(log)
        chart.start()
        let perSender = 400
        let asyncSenders = (0..<4).map { "send\($0)" }
        let threadSenders = (0..<4).map { "thread\($0)" }
        let scheduleSenders = (0..<2).map { "schedule\($0)" }

        try await withThrowingTaskGroup(of: Void.self) { group in
            for sender in asyncSenders {
                group.addTask {
                    for sequence in 0..<perSender { try await chart.send("tick", payload: "\(sender):\(sequence)") }
                }
            }
            group.addTask {
                // Synchronous handle() from plain threads: each either drains or queues behind.
                await Task.detached {
                    DispatchQueue.concurrentPerform(iterations: threadSenders.count) { index in
                        for sequence in 0..<perSender {
                            _ = try? chart.handle("tick", payload: "\(threadSenders[index]):\(sequence)")
                        }
                    }
                }.value
            }
            for sender in scheduleSenders {
                group.addTask {
                    for sequence in 0..<perSender - 1 { chart.schedule("tick", payload: "\(sender):\(sequence)") }
                    // FIFO: once the last one's step is done, all earlier ones are too.
                    try await chart.send("tick", payload: "\(sender):\(perSender - 1)")
                }
            }
            try await group.waitForAll()
        }
        // The thread senders' handle() may return .queued; one more send waits behind them.
        try await chart.send("flush")
        Self.expectComplete(log.entries, senders: asyncSenders + threadSenders + scheduleSenders, count: perSender)
    }

    @Test("send waits for its own step and reports its outcome", .timeLimit(.minutes(1)))
    func sendOutcome() async throws {
        let chart = try Chart(name: "main") {
            Chart.State("a").on("go", to: "b")
            Chart.State("b")
        }
        #expect(try await chart.send("go") == .discarded)
        chart.start()
        #expect(try await chart.send("nothing") == .unhandled)
        #expect(try await chart.send("go") == .handled)
        #expect(chart.activeStates == ["b"])
    }

    @Test("send reports a step's error", .timeLimit(.minutes(1)))
    func sendError() async throws {
        let chart = try Chart(name: "main") {
            Chart.State("a").on("go", to: .junction("j"))
            Chart.Junction("j", paths: [.init(to: "a", guard: { _ in false })])
        }
        chart.start()
        await #expect(throws: StatechartError.noOutgoingJunctionPath(junction: "j", event: "go")) {
            try await chart.send("go")
        }
    }

    @Test("schedule's completion gets the step's error", .timeLimit(.minutes(1)))
    func scheduleError() async throws {
        let chart = try Chart(name: "main") {
            Chart.State("a").on("go", to: .junction("j"))
            Chart.Junction("j", paths: [.init(to: "a", guard: { _ in false })])
        }
        chart.start()
        let result = await withCheckedContinuation { continuation in
            chart.schedule("go") { continuation.resume(returning: $0) }
        }
        #expect(result == .failure(.noOutgoingJunctionPath(junction: "j", event: "go")))
    }

    @Test(
        "an event raised in an action runs after the current step, and handle() inside a step queues",
        .timeLimit(.minutes(1))
    )
    func raisedEventsRunAfterStep() throws {
        let log = Recorder()
        let chartBox = Box<Chart?>(nil)
        let chart = try Chart(name: "main") {
            Chart.State("a")
                .onExit(log.record("a_exit"))
                .on("go", to: "b") { context in
                    context.raise("next")
                    log.append("handle inside: \(String(describing: try? chartBox.value?.handle("also")))")
                }
            Chart.State("b")
                .onEnter(log.record("b_enter"))
                .onInternal("next", action: log.record("next"))
                .onInternal("also", action: log.record("also"))
        }
        chartBox.value = chart
        chart.start()
        try chart.handle("go")
        #expect(
            log.entries == [
                "a_exit", "handle inside: Optional(StateMachineHierarchy.StatechartStepOutcome.queued)", "b_enter",
                "next", "also",
            ]
        )
        chartBox.value = nil
    }
}

@Suite("Subscriptions")
struct SubscriptionTests {
    @Test("a stream per subscription delivers entries and exits in step order", .timeLimit(.minutes(1)))
    func streams() async throws {
        let fixture = try NestedFixture()
        let entries = try fixture.chart.subscribe(to: .entered, at: "b/b2/b22")
        let exits = try fixture.chart.subscribe(to: .exited, at: "b/b2/b22")
        try fixture.chart.handle("a_guard", payload: otherData)
        try fixture.chart.handle("a3_b22", payload: ["n": "1"])
        try fixture.chart.handle("b22_b", payload: ["n": "2"])
        let entered = await entries.first()
        let exited = await exits.first()
        #expect(entered?.payload == ["n": "1"])
        #expect(entered?.path == "b/b2/b22")
        #expect(exited?.payload == ["n": "2"])
        #expect(exited?.kind == .exited)
    }

    @Test("a cancelled subscription gets no more callbacks")
    func cancel() throws {
        let fixture = try NestedFixture()
        let count = Box(0)
        let subscription = try fixture.chart.observe(.internalTransition("a1_internal"), at: "a/a1") { _ in
            count.value += 1
        }
        try fixture.chart.handle("a1_internal")
        subscription.cancel()
        subscription.cancel()
        try fixture.chart.handle("a1_internal")
        #expect(count.value == 1)
    }

    @Test("subscribing at a bad path throws")
    func badPath() throws {
        let fixture = try NestedFixture()
        #expect(throws: StatechartError.self) { try fixture.chart.subscribe(to: .entered, at: "c/c2/c222") }
        #expect(throws: StatechartError.self) { try fixture.chart.observe(.exited, at: "zz") { _ in } }
    }
}
