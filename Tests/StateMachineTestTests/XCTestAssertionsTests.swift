import StateMachineCore
import StateMachineTest
import XCTest

final class XCTestAssertionsTests: XCTestCase {
    func test_seedExample_passes() async {
        await XCTAssert(asyncStateMachine: makeMachine()) { assertions in
            await assertions.assert(state: expectedState1)

            assertions.send(DidRequestLoading(id: 1701))
            await assertions.assert(state: expectedState2)
            await assertions.assert(state: expectedState3)

            assertions.send(DidRequestReloading(id: 1701))
            await assertions.assert(state: expectedState2)
            await assertions.assert(state: expectedState3)

            assertions.send(event: DidRequestLoading(id: 1701))
            await assertions.assertNoTransition()
        }
    }

    func test_wrongState_reportsExpectedReceivedAndEvent() async {
        let spy = FailureSpy()
        await XCTAssert(asyncStateMachine: makeMachine(), fail: spy.fail) { assertions in
            await assertions.assert(state: expectedState1)
            assertions.send(DidRequestLoading(id: 1))
            await assertions.assert(state: expectedState3)
        }
        XCTAssertEqual(
            spy.messages,
            [
                "Expected state DataIsLoaded(value: 1701) after event DidRequestLoading(id: 1), but received DataIsLoading()."
            ]
        )
    }

    func test_missingState_reportsTimeout() async {
        let spy = FailureSpy()
        // The timeout bounds the first assertion too: long enough for a loaded machine.
        await XCTAssert(asyncStateMachine: makeMachine(), timeout: .seconds(2), fail: spy.fail) { assertions in
            await assertions.assert(state: expectedState1)
            await assertions.assert(state: expectedState2)
        }
        XCTAssertEqual(
            spy.messages,
            [
                "Expected state DataIsLoading() before any event, but no state arrived within 2.0 seconds."
            ]
        )
    }

    func test_unexpectedTransition_fails() async {
        let spy = FailureSpy()
        await XCTAssert(asyncStateMachine: makeMachine(), fail: spy.fail) { assertions in
            await assertions.assert(state: expectedState1)
            assertions.send(DidRequestLoading(id: 1))
            await assertions.assertNoTransition()
        }
        XCTAssertEqual(spy.messages.count, 1)
        XCTAssertEqual(
            spy.messages.first,
            "Expected no transition after event DidRequestLoading(id: 1), but received DataIsLoading()."
        )
    }

    func test_tableChecks() async {
        let spy = FailureSpy()
        let machine = makeMachine()
        await XCTAssertTransition(
            asyncStateMachine: machine,
            when: DataIsIdle(),
            on: DidRequestLoading(id: 1),
            transitionsTo: DataIsLoading()
        )
        await XCTAssertNoTransition(asyncStateMachine: machine, when: DataIsIdle(), on: DidRequestReloading(id: 1701))
        await XCTAssertTransition(
            asyncStateMachine: machine,
            when: DataIsIdle(),
            on: DidRequestLoading(id: 1),
            transitionsTo: DataIsLoaded(value: 1),
            fail: spy.fail
        )
        await XCTAssertTransition(
            asyncStateMachine: machine,
            when: DataIsIdle(),
            on: DidSucceedToLoad(value: 1),
            transitionsTo: DataIsLoaded(value: 1),
            fail: spy.fail
        )
        await XCTAssertNoTransition(
            asyncStateMachine: machine,
            when: DataIsLoading(),
            on: DidSucceedToLoad(value: 3),
            fail: spy.fail
        )
        XCTAssertEqual(
            spy.messages,
            [
                "Expected DataIsIdle() on DidRequestLoading(id: 1) to transition to DataIsLoaded(value: 1), but it transitions to DataIsLoading().",
                "Expected DataIsIdle() on DidSucceedToLoad(value: 1) to transition to DataIsLoaded(value: 1), but there is no transition.",
                "Expected no transition when DataIsLoading() on DidSucceedToLoad(value: 3), but it transitions to DataIsLoaded(value: 1701).",
            ]
        )
    }
}
