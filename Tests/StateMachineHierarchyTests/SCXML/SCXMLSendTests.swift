import Dispatch
import Foundation
import Testing

// @testable: a test reads the parsed <send> from the document's internal node list.
@testable import StateMachineHierarchy
@testable import StateMachineSCXML

// <send>, <cancel> and the clock behind delayed sends. Every test but one runs on a
// ManualStatechartClock, so nothing waits for real time.

/// A started machine for `body` on `clock`, whose macrostep traces `log` records.
private func machine(
    _ body: String,
    clock: some StatechartClock,
    log: Recorder = Recorder()
) throws -> SCXMLInterpreter {
    let machine = SCXMLInterpreter(document: try scxmlDocument(body), clock: clock) { trace in
        for entry in trace where entry.hasPrefix("event:") { log.append(String(entry.dropFirst(6))) }
    }
    try machine.start()
    return machine
}

@Suite("SCXML <send> and <cancel>")
struct SCXMLSendTests {
    @Test("A delayed send fires only once its delay has passed, as its own macrostep")
    func delayedSend() throws {
        let clock = ManualStatechartClock()
        let chart = try machine(
            """
            <state id="a">
              <onentry><send event="timeout" delay="2s"/></onentry>
              <transition event="timeout" target="b"/>
            </state>
            <state id="b"/>
            """,
            clock: clock
        )
        #expect(clock.pendingTimerCount == 1)
        clock.advance(by: .milliseconds(1900))
        #expect(chart.activeAtomicStates == ["a"])
        clock.advance(by: .milliseconds(100))
        #expect(chart.activeAtomicStates == ["b"])
        #expect(chart.trace == ["event:timeout", "exit:a", "enter:b"])
        #expect(clock.pendingTimerCount == 0)
    }

