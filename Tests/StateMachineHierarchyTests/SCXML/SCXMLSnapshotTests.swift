import Foundation
import StateMachineHierarchy
import StateMachineSCXML
import Testing

// Snapshots of SCXMLInterpreter (the one `StatechartSnapshot` type, states named by path):
// save, encode as JSON, restore on a new machine (and a new clock), and carry on as if
// nothing had happened.

/// An editor with a deep history, a settings page with a shallow history, and an `away`
/// state left by a delayed `wake` (sent on the way in) or by `return`.
private let editorXML = """
    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="main">
      <state id="main" initial="editor">
        <state id="editor">
          <history id="editorHistory" type="deep"><transition target="text"/></history>
          <state id="text" initial="plain">
            <state id="plain"><transition event="bold" target="bold"/></state>
            <state id="bold"/>
          </state>
          <transition event="settings" target="settings"/>
        </state>
        <state id="settings">
          <history id="settingsHistory" type="shallow"><transition target="general"/></history>
          <state id="general"><transition event="advanced" target="advanced"/></state>
          <state id="advanced"/>
          <transition event="back" target="editorHistory"/>
          <transition event="away" target="away"><send event="wake" delay="3s"/></transition>
        </state>
        <state id="away">
          <onentry><send id="nudge" event="nudge" delay="10s"/></onentry>
          <transition event="wake" target="settingsHistory"/>
        </state>
      </state>
    </scxml>
    """

private func encodeAndDecode(_ snapshot: StatechartSnapshot) throws -> StatechartSnapshot {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return try JSONDecoder().decode(StatechartSnapshot.self, from: try encoder.encode(snapshot))
}

private func restoreError(_ snapshot: StatechartSnapshot, _ xml: String = editorXML) -> StatechartError? {
    do {
        _ = try SCXMLInterpreter(
            document: try SCXMLDocument(xml: xml),
            restoring: snapshot,
            clock: ManualStatechartClock()
        )
        return nil
    } catch {
        return error as? StatechartError
    }
}

/// A running snapshot of a chart named `chart`.
private func running(
    _ configuration: [String],
    history: [String: [String]] = [:],
    chart: String = "scxml"
)
    -> StatechartSnapshot
{
    StatechartSnapshot(chart: chart, isRunning: true, configuration: configuration, history: history)
}

