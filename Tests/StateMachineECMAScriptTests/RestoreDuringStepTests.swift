import StateMachineHierarchy
import StateMachineSCXML
import StateMachineSupport
import Testing

// A session restored while its chart still has events queued: the replaced chart processes
// them, but none of it may reach the restored session (its data model, its trace, the
// macrosteps it reports).

@Suite("Restoring an ECMAScript session from inside a step")
struct RestoreDuringStepTests {
    @Test("the events the replaced chart still processes run no content in the restored data and are not traced")
    func replacedChartRunsNoContent() throws {
        let document = try SCXMLWithDataTests.document(
            """
            <state id="a"><transition event="next" target="b"/></state>
            <state id="b">
              <transition event="x" target="a"><assign location="count" expr="count + 100"/></transition>
            </state>
            """,
            datamodel: #"<datamodel><data id="count" expr="0"/></datamodel>"#
        )
        let atStart = try {
            let machine = SCXMLInterpreter(document: document)
            try machine.start()
            return try machine.snapshot()
        }()
        struct Seen {
            var machine: SCXMLInterpreter?
            var restored = false
            var tracesAfterRestore: [[String]] = []
            var failure: String?
        }
        let seen = Lock(Seen())
        let machine = SCXMLInterpreter(document: document) { trace in
            let (machine, restored) = seen.withLock { ($0.machine, $0.restored) }
            guard let machine else { return }
            guard !restored else {
                seen.withLock { $0.tracesAfterRestore.append(trace) }
                return
            }
            guard machine.activeAtomicStates == ["b"] else { return }
            do {
                // Queued behind this step, on the chart about to be replaced.
                try machine.send("x")
                try machine.restore(atStart)
            } catch {
                seen.withLock { $0.failure = "\(error)" }
            }
            seen.withLock { $0.restored = true }
        }
        seen.withLock { $0.machine = machine }
        defer { seen.withLock { $0.machine = nil } }
        try machine.start()

        // The replaced chart processes "x" on this thread once the observer returns.
        try machine.send("next")

        let after = seen.withLock { $0 }
        #expect(after.failure == nil)
        #expect(after.restored)
        #expect(after.tracesAfterRestore.isEmpty, "the replaced chart's step was reported: \(after.tracesAfterRestore)")
        #expect(machine.trace.isEmpty)
        #expect(try machine.variables()["count"] == .number(0))
        #expect(machine.activeAtomicStates == ["a"])
        try machine.send("next")
        #expect(machine.trace == ["event:next", "exit:a", "enter:b"])
        try machine.send("x")
        #expect(try machine.variables()["count"] == .number(100))
    }
}