    @Test("A released session's delayed sends leave the clock")
    func releasedSessionCancelsSends() throws {
        let clock = ManualStatechartClock()
        do {
            let session = try machine(
                """
                <state id="a">
                  <onentry><send event="timeout" delay="60s"/><send event="later" delay="90s"/></onentry>
                </state>
                """,
                clock: clock
            )
            withExtendedLifetime(session) { #expect(clock.pendingTimerCount == 2) }
        }
        #expect(clock.pendingTimerCount == 0)
    }

    @Test("Delayed sends fire in deadline order, whatever their declaration order; ties in send order")
    func deadlineOrder() throws {
        let clock = ManualStatechartClock()
        let log = Recorder()
        let chart = try machine(
            """
            <state id="a">
              <onentry>
                <send event="third" delay="3s"/>
                <send event="first" delay="1s"/>
                <send event="second" delay="1500ms"/>
                <send event="fourth" delay="3s"/>
              </onentry>
              <transition event="first" target="b"/>
            </state>
            <state id="b"><transition event="second" target="c"/></state>
            <state id="c"><transition event="third" target="d"/></state>
            <state id="d"><transition event="fourth" target="e"/></state>
            <state id="e"/>
            """,
            clock: clock,
            log: log
        )
        clock.advance(by: .seconds(10))
        #expect(log.entries == ["first", "second", "third", "fourth"])
        #expect(chart.activeAtomicStates == ["e"])
    }

    @Test("<cancel> before the deadline prevents the event; after it, it is a no-op")
    func cancel() throws {
        let clock = ManualStatechartClock()
        let log = Recorder()
        let chart = try machine(
            """
            <state id="a">
              <onentry><send id="timer" event="timeout" delay="2s"/><send id="other" event="late" delay="5s"/></onentry>
              <transition event="stop"><cancel sendid="timer"/></transition>
              <transition event="stopOther"><cancel sendid="other"/><cancel sendid="neverSent"/></transition>
              <transition event="timeout" target="b"/>
            </state>
            <state id="b"/>
            """,
            clock: clock,
            log: log
        )
        clock.advance(by: .seconds(1))
        try chart.send("stop")
        #expect(clock.pendingTimerCount == 1)
        clock.advance(by: .seconds(3))
        #expect(chart.activeAtomicStates == ["a"])
        clock.advance(by: .seconds(1))
        #expect(log.entries == ["stop", "late"])
        try chart.send("stopOther")  // "other" already fired: nothing to cancel
        #expect(chart.activeAtomicStates == ["a"])
        #expect(try chart.snapshot().scxml?.sends.isEmpty == true)
    }

    @Test("Leaving the state that sent does not cancel a delayed send (only <cancel> does)")
    func exitDoesNotCancel() throws {
        let clock = ManualStatechartClock()
        let chart = try machine(
            """
            <state id="a">
              <onentry><send event="ping" delay="1s"/></onentry>
              <transition event="leave" target="b"/>
            </state>
            <state id="b"><transition event="ping" target="c"/></state>
            <state id="c"/>
            """,
            clock: clock
        )
        try chart.send("leave")
        #expect(chart.activeAtomicStates == ["b"])
        clock.advance(by: .seconds(1))
        #expect(chart.activeAtomicStates == ["c"])
    }

    @Test("#_internal and <raise> run within the macrostep; undelayed external sends after it, in order")
    func internalVersusExternal() throws {
        let log = Recorder()
        let chart = try machine(
            """
            <state id="a">
              <transition event="go" target="b">
                <send event="ext1"/>
                <raise event="int1"/>
                <send event="int2" target="#_internal"/>
                <send event="ext2" delay="0s" type="http://www.w3.org/TR/scxml/#SCXMLEventProcessor"/>
              </transition>
            </state>
            <state id="b">
              <transition event="int1" target="c"/>
            </state>
            <state id="c">
              <transition event="int2" target="d"/>
              <transition event="ext1" target="wrong"/>
            </state>
            <state id="d">
              <transition event="ext1" target="e"/>
            </state>
            <state id="e">
              <transition event="ext2" target="f"/>
            </state>
            <state id="f"/>
            <state id="wrong"/>
            """,
            clock: ManualStatechartClock(),
            log: log
        )
        try chart.send("go")
        // send() returns once the queue it started is empty: go's macrostep, then ext1's, then ext2's.
        #expect(log.entries == ["go", "int1", "int2", "ext1", "ext2"])
        #expect(chart.activeAtomicStates == ["f"])
        #expect(chart.trace == ["event:ext2", "exit:e", "enter:f"])
    }

    @Test("idlocation stores a generated send id that <cancel sendidexpr> cancels")
    func idLocation() throws {
        let clock = ManualStatechartClock()
        let log = Recorder()
        let chart = try machine(
            """
            <state id="a">
              <onentry>
                <send event="first" delay="1s" idlocation="slot"/>
                <send event="second" delay="2s" idlocation="slot"/>
                <send event="third" delay="3s" id="literal"/>
              </onentry>
              <transition event="cancelSlot"><cancel sendidexpr="slot"/></transition>
              <transition event="cancelLiteral"><cancel sendidexpr="'literal'"/></transition>
            </state>
            """,
            clock: clock,
            log: log
        )
        let snapshot = try chart.snapshot()
        #expect(snapshot.scxml?.sendIDSlots == ["slot": "send.2"])
        #expect(snapshot.scxml?.sends.map(\.sendID) == ["send.1", "send.2", "literal"])
        try chart.send("cancelSlot")  // the slot holds the second send's id
        try chart.send("cancelLiteral")
        clock.advance(by: .seconds(5))
        #expect(log.entries == ["cancelSlot", "cancelLiteral", "first"])
    }

    @Test("A machine that stops cancels its pending timers")
    func stopCancels() throws {
        let clock = ManualStatechartClock()
        let chart = try machine(
            """
            <state id="a">
              <onentry><send event="later" delay="1s"/></onentry>
              <transition event="end" target="done"/>
            </state>
            <final id="done"/>
            """,
            clock: clock
        )
        #expect(clock.pendingTimerCount == 1)
        try chart.send("end")
        #expect(chart.isDone)
        #expect(clock.pendingTimerCount == 0)
    }

    @Test("A timer that fires although its send was cancelled, or its machine released, delivers nothing")
    func staleTimers() throws {
        let clock = UncancellableClock()
        let log = Recorder()
        let chart = try machine(
            """
            <state id="a">
              <onentry><send id="t" event="timeout" delay="1s"/><send event="tick" delay="2s"/></onentry>
              <transition event="stop"><cancel sendid="t"/></transition>
              <transition event="timeout" target="b"/>
            </state>
            <state id="b"/>
            """,
            clock: clock,
            log: log
        )
        try chart.send("stop")
        clock.inner.advance(by: .seconds(1))  // the cancelled send's callback still runs
        #expect(chart.activeAtomicStates == ["a"])
        #expect(log.entries == ["stop"])

        var released: SCXMLInterpreter? = try machine(
            "<state id=\"a\"><onentry><send event=\"x\" delay=\"1s\"/></onentry></state>",
            clock: clock,
            log: log
        )
        #expect(released?.isRunning == true)
        released = nil
        clock.inner.advance(by: .seconds(2))  // "x" finds no machine; "tick" is still live
        #expect(log.entries == ["stop", "tick"])
    }

    @Test("The macrostep observer may send events and take snapshots; they queue behind the current work")
    func observerReentrancy() throws {
        let log = Recorder()
        let snapshots = Box<[StatechartSnapshot]>([])
        let holder = Box<SCXMLInterpreter?>(nil)
        let chart = SCXMLInterpreter(
            document: try scxmlDocument(
                """
                <state id="a"><transition event="go" target="b"/></state>
                <state id="b"><transition event="next" target="c"/></state>
                <state id="c"/>
                """
            ),
            clock: ManualStatechartClock()
        ) { trace in
            log.append(trace.first ?? "")
            guard trace.first == "event:go", let machine = holder.value else { return }
            if let snapshot = try? machine.snapshot() { snapshots.value.append(snapshot) }
            try? machine.send("next")  // queued: this thread runs it once the observer returns
            log.append("sent next")
        }
        holder.value = chart
        defer { holder.value = nil }
        try chart.start()
        try chart.send("go")
        #expect(log.entries == ["enter:a", "event:go", "sent next", "event:next"])
        #expect(snapshots.value.map(\.configuration) == [["b"]])
        #expect(chart.activeAtomicStates == ["c"])
    }

    @Test("A macrostep that fails on a timer's thread stops the machine, cancels its timers and is kept in failure")
    func failureOnTimer() throws {
        let clock = ManualStatechartClock()
        let chart = SCXMLInterpreter(
            document: try scxmlDocument(
                """
                <state id="a">
                  <onentry><send event="loop" delay="1s"/><send event="later" delay="5s"/></onentry>
                  <transition event="loop" target="b"/>
                </state>
                <state id="b"><transition target="c"/></state>
                <state id="c"><transition target="b"/></state>
                """
            ),
            options: scxmlOptions(maxMicrosteps: 20),
            clock: clock
        )
        try chart.start()
        #expect(chart.failure == nil)
        clock.advance(by: .seconds(1))
        #expect(chart.failure == .eventlessLoop(limit: 20, cycle: ["b --> c", "c --> b"]))
        #expect(!chart.isRunning)
        #expect(clock.pendingTimerCount == 0)
        try chart.send("loop")  // ignored: the machine stopped
        #expect(try chart.snapshot().scxml?.sends.isEmpty == true)
        try chart.start()  // a new session, from scratch
        #expect(chart.failure == nil)
        #expect(chart.activeStates == ["a"])
        #expect(clock.pendingTimerCount == 2)
    }

    @Test(
        "delay accepts CSS2 times, exactly",
        arguments: [
            ("2s", Duration.seconds(2)), ("500ms", .milliseconds(500)), ("1.5s", .milliseconds(1500)),
            ("0s", .zero), (".5s", .milliseconds(500)), ("1.25ms", .microseconds(1250)), (" 3s ", .seconds(3)),
        ]
    )
    func delays(text: String, expected: Duration) throws {
        let loaded = try scxmlDocument(
            "<state id=\"a\"><onentry><send event=\"e\" delay=\"\(text)\"/></onentry></state>"
        )
        let actions = try #require(loaded.nodes.first { $0.id == "a" }?.onEntry.first)
        guard case let .send(send) = actions.first else {
            Issue.record("expected a send, got \(actions)")
            return
        }
        #expect(send.delay == .fixed(expected))
        #expect(send.target == nil)
    }

    @Test(
        "delayexpr may be a quoted CSS2 time, the null data model's value (W3C tests' conf:delay)",
        arguments: [
            ("'2s'", Duration.seconds(2)), ("&quot;500ms&quot;", .milliseconds(500)), (" '.5s' ", .milliseconds(500)),
        ]
    )
    func delayExpressions(text: String, expected: Duration) throws {
        let clock = ManualStatechartClock()
        let machine = SCXMLInterpreter(
            document: try scxmlDocument(
                """
                <state id="a">
                  <onentry><send event="e" delayexpr="\(text)"/></onentry>
                  <transition event="e" target="b"/>
                </state>
                <state id="b"/>
                """
            ),
            clock: clock
        )
        try machine.start()
        clock.advance(by: expected - .nanoseconds(1))
        #expect(machine.activeAtomicStates == ["a"])
        clock.advance(by: .nanoseconds(1))
        #expect(machine.activeAtomicStates == ["b"])
    }

    /// Faulty content, the error it causes and the element that error names. The content
    /// starts on line 3 of its document.
    static let faultyContent: [(String, SCXMLError, String)] = [
        (#"<send eventexpr="'e'"/>"#, .needsDataModel(element: "send", attribute: "eventexpr", line: 3), "send"),
        (
            #"<send event="e" delayexpr="delay"/>"#,
            .invalidExpression(
                element: "send",
                attribute: "delayexpr",
                value: "delay",
                reason: "the null data model's values are quoted literals ('2s')",
                line: 3
            ), "send"
        ),
        (#"<send event="e" delayexpr="'soon'"/>"#, .invalidDelay(element: "send", value: "soon", line: 3), "send"),
        (
            #"<send event="e" delay="1s" delayexpr="'1s'"/>"#,
            .invalidStructure(reason: "<send> cannot have both 'delay' and 'delayexpr'", line: 3), "send"
        ),
        (
            #"<send event="e" namelist="x"/>"#, .needsDataModel(element: "send", attribute: "namelist", line: 3),
            "send"
        ),
        (
            #"<send event="e" targetexpr="t"/>"#,
            .needsDataModel(element: "send", attribute: "targetexpr", line: 3), "send"
        ),
        (
            "<send event=\"e\">\n<param name=\"p\" expr=\"1\"/></send>",
            .needsDataModel(element: "param", attribute: nil, line: 4),
            "param"
        ),
        (
            "<send event=\"e\">\n<content>x</content></send>",
            .needsDataModel(element: "content", attribute: nil, line: 4),
            "content"
        ),
        (#"<send event="e" delay="2 hours"/>"#, .invalidDelay(element: "send", value: "2 hours", line: 3), "send"),
        (#"<send event="e" delay="-1s"/>"#, .invalidDelay(element: "send", value: "-1s", line: 3), "send"),
        (#"<send event="e" delay="5"/>"#, .invalidDelay(element: "send", value: "5", line: 3), "send"),
        (#"<send event="e" delay="1.s"/>"#, .invalidDelay(element: "send", value: "1.s", line: 3), "send"),
        (#"<send event="e" delay="ms"/>"#, .invalidDelay(element: "send", value: "ms", line: 3), "send"),
        (#"<send delay="1s"/>"#, .missingAttribute(element: "send", attribute: "event", line: 3), "send"),
        (
            #"<send event="e" id="a" idlocation="b"/>"#,
            .invalidStructure(reason: "<send> cannot have both 'id' and 'idlocation'", line: 3), "send"
        ),
        (
            ##"<send event="e" target="#_internal" delay="1s"/>"##,
            .invalidStructure(
                reason:
                    "a <send> to #_internal cannot have a delay (the internal queue is emptied within the macrostep)",
                line: 3
            ), "send"
        ),
        ("<cancel/>", .missingAttribute(element: "cancel", attribute: "sendid", line: 3), "cancel"),
        (
            #"<cancel sendidexpr="nowhere"/>"#,
            .unsupportedValue(element: "cancel", attribute: "sendidexpr", value: "nowhere", line: 3), "cancel"
        ),
        (
            #"<cancel sendid="a" sendidexpr="'a'"/>"#,
            .invalidStructure(reason: "<cancel> cannot have both 'sendid' and 'sendidexpr'", line: 3), "cancel"
        ),
    ]

    @Test("Every unsupported or malformed <send>/<cancel> names its element and line", arguments: faultyContent)
    func loadErrors(content: String, expected: SCXMLError, element: String) {
        let error = scxmlLoadError(
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
              <state id="a"><onentry>
                \(content)
              </onentry></state>
            </scxml>
            """
        )
        #expect(error == expected)
        let description = error?.description ?? ""
        #expect(description.contains("<\(element)>"), "\(description)")
        let line = element == "param" || element == "content" ? 4 : 3
        #expect(description.contains("line \(line)"), "\(description)")
    }

    @Test("Concurrent senders on several threads lose nothing and keep each thread's order", .timeLimit(.minutes(1)))
    func concurrentSenders() async throws {
        let clock = ManualStatechartClock()
        let log = Recorder()
        let chart = try machine(
            """
            <state id="a">
              <onentry><send event="timer.0" delay="1ms"/></onentry>
              <transition event="t" type="internal"/>
              <transition event="timer" type="internal"><send event="timer.1" delay="1ms"/></transition>
            </state>
            """,
            clock: clock,
            log: log
        )
        let threads = 4
        let perThread = 300
        await Task.detached {
            DispatchQueue.concurrentPerform(iterations: threads + 1) { index in
                if index == threads {
                    // The clock's timers fire on this thread, into the same queue.
                    for _ in 0..<perThread { clock.advance(by: .milliseconds(1)) }
                    return
                }
                for sequence in 0..<perThread { try? chart.send("t.\(index).\(sequence)") }
            }
        }.value
        // Every send() has returned, so the thread that ran the last macrosteps has
        // emptied the queue: every event has been processed.
        let events = log.entries.filter { $0.hasPrefix("t.") }
        #expect(events.count == threads * perThread)
        var next = [Int](repeating: 0, count: threads)
        for event in events {
            let parts = event.split(separator: ".")
            let thread = Int(parts[1])!
            #expect(Int(parts[2]) == next[thread], "thread \(thread) out of order")
            next[thread] += 1
        }
        #expect(next == [Int](repeating: perThread, count: threads))
        #expect(log.entries.filter { $0.hasPrefix("timer.") }.count >= 1)
    }

    @Test("On the real clock a 20 ms send arrives, and not before 20 ms", .timeLimit(.minutes(1)))
    func continuousClock() async throws {
        let (traces, continuation) = AsyncStream.makeStream(of: [String].self)
        let started = ContinuousClock.now
        let chart = SCXMLInterpreter(
            document: try scxmlDocument(
                """
                <state id="a">
                  <onentry><send event="timeout" delay="20ms"/></onentry>
                  <transition event="timeout" target="b"/>
                </state>
                <state id="b"/>
                """
            ),
            onMacrostep: { continuation.yield($0) }
        )
        try chart.start()
        for await trace in traces where trace.first == "event:timeout" { break }
        #expect(ContinuousClock.now - started >= .milliseconds(20))
        #expect(chart.activeAtomicStates == ["b"])
    }
}
