import Dispatch
import Foundation
import StateMachineHierarchy
import Synchronization
import Testing

// The idle-chart fast path of `handle` and `send`, resolved events, and what readers on
// other threads see while steps run.

@Suite("Resolved events and the idle fast path")
struct FastPathTests {
    static func turnstile(_ log: Recorder) throws -> Chart {
        try Chart(name: "turnstile") {
            Chart.State("locked")
                .on("coin", to: "unlocked") { context in log.append("coin \(context.payload ?? "-")") }
                .on("push", to: "locked")
            Chart.State("unlocked").on("push", to: "locked")
        }
    }

    @Test("a resolved event handles like its name, payload included")
    func resolvedHandles() throws {
        let log = Recorder()
        let chart = try Self.turnstile(log)
        let coin = try chart.resolve("coin")
        let push = try chart.resolve("push")
        #expect(coin.name == "coin")
        #expect(try chart.handle(coin) == .discarded)
        chart.start()
        #expect(try chart.handle(coin, payload: "5c") == .handled)
        #expect(chart.activeStates == ["unlocked"])
        #expect(try chart.handle(coin) == .unhandled)
        #expect(try chart.handle(push) == .handled)
        #expect(try chart.handle(coin) == .handled)
        // The payload of the first step does not leak into a later one without payload.
        #expect(log.entries == ["coin 5c", "coin -"])
    }

    @Test("resolving an unknown name gives an event nobody handles; an empty name is an error")
    func unknownAndEmptyNames() throws {
        let chart = try Self.turnstile(Recorder())
        chart.start()
        let unknown = try chart.resolve("kick")
        #expect(try chart.handle(unknown) == .unhandled)
        #expect(chart.activeStates == ["locked"])
        #expect(throws: StatechartError.self) { try chart.resolve("") }
    }

    @Test("a resolved event keeps its name, its trace name and its identity")
    func resolvedNames() throws {
        let chart = try Self.turnstile(Recorder())
        let coin = try chart.resolve("coin")
        let again = try chart.resolve("coin")
        let kick = try chart.resolve("kick")
        let kickAgain = try chart.resolve("kick")
        #expect(coin.name == "coin" && kick.name == "kick")
        #expect(coin == again && kick == kickAgain)
        let push = try chart.resolve("push")
        #expect(coin != kick && coin != push)
        #expect(Set([coin, again, kick, kickAgain]).count == 2)
        // The same name resolved by another chart is another event.
        let otherCoin = try Self.turnstile(Recorder()).resolve("coin")
        #expect(otherCoin != coin)
        // Prefix matching sends "coin.dime" to coin's handlers; the event keeps its own name.
        let prefixed = try Chart(name: "prefixed", options: StatechartOptions(eventMatching: .prefix)) {
            Chart.State("locked").on("coin", to: "unlocked")
            Chart.State("unlocked")
        }
        prefixed.start()
        let dime = try prefixed.resolve("coin.dime")
        #expect(dime.name == "coin.dime")
        #expect(try prefixed.handle(dime) == .handled)
        let plainCoin = try prefixed.resolve("coin")
        #expect(dime != plainCoin)
    }

    @Test("names of different types are different names, whatever their values")
    func resolvedNamesOfSeveralTypes() throws {
        typealias ByInt = Statechart<String, Int, Never>
        typealias ByByte = Statechart<String, UInt8, Never>
        typealias ByString = Statechart<String, String, Never>
        let byInt = try ByInt(name: "int") {
            ByInt.State("a").on(1, to: "b")
            ByInt.State("b")
        }
        let byByte = try ByByte(name: "byte") {
            ByByte.State("a").on(1, to: "b")
            ByByte.State("b")
        }
        let byString = try ByString(name: "string") {
            ByString.State("a").on("1", to: "b")
            ByString.State("b")
        }
        let (one, byte, text) = (try byInt.resolve(1), try byByte.resolve(1), try byString.resolve("1"))
        #expect(one.name == 1)
        #expect(byte.name == UInt8(1))
        #expect(text.name == "1")
        byByte.start()
        #expect(try byByte.handle(byte) == .handled)
    }

