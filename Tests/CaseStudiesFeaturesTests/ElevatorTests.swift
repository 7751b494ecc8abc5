import StateMachineCore
import StateMachineTest
import Testing

@testable import CaseStudiesFeatures

@Suite("Elevator", .timeLimit(.minutes(1)))
struct ElevatorTests {
    func machine() -> AsyncStateMachine<ElevatorState, ElevatorEvent> {
        AsyncStateMachine(stateMachine: makeElevatorStateMachine()).disableLog()
    }

    @Test("people enter and leave, the elevator closes and opens")
    func basicFlow() async {
        await expect(asyncStateMachine: machine()) { assertions in
            await assertions.assert(state: ElevatorIsOpen(persons: 0))
            for persons in 1...3 {
                assertions.send(DidEnter())
                await assertions.assert(state: ElevatorIsOpen(persons: persons))
            }
            assertions.send(DidLeave())
            await assertions.assert(state: ElevatorIsOpen(persons: 2))
            assertions.send(DidRequestToClose())
            await assertions.assert(state: ElevatorIsClosed(persons: 2))
            assertions.send(DidEnter())  // refused while closed
            assertions.send(DidRequestToOpen())
            await assertions.assert(state: ElevatorIsOpen(persons: 2))
        }
    }

    @Test("nobody can leave an empty elevator")
    func emptyLeave() async {
        await expectNoTransition(asyncStateMachine: machine(), when: ElevatorIsOpen(persons: 0), on: DidLeave())
        await expectTransition(
            asyncStateMachine: machine(),
            when: ElevatorIsOpen(persons: 0),
            on: DidRequestToClose(),
            transitionsTo: ElevatorIsClosed(persons: 0)
        )
    }

    @Test("over capacity: warning, close refused, back to open at capacity")
    func warning() async {
        await expect(asyncStateMachine: machine()) { assertions in
            await assertions.assert(state: ElevatorIsOpen(persons: 0))
            for persons in 1...5 {
                assertions.send(DidEnter())
                await assertions.assert(state: ElevatorIsOpen(persons: persons))
            }
            assertions.send(DidEnter())
            await assertions.assert(state: ElevatorIsInWarning(persons: 6))
            assertions.send(DidEnter())
            await assertions.assert(state: ElevatorIsInWarning(persons: 7))
            assertions.send(DidRequestToClose())
            await assertions.assertNoTransition(timeout: .milliseconds(50))
            assertions.send(DidLeave())
            await assertions.assert(state: ElevatorIsInWarning(persons: 6))
            assertions.send(DidLeave())
            await assertions.assert(state: ElevatorIsOpen(persons: 5))
            assertions.send(DidRequestToClose())
            await assertions.assert(state: ElevatorIsClosed(persons: 5))
        }
        await expectNoTransition(
            asyncStateMachine: machine(),
            when: ElevatorIsInWarning(persons: 6),
            on: DidRequestToOpen()
        )
        await expectNoTransition(asyncStateMachine: machine(), when: ElevatorIsClosed(persons: 1), on: DidLeave())
        await expectNoTransition(
            asyncStateMachine: machine(),
            when: ElevatorIsClosed(persons: 1),
            on: DidRequestToClose()
        )
    }

    @Test("the flags and messages of each state")
    func superStates() {
        let open = ElevatorIsOpen(persons: 0).superState
        #expect(open.canAddPerson && !open.canRemovePerson && !open.canPressOpen && open.canPressClose)
        #expect(ElevatorIsOpen(persons: 1).superState.canRemovePerson)
        let closed = ElevatorIsClosed(persons: 2).superState
        #expect(!closed.canAddPerson && !closed.canRemovePerson && closed.canPressOpen && !closed.canPressClose)
        #expect(closed.message == "You can open the elevator")
        let warning = ElevatorIsInWarning(persons: 6).superState
        #expect(warning.canAddPerson && warning.canRemovePerson && !warning.canPressOpen && !warning.canPressClose)
        #expect(warning.message == "Too many people, some should leave")
        #expect(warning.numberOfPersons == "6")
    }
}