@Suite("SCXML snapshots")
struct SCXMLSnapshotTests {
    @Test("snapshot → JSON → restore: same configuration, history, pending sends; onentry not re-run")
    func roundTrip() throws {
        let document = try SCXMLDocument(xml: editorXML)
        let oldClock = ManualStatechartClock()
        var old: SCXMLInterpreter? = SCXMLInterpreter(document: document, clock: oldClock)
        try old?.start()
        for event in ["bold", "settings", "advanced", "away"] { try old?.send(event) }
        oldClock.advance(by: .seconds(1))
        let taken = try #require(try old?.snapshot())
        #expect(taken.configuration == ["main", "main/away"])
        #expect(
            taken.history == [
                "editorHistory": ["main/editor/text", "main/editor/text/bold"],
                "settingsHistory": ["main/settings/advanced"],
            ]
        )
        #expect(
            taken.scxml?.sends == [
                .init(event: "wake", sendID: nil, remaining: .seconds(2)),
                .init(event: "nudge", sendID: "nudge", remaining: .seconds(9)),
            ]
        )
        let json = String(decoding: try JSONEncoder().encode(taken), as: UTF8.self)
        #expect(json.contains("\"remainingNanoseconds\":2000000000"))

        old = nil  // the old machine goes away and takes its timers with it
        #expect(oldClock.pendingTimerCount == 0)

        let clock = ManualStatechartClock()
        clock.advance(by: .seconds(100))  // another clock, at another time
        let restored = try SCXMLInterpreter(document: document, restoring: try encodeAndDecode(taken), clock: clock)
        #expect(restored.isRunning)
        #expect(restored.activeStates == ["main", "away"])
        #expect(try restored.snapshot() == taken)  // the onentry send of "away" did not run again
        #expect(restored.trace.isEmpty)

        clock.advance(by: .milliseconds(1999))
        #expect(restored.activeAtomicStates == ["away"])
        clock.advance(by: .milliseconds(1))
        // wake re-enters settings through its shallow history: advanced, not general.
        #expect(restored.activeAtomicStates == ["advanced"])
        try restored.send("back")
        // The deep history of the editor remembers bold inside text.
        #expect(restored.activeStates == ["main", "editor", "text", "bold"])
        #expect(oldClock.pendingTimerCount == 0)
    }

    @Test("A snapshot taken before start or after the end restores that status")
    func statuses() throws {
        let document = try SCXMLDocument(
            xml: """
                <scxml initial="a"><state id="a"><transition event="end" target="f"/></state><final id="f"/></scxml>
                """
        )
        let fresh = SCXMLInterpreter(document: document)
        let notStarted = try encodeAndDecode(fresh.snapshot())
        #expect(notStarted.configuration.isEmpty)
        let restored = try SCXMLInterpreter(document: document, restoring: notStarted)
        #expect(!restored.isRunning)
        try restored.start()
        #expect(restored.activeAtomicStates == ["a"])

        try restored.send("end")
        let done = try SCXMLInterpreter(document: document, restoring: try encodeAndDecode(restored.snapshot()))
        #expect(done.isDone)
        #expect(!done.isRunning)
        #expect(done.activeAtomicStates == ["f"])
    }

    /// A delayed send whose generated id goes into the `timer` slot, and a cancel through it.
    static let slotXML = """
        <scxml initial="a">
          <state id="a">
            <onentry><send event="t" delay="1s" idlocation="timer"/></onentry>
            <transition event="cancel"><cancel sendidexpr="timer"/></transition>
            <transition event="t" target="b"/>
          </state>
          <state id="b"/>
        </scxml>
        """

    @Test("idlocation slots survive a restore")
    func slots() throws {
        let document = try SCXMLDocument(xml: Self.slotXML)
        let original = SCXMLInterpreter(document: document, clock: ManualStatechartClock())
        try original.start()
        let snapshot = try original.snapshot()
        #expect(snapshot.scxml?.sendIDSlots == ["timer": "send.1"])
        #expect(snapshot.scxml?.generatedSendIDCount == 1)
        let clock = ManualStatechartClock()
        let restored = try SCXMLInterpreter(document: document, restoring: try encodeAndDecode(snapshot), clock: clock)
        try restored.send("cancel")  // cancels send.1 through the restored slot
        #expect(try restored.snapshot().scxml?.sends.isEmpty == true)
        clock.advance(by: .seconds(2))
        #expect(restored.activeAtomicStates == ["a"])
    }

    @Test("a snapshot written before the bookkeeping became package API still loads, and keeps its JSON keys")
    func bookkeepingKeysStay() throws {
        let document = try SCXMLDocument(xml: Self.slotXML)
        // What SCXMLInterpreter.snapshot() wrote at 04c26dc, when `sendIDSlots` and
        // `generatedSendIDCount` were public: the same document, started, one send pending.
        let written = #"""
            {"chart":"scxml","configuration":["a"],"history":{},"isRunning":true,"joins":{},\#
            "scxml":{"generatedSendIDCount":1,"sendIDSlots":{"timer":"send.1"},\#
            "sends":[{"event":"t","remainingNanoseconds":1000000000,"sendID":"send.1"}]},"timers":[]}
            """#
        let old = try JSONDecoder().decode(StatechartSnapshot.self, from: Data(written.utf8))
        let clock = ManualStatechartClock()
        let restored = try SCXMLInterpreter(document: document, restoring: old, clock: clock)
        #expect(restored.activeAtomicStates == ["a"])
        let again = try restored.snapshot()
        #expect(again == old)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(again), as: UTF8.self) == written)
        // The slot still names the restored send: cancelling through it leaves nothing pending,
        // and the next generated id does not reuse send.1.
        try restored.send("cancel")
        #expect(try restored.snapshot().scxml?.sends.isEmpty == true)
        clock.advance(by: .seconds(2))
        #expect(restored.activeAtomicStates == ["a"])
    }

    static let badSnapshots: [(StatechartSnapshot, String)] = [
        (running(["main", "main/nowhere"]), "nowhere"),
        (
            running(["main", "main/editor", "main/editor/text", "main/editor/text/plain", "main/editor/text/bold"]),
            "bold"
        ),
        (running(["main", "main/editor"]), "region 'editorSubMachine' has no active state"),
        (running(["main/editor", "main/editor/text", "main/editor/text/plain"]), "region 'scxml' has no active state"),
        (running(["main", "main/editorHistory"]), "editorHistory"),
        (running(["main", "main/away"], history: ["settingsHistory": ["main/editor/text/plain"]]), "settingsHistory"),
        (running(["main", "main/away"], history: ["ghost": ["main/away"]]), "ghost"),
        (running([]), "region 'scxml'"),
        (running(["main", "main/away"], chart: "other"), "'other'"),
    ]

    @Test("A snapshot that does not fit the document is an error naming what is wrong", arguments: badSnapshots)
    func badSnapshot(snapshot: StatechartSnapshot, named: String) {
        let error = restoreError(snapshot)
        guard case let .invalidSnapshot(reason)? = error else {
            Issue.record("expected invalidSnapshot, got \(String(describing: error))")
            return
        }
        #expect(reason.contains(named), "\(reason)")
    }

    @Test("A parallel state needs every region active; broken JSON is a decoding error")
    func parallelAndJSON() throws {
        let xml = """
            <scxml initial="p"><parallel id="p"><state id="r1"/><state id="r2"/></parallel></scxml>
            """
        let error = restoreError(running(["p", "p@0/r1"]), xml)
        #expect(error == .invalidSnapshot(reason: "region 'pSubMachine-1' has no active state"))
        #expect(restoreError(running(["p", "p@0/r1", "p@1/r2"]), xml) == nil)
        #expect(throws: DecodingError.self) {
            _ = try JSONDecoder().decode(StatechartSnapshot.self, from: Data(#"{"configuration": ["p"]}"#.utf8))
        }
    }
}

@Suite("SCXML restore in place")
struct SCXMLRestoreInPlaceTests {
    @Test("restore(_:) replaces the state; the replaced machine's timers deliver nothing, even if they fire")
    func restoreInPlace() throws {
        let document = try SCXMLDocument(
            xml: """
                <scxml initial="a">
                  <state id="a">
                    <transition event="arm" target="b"/>
                  </state>
                  <state id="b">
                    <onentry><send event="timeout" delay="1s"/></onentry>
                    <transition event="timeout" target="c"/>
                  </state>
                  <state id="c"><transition event="timeout" target="wrong"/></state>
                  <state id="wrong"/>
                </scxml>
                """
        )
        let clock = UncancellableClock()
        let machine = SCXMLInterpreter(document: document, clock: clock)
        try machine.start()
        try machine.send("arm")
        let armed = try machine.snapshot()
        #expect(armed.scxml?.sends == [.init(event: "timeout", sendID: nil, remaining: .seconds(1))])

        // Back to "c" with nothing pending: the "timeout" timer of "b" is now stale.
        try machine.restore(running(["c"]))
        #expect(machine.activeAtomicStates == ["c"])
        clock.inner.advance(by: .seconds(1))
        #expect(machine.activeAtomicStates == ["c"])

        // Restoring the armed snapshot reschedules its send: it fires after its full second.
        try machine.restore(armed)
        #expect(machine.activeAtomicStates == ["b"])
        clock.inner.advance(by: .milliseconds(999))
        #expect(machine.activeAtomicStates == ["b"])
        clock.inner.advance(by: .milliseconds(1))
        #expect(machine.activeAtomicStates == ["c"])

        // A snapshot that does not fit leaves the machine as it was.
        #expect(throws: StatechartError.self) {
            try machine.restore(running(["nowhere"]))
        }
        #expect(machine.activeAtomicStates == ["c"])
    }
}

@Suite("What a snapshot keeps of an SCXML session")
struct SCXMLSessionSnapshotTests {
    @Test("a typed chart's snapshot has no SCXML session, and refuses one that holds sends")
    func typedChartHasNoSession() throws {
        let definition = Chart.Definition(name: "light") {
            Chart.State("off").on("flip", to: "on")
            Chart.State("on").on("flip", to: "off")
        }
        let chart = try Chart(definition)
        chart.start()
        let snapshot = chart.snapshot()
        #expect(snapshot.scxml == nil)
        // An empty session (as an SCXML chart without sends writes it) restores anywhere.
        var empty = snapshot
        empty.scxml = StatechartSnapshot.SCXMLSession()
        _ = try Chart(definition, restoring: empty)
        var withSend = snapshot
        withSend.scxml = StatechartSnapshot.SCXMLSession(
            sends: [.init(event: "flip", sendID: "later", remaining: .seconds(1))]
        )
        #expect {
            try Chart(definition, restoring: withSend)
        } throws: { error in
            guard case StatechartError.invalidSnapshot(let reason) = error else { return false }
            return reason.contains("not read from SCXML")
        }
    }

    @Test("an SCXML chart's snapshot always has a session, even with nothing pending")
    func scxmlChartHasSession() throws {
        let document = try SCXMLDocument(
            xml: #"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0"><state id="a"/></scxml>"#
        )
        let machine = SCXMLInterpreter(document: document, clock: ManualStatechartClock())
        try machine.start()
        #expect(try machine.snapshot().scxml == StatechartSnapshot.SCXMLSession())
    }
}
