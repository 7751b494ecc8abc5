import Synchronization
import TestSupport
import Testing

@testable import StateMachineCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The logger is global: every test process machine that logs reaches it. This test's
// machine has a super state of its own, and only its lines are checked.
struct LoggedState: Equatable, Sendable {}
enum LoggedEvent {}
struct LogIdle: State { var superState: LoggedState { LoggedState() } }
struct LogBusy: State { var superState: LoggedState { LoggedState() } }
struct LogToggle: Event { typealias SuperEvent = LoggedEvent }

// A counter whose every transition is logged, with a super state of its own too.
struct SoakState: Equatable, Sendable {}
enum SoakEvent {}
struct Soaked: State {
    let count: Int
    var superState: SoakState { SoakState() }
}
struct Soak: Event { typealias SuperEvent = SoakEvent }

/// Counts calls from any thread.
final class CallCounter: Sendable {
    private let value = Atomic(0)
    func increment() { value.add(1, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}

@Suite("Logging", .serialized)
struct LoggingTests {
    func machine() -> AsyncStateMachine<LoggedState, LoggedEvent> {
        AsyncStateMachine<LoggedState, LoggedEvent>(initial: LogIdle()) {
            When(state: LogIdle.self) { On(event: LogToggle.self) { _, _ in Transition(state: LogBusy()) } }
            When(state: LogBusy.self) { On(event: LogToggle.self) { _, _ in Transition(state: LogIdle()) } }
        }
    }

    @Test("setLogger receives (title, current, event, new) for each transition; disableLog silences one machine")
    func customLogger() async {
        let lines = Recorder<String>()
        let previous = Logging.logger.withLock { $0 }
        defer { Logging.logger.withLock { $0 = previous } }
        StateMachine.setLogger { title, current, event, new in
            guard title == "LoggedState" else { return }
            lines.append("[\(title)] \(current) + \(event) -> \(new)")
        }
        let logged = machine()
        await logged.sendAndWait(event: LogToggle())
        await logged.sendAndWait(event: LogToggle())
        let silent = machine().disableLog()
        await silent.sendAndWait(event: LogToggle())
        #expect(
            lines.all == [
                "[LoggedState] LogIdle + LogToggle -> LogBusy",
                "[LoggedState] LogBusy + LogToggle -> LogIdle",
            ]
        )
    }

    /// Regression test of issue 28. Each read of the logger (once per transition) used to wrap
    /// the kept closure in two more reabstraction thunks, so each transition was slower than
    /// the last and the total grew with the square of the count. Measured on a 2-core machine,
    /// this test alone in a debug build: 0.4 s for 50,000 with the fix (5 s under the thread
    /// sanitizer); on the commit before it, 60,732 transitions took 150 s (where a run of
    /// 200,000 was stopped), so 50,000 would take about 100 s. The 45 s bound is far above the
    /// linear path (also under the sanitizer, beside the other tests) and below the quadratic.
    @Test("50,000 logged transitions take time linear in their number")
    func loggedTransitionsStayLinear() async {
        let count = 50_000
        let sink = open("/dev/null", O_WRONLY)
        defer { close(sink) }
        let lines = CallCounter()
        let previous = Logging.logger.withLock { $0 }
        // A logger like the default one, writing its lines where nobody reads them.
        StateMachine.setLogger { title, current, event, new in
            guard title == "SoakState" else { return }
            var line = "[\(title)] \(current) + \(event) => \(new)\n"
            line.withUTF8 { bytes in _ = write(sink, bytes.baseAddress, bytes.count) }
            lines.increment()
        }
        let machine = AsyncStateMachine<SoakState, SoakEvent>(initial: Soaked(count: 0)) {
            When(state: Soaked.self) {
                On(event: Soak.self) { state, _ in Transition(state: Soaked(count: state.count + 1)) }
            }
        }
        let last = await within(seconds: 45, "\(count) logged transitions") {
            // Yielding now and then leaves the tests running alongside their share of the
            // cooperative threads (the drainer holds one while events are queued).
            for index in 0..<count {
                machine.send(event: Soak())
                if index % 1_000 == 999 { await Task.yield() }
            }
            var last = 0
            for await state in machine {
                last = (state as? Soaked)?.count ?? -1
                if last == count { break }
            }
            return last
        }
        // Put the logger back first: on a timeout the machine still has events to process.
        Logging.logger.withLock { $0 = previous }
        #expect(last == count)
        #expect(lines.count == count)
        await machine.finishAndWait()
    }

    @Test("the default logger is quiet in test processes")
    func quietUnderTests() {
        #expect(Logging.isTestProcess)
    }
}

@Suite("Diagnostics")
struct DiagnosticsTests {
    /// Regression test of issue 28 for a kept closure called synchronously: every read of the
    /// diagnostics handler used to wrap it in two more reabstraction thunks, each a stack frame
    /// in a debug build (about 80 bytes a read on the commit before the fix: 1,000 reports
    /// deepened the call by about 80 KB). Now the handler runs at the same depth every time.
    @Test("the diagnostics handler runs at the same stack depth after 1,000 reports")
    func keptHandlerDoesNotGrow() {
        _ = diagnostics
        /// How far below the caller's frame the handler ran for `message`.
        func depth(_ message: String) -> Int? {
            let caller = stackAddress()
            Diagnostics.report(message)
            return diagnosticStackAddresses.all.last { $0.message == message }.map { caller - $0.address }
        }
        let first = depth("depth probe: first")
        for index in 0..<1_000 { Diagnostics.report("depth probe \(index)") }
        let last = depth("depth probe: last")
        #expect(first != nil && last != nil)
        if let first, let last { #expect(last - first < 1_024, "the call went \(last - first) bytes deeper") }
    }
}