    @Test("charts on many threads resolve names at once, and every name reads back")
    func resolvingConcurrently() async throws {
        let names = (0..<64).map { "event\($0)" }
        let chart = try Chart(name: "many") {
            Chart.State("a").on(names.first!, to: "a")
            for name in names.dropFirst() { Chart.State(name).on(name, to: "a") }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for round in 0..<50 {
                        let name = names[(worker * 7 + round) % names.count]
                        let event = try chart.resolve(name)
                        let again = try chart.resolve(name)
                        #expect(event.name == name && event == again)
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    @Test("an event resolved by another chart is looked up again by name")
    func foreignResolvedEvent() throws {
        // The same names at different table positions: a blind index would fire the wrong handler.
        let other = try Chart(name: "other") {
            Chart.State("x").on("push", to: "y").on("coin", to: "y")
            Chart.State("y")
        }
        let chart = try Self.turnstile(Recorder())
        chart.start()
        let push = try other.resolve("push")
        let coin = try other.resolve("coin")
        #expect(try chart.handle(push) == .handled)
        #expect(chart.activeStates == ["locked"])
        #expect(try chart.handle(coin) == .handled)
        #expect(chart.activeStates == ["unlocked"])
    }

    @Test("send with a resolved event runs the step in the caller and reports it")
    func resolvedSend() async throws {
        let chart = try Self.turnstile(Recorder())
        let coin = try chart.resolve("coin")
        #expect(try await chart.send(coin) == .discarded)
        chart.start()
        #expect(try await chart.send(coin, payload: "1") == .handled)
        #expect(try await chart.send(coin) == .unhandled)
        #expect(chart.activeStates == ["unlocked"])
    }

    @Test("handle from inside a step queues the event behind it, even on the fast path")
    func reentrantHandleQueues() throws {
        let log = Recorder()
        let box = Box<Chart?>(nil)
        let chart = try Chart(name: "main") {
            Chart.State("a").on("go", to: "b") { _ in
                let chart = box.value!
                let outcome = try? chart.handle(chart.resolve("next"))
                log.append("inner \(outcome.map { "\($0)" } ?? "threw")")
            }
            Chart.State("b").onEnter { _ in log.append("enter b") }.on("next", to: "c")
            Chart.State("c").onEnter { _ in log.append("enter c") }
        }
        box.value = chart
        chart.start()
        #expect(try chart.handle(chart.resolve("go")) == .handled)
        #expect(log.entries == ["inner queued", "enter b", "enter c"])
        #expect(chart.activeStates == ["c"])
    }

    @Test("isRunning and isFinished follow start, the final state and stop")
    func runningAndFinished() throws {
        let chart = try Chart(name: "main") {
            Chart.State("a").on("end", to: "done")
            Chart.State(final: "done")
        }
        #expect(!chart.isRunning && !chart.isFinished)
        chart.start()
        #expect(chart.isRunning && !chart.isFinished)
        try chart.handle(chart.resolve("end"))
        #expect(chart.isRunning && chart.isFinished)
        chart.stop()
        #expect(!chart.isRunning && !chart.isFinished)
    }

    /// Two regions that always move together: every completed step leaves them both in
    /// `on` or both in `off`, so a reader that sees them differ saw half a step.
    static func twins() throws -> Chart {
        try Chart(name: "twins") {
            Chart.State(parallel: "pair") {
                Chart.Region {
                    Chart.State("left-off").on("flip", to: "left-on")
                    Chart.State("left-on").on("flip", to: "left-off")
                }
                Chart.Region {
                    Chart.State("right-off").on("flip", to: "right-on")
                    Chart.State("right-on").on("flip", to: "right-off")
                }
            }
        }
    }

    @Test("readers on other threads never see half a step", .timeLimit(.minutes(1)))
    func readersSeeWholeSteps() throws {
        let chart = try Self.twins()
        chart.start()
        let flip = try chart.resolve("flip")
        let counters = ReaderCounters()
        let readers = DispatchGroup()
        // Threads of their own: spinning readers must not starve the writer of a pool thread.
        for _ in 0..<2 {
            readers.enter()
            Thread {
                // Read until the writer is done, and at least a hundred times.
                while !counters.done.load(ordering: .acquiring) || counters.reads.load(ordering: .relaxed) < 100 {
                    let active = chart.activeStates
                    let left = active.contains("left-on")
                    let right = active.contains("right-on")
                    if left != right || active.count != 3 { counters.torn.add(1, ordering: .relaxed) }
                    counters.reads.add(1, ordering: .relaxed)
                }
                readers.leave()
            }.start()
        }
        for _ in 0..<20_000 { try chart.handle(flip) }
        counters.done.store(true, ordering: .releasing)
        #expect(readers.wait(timeout: .now() + 30) == .success)
        #expect(counters.torn.load(ordering: .relaxed) == 0)
        #expect(counters.reads.load(ordering: .relaxed) >= 100)
        #expect(chart.activeStates == ["pair", "left-off", "right-off"])
    }
}

/// What the reader threads of `readersSeeWholeSteps` share.
final class ReaderCounters: Sendable {
    let done = Atomic<Bool>(false)
    let torn = Atomic<Int>(0)
    let reads = Atomic<Int>(0)
}
