import Dispatch
import Foundation
import StateMachineHierarchy
import StateMachineSupport
import Testing

// @testable: the tests hold the session's internal `chart` weakly, to see when it is released.
@testable import StateMachineSCXML

// `send` reads the session's chart without its lock or a retain (`withCurrentChart`), and
// `restore` replaces that chart: a replaced chart must live for as long as a call may still
// use it, and be released once none can.

private let ringXML = """
    <scxml initial="a">
      <state id="a"><transition event="next" target="b"/></state>
      <state id="b"><transition event="next" target="a"/></state>
    </scxml>
    """

/// A chart, held weakly.
private struct WeakChart {
    weak var chart: SCXMLChart?
}

@Suite("Restoring an SCXML session while it is sent events")
struct SCXMLRestoreWhileSendingTests {
    @Test("a chart replaced inside a send lives until that send returns, then is released")
    func replacedInsideSend() throws {
        let document = try SCXMLDocument(xml: ringXML)
        let startSnapshot = try {
            let machine = SCXMLInterpreter(document: document)
            try machine.start()
            return try machine.snapshot()
        }()
        // What the observer saw: the machine (set once made), the replaced chart, and
        // whether that chart was still there, and kept by the session, when `restore` had
        // returned.
        struct Seen {
            var machine: SCXMLInterpreter?
            var replaced = WeakChart()
            var aliveAfterRestore: Bool?
            var keptAfterRestore = false
            var failure: String?
        }
        let seen = Lock(Seen())
        let machine = SCXMLInterpreter(document: document, recordsTrace: false) { _ in
            // After the first macrostep of "next" only: the send that ran it is still on the stack.
            guard let machine = seen.withLock({ $0.aliveAfterRestore == nil ? $0.machine : nil }) else { return }
            guard machine.activeAtomicStates == ["b"] else { return }
            let replaced = WeakChart(chart: machine.chart)
            do {
                try machine.restore(startSnapshot)
            } catch {
                seen.withLock { $0.failure = "\(error)" }
            }
            // Alive, and by the session's own doing: a debug build's send may hold the chart
            // itself, so the session must be seen keeping it too.
            let kept = machine.state.withLock { session in
                session.retired.contains { $0 === replaced.chart } && session.chart !== replaced.chart
            }
            seen.withLock {
                $0.replaced = replaced
                $0.aliveAfterRestore = replaced.chart != nil
                $0.keptAfterRestore = kept
            }
        }
        seen.withLock { $0.machine = machine }
        defer { seen.withLock { $0.machine = nil } }
        try machine.start()

        try machine.send("next")

        let after = seen.withLock { $0 }
        #expect(after.failure == nil)
        #expect(after.aliveAfterRestore == true, "released while the send that ran the observer still used it")
        #expect(after.keptAfterRestore, "not kept by the session while the send that ran the observer used it")
        #expect(machine.state.withLock { $0.retired.isEmpty })
        #expect(after.replaced.chart == nil, "kept after the send returned")
        #expect(machine.activeAtomicStates == ["a"])
        try machine.send("next")
        #expect(machine.activeAtomicStates == ["b"])
    }

    @Test("a step's report from a chart that is no longer the session's changes nothing")
    func reportFromReplacedChart() throws {
        // What a replaced chart's step, running on another thread as `restore` cut it off,
        // may still report: each report names its chart, and only the session's counts.
        let machine = SCXMLInterpreter(document: try SCXMLDocument(xml: ringXML))
        try machine.start()
        let replaced = machine.chart
        try machine.restore(try machine.snapshot())

        machine.eventStarted("next", payload: nil, external: true, from: replaced.hooks)
        machine.stepFinished(.failure(.invalidSnapshot(reason: "from the replaced chart")), from: replaced.hooks)

        #expect(machine.trace.isEmpty)
        #expect(machine.isRunning)
        try machine.send("next")
        #expect(machine.activeAtomicStates == ["b"])
        #expect(machine.trace == ["event:next", "exit:a", "enter:b"])
    }

    @Test("a chart replaced between calls is released at once")
    func replacedBetweenCalls() throws {
        let document = try SCXMLDocument(xml: ringXML)
        let machine = SCXMLInterpreter(document: document, recordsTrace: false)
        try machine.start()
        let snapshot = try machine.snapshot()
        let replaced = WeakChart(chart: machine.chart)
        try machine.restore(snapshot)
        #expect(replaced.chart == nil)
        #expect(machine.chart.isRunning)
    }

    @Test("sends from four threads while a fifth restores: every replaced chart is released, the session runs")
    func sendsBesideRestores() throws {
        let document = try SCXMLDocument(xml: ringXML)
        let machine = SCXMLInterpreter(document: document, recordsTrace: false)
        try machine.start()
        let snapshot = try machine.snapshot()
        let replaced = Lock<[WeakChart]>([])
        let failures = Lock<[String]>([])
        let sendersLeft = Lock(4)
        let sendsPerThread = 5_000
        let finished = DispatchGroup()
        // One thread restores until the senders are done (at least once), four send.
        var threads = [
            Thread {
                defer { finished.leave() }
                do {
                    repeat {
                        let current = WeakChart(chart: machine.chart)
                        replaced.withLock { $0.append(current) }
                        try machine.restore(snapshot)
                    } while sendersLeft.withLock({ $0 }) > 0
                } catch {
                    failures.withLock { $0.append("restoring: \(error)") }
                }
            }
        ]
        for sender in 1...4 {
            threads.append(
                Thread {
                    defer {
                        sendersLeft.withLock { $0 -= 1 }
                        finished.leave()
                    }
                    do {
                        for _ in 0..<sendsPerThread { try machine.send("next") }
                    } catch {
                        failures.withLock { $0.append("sender \(sender): \(error)") }
                    }
                }
            )
        }
        for thread in threads {
            finished.enter()
            thread.start()
        }
        #expect(finished.wait(timeout: .now() + 120) == .success)
        #expect(failures.withLock { $0 }.isEmpty)
        let restores = replaced.withLock { $0 }.count
        let kept = replaced.withLock { $0 }.filter { $0.chart != nil }.count
        #expect(kept == 0, "\(kept) of \(restores) replaced charts were never released")
        let before = machine.activeAtomicStates
        try machine.send("next")
        #expect(machine.activeAtomicStates != before)
        #expect(machine.activeAtomicStates.isSubset(of: ["a", "b"]))
    }
}
