import StateMachineCore
import StateMachineTest
import Testing

@testable import CaseStudiesFeatures

@Suite("Counter", .timeLimit(.minutes(1)))
struct CounterTests {
    @Test("units: decrease at 0 is ignored, increase and decrease move the value")
    func units() async {
        let machine = AsyncStateMachine(stateMachine: makeUnitsStateMachine()).disableLog()
        await expect(asyncStateMachine: machine) { assertions in
            await assertions.assert(state: ValueIsFixed(value: 0))
            assertions.send(DidRequestDecrease())
            await assertions.assertNoTransition(timeout: .milliseconds(50))
            assertions.send(DidRequestIncrease())
            await assertions.assert(state: ValueIsIncreasing(value: 1))
            assertions.send(DidRequestIncrease())
            await assertions.assert(state: ValueIsIncreasing(value: 2))
            assertions.send(DidRequestDecrease())
            await assertions.assert(state: ValueIsDecreasing(value: 1))
            assertions.send(DidRequestDecrease())
            await assertions.assert(state: ValueIsDecreasing(value: 0))
            assertions.send(DidRequestDecrease())
            await assertions.assertNoTransition(timeout: .milliseconds(50))
        }
    }

    @Test("units and tens made with initial states start there (the app's --state); the defaults are 0")
    func initialStates() async {
        #expect(makeUnitsStateMachine().initial as? ValueIsFixed == ValueIsFixed(value: 0))
        #expect(makeTensStateMachine().initial as? TensState == TensState(value: 0))
        let units = AsyncStateMachine(stateMachine: makeUnitsStateMachine(initial: ValueIsFixed(value: 19)))
            .disableLog()
        await expect(asyncStateMachine: units) { assertions in
            await assertions.assert(state: ValueIsFixed(value: 19))
            assertions.send(DidRequestIncrease())
            await assertions.assert(state: ValueIsIncreasing(value: 20))
        }
        let tens = AsyncStateMachine(stateMachine: makeTensStateMachine(initial: TensState(value: 1))).disableLog()
        await expect(asyncStateMachine: tens) { assertions in
            await assertions.assert(state: TensState(value: 1))
            assertions.send(TensEvent(value: 2))
            await assertions.assert(state: TensState(value: 2))
        }
    }

    @Test("tens takes each event's value")
    func tens() async {
        let machine = AsyncStateMachine(stateMachine: makeTensStateMachine()).disableLog()
        await expectTransition(
            asyncStateMachine: machine,
            when: TensState(value: 5),
            on: TensEvent(value: 10),
            transitionsTo: TensState(value: 10)
        )
    }

    @Test("the mediator keeps tens in step with units: 12 increases give tens 1")
    func mediator() async {
        let units = AsyncStateMachine(stateMachine: makeUnitsStateMachine()).disableLog()
        let tens = AsyncStateMachine(stateMachine: makeTensStateMachine()).disableLog()
        let mediator = Mediator<TensEvent>()
        connectCounter(units: units, tens: tens, through: mediator)
        for _ in 0..<12 { units.send(event: DidRequestIncrease()) }
        await expect(asyncStateMachine: tens) { assertions in
            await assertions.assert(state: TensState(value: 0))
            for _ in 1...9 { await assertions.assert(state: TensState(value: 0)) }
            for _ in 10...12 { await assertions.assert(state: TensState(value: 1)) }
        }
        await units.finishAndWait()
    }

    @Test("super states and colours")
    func superStates() {
        #expect(
            ValueIsFixed(value: 0).superState
                == UnitsState(value: 0, canDecrease: false, isIncreasing: false, isDecreasing: false)
        )
        #expect(ValueIsFixed(value: 3).superState.canDecrease)
        #expect(ValueIsIncreasing(value: 0).superState.canDecrease)
        #expect(!ValueIsDecreasing(value: 0).superState.canDecrease)
        #expect(
            ValueIsDecreasing(value: 2).superState
                == UnitsState(value: 2, canDecrease: true, isIncreasing: false, isDecreasing: true)
        )
        #expect(makeUnitsUIState(ValueIsIncreasing(value: 1).superState).color == .green)
        #expect(makeUnitsUIState(ValueIsDecreasing(value: 1).superState).color == .red)
        #expect(makeUnitsUIState(ValueIsFixed(value: 1).superState).color == .accent)
        #expect("\(ValueIsIncreasing(value: 3))" == "ValueIsIncreasing (value: 3)")
    }
}
