import StateMachineCore
import StateMachineTest
import Testing

@Suite("Swift Testing assertions", .timeLimit(.minutes(1)))
struct SwiftTestingAssertionsTests {
    @Test("the seed example passes with expect(asyncStateMachine:)")
    func seedExample() async {
        await expect(asyncStateMachine: makeMachine()) { assertions in
            await assertions.assert(state: expectedState1)
            await assertions.sendAndWait(DidRequestLoading(id: 1701))
            await assertions.assert(state: expectedState2)
            await assertions.assert(state: expectedState3)
        }
        await expectTransition(
            asyncStateMachine: makeMachine(),
            when: DataIsIdle(),
            on: DidRequestLoading(id: 1),
            transitionsTo: DataIsLoading()
        )
        await expectNoTransition(
            asyncStateMachine: makeMachine(),
            when: DataIsLoaded(value: 1),
            on: DidRequestLoading(id: 1)
        )
    }

    @Test("a failing assertion is recorded as an issue at the assertion's line")
    func recordsIssueAtCallerLocation() async {
        let expectedLine = #line + 4
        await withKnownIssue {
            await expect(asyncStateMachine: makeMachine()) { assertions in
                // The next line is the one the issue must point at.
                await assertions.assert(state: expectedState3)
            }
        } matching: { issue in
            issue.sourceLocation?.line == expectedLine
                && issue.comments.contains {
                    $0.rawValue.contains(
                        "Expected state DataIsLoaded(value: 1701) before any event, but received DataIsIdle()"
                    )
                }
        }
    }

    @Test("a per-assertion failure function overrides the recorder and receives the line")
    func perAssertionSpy() async {
        let spy = FailureSpy()
        // The timeout bounds every assertion, the first one's wait for the initial state
        // too: 0.5 s was too short for it when the whole test plan runs under the thread
        // sanitizer on two cores (it failed there, and passed alone).
        await expect(asyncStateMachine: makeMachine(), timeout: .seconds(2)) { assertions in
            await assertions.assert(state: expectedState1)
            await assertions.assert(state: expectedState2, fail: spy.fail, line: 7)
            await assertions.assertNoTransition(timeout: .milliseconds(10), fail: spy.fail)
        }
        #expect(
            spy.messages == [
                "Expected state DataIsLoading() before any event, but no state arrived within 2.0 seconds."
            ]
        )
        #expect(spy.lines == [7])
    }

    @Test("shouldFinishAfterAssertions: false leaves the machine running and observable again")
    func keepRunning() async {
        let machine = makeMachine()
        await expect(asyncStateMachine: machine, shouldFinishAfterAssertions: false) { assertions in
            await assertions.assert(state: expectedState1)
        }
        await machine.sendAndWait(event: DidRequestLoading(id: 1))
        await expect(asyncStateMachine: machine) { assertions in
            await assertions.assert(state: expectedState2)
            await assertions.assert(state: expectedState3)
        }
    }
}
