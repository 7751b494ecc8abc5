import StateMachineHierarchy
import StateMachineSCXML
import StateMachineSupport
import Testing

// A session restored while its chart still has events queued: the replaced chart processes
// them, but its content must not run in the restored session's data model.

@Suite("Restoring an ECMAScript session from inside a step")
struct RestoreDuringStepTests {
    @Test("the events the replaced chart still processes run none of its content in the restored data")
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
            let machine = SCXMLInterpreter(document: document, recordsTrace: false)
            try machine.start()
            return try machine.snapshot()
        }()
        struct Seen {
            var machine: SCXMLInterpreter?
            var restored = false
            var failure: String?
        }
        let seen = Lock(Seen())
        let machine = SCXMLInterpreter(document: document, recordsTrace: false) { _ in
            guard let machine = seen.withLock({ $0.restored ? nil : $0.machine }),
                machine.activeAtomicStates == ["b"]
            else { return }
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

        #expect(seen.withLock { $0.failure } == nil)
        #expect(seen.withLock { $0.restored })
        #expect(try machine.variables()["count"] == .number(0))
        #expect(machine.activeAtomicStates == ["a"])
        try machine.send("next")
        try machine.send("x")
        #expect(try machine.variables()["count"] == .number(100))
    }
}
