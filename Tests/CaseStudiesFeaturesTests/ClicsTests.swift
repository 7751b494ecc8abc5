import StateMachineCore
import StateMachineTest
import TestSupport
import Testing

@testable import CaseStudiesFeatures

struct LoadFailed: Error {}

@Suite("Clics", .timeLimit(.minutes(1)))
struct ClicsTests {
    @Test("a failing load stays loading, and a second request emits loading again", arguments: [true, false])
    func failingLoad(cancelling: Bool) async {
        let machine = AsyncStateMachine(
            stateMachine: makeClicsStateMachine(cancelling: cancelling) { throw LoadFailed() }
        )
        .disableLog()
        await expect(asyncStateMachine: machine) { assertions in
            await assertions.assert(state: ClicsIsIdle())
            await assertions.sendAndWait(DidRequestClicsLoading())
            await assertions.assert(state: ClicsIsLoading())
            await assertions.sendAndWait(DidRequestClicsLoading())
            await assertions.assert(state: ClicsIsLoading())
            await assertions.assertNoTransition(timeout: .milliseconds(50))
        }
    }

    @Test("idle -> loading -> loaded(1); a new load -> loaded(2); reset -> idle", arguments: [true, false])
    func loadsCount(cancelling: Bool) async {
        let machine = AsyncStateMachine(stateMachine: makeClicsStateMachine(cancelling: cancelling) {}).disableLog()
        await expect(asyncStateMachine: machine) { assertions in
            await assertions.assert(state: ClicsIsIdle())
            assertions.send(DidRequestClicsLoading())
            await assertions.assert(state: ClicsIsLoading())
            await assertions.assert(state: ClicsIsLoaded(numberOfLoads: 1))
            assertions.send(DidRequestClicsLoading())  // output only: no state change until it completes
            await assertions.assert(state: ClicsIsLoaded(numberOfLoads: 2))
            assertions.send(DidRequestClicsReset())
            await assertions.assert(state: ClicsIsIdle())
        }
    }

    @Test("three loads in a row count once when cancelling, three times when continuing")
    func cancelVersusContinue() async {
        for cancelling in [true, false] {
            let gate = Gate()
            let machine = AsyncStateMachine(
                stateMachine: makeClicsStateMachine(cancelling: cancelling) {
                    await gate.wait()
                    try Task.checkCancellation()
                }
            ).disableLog()
            await expect(asyncStateMachine: machine) { assertions in
                await assertions.assert(state: ClicsIsIdle())
                for _ in 0..<3 {
                    assertions.send(DidRequestClicsLoading())
                    await assertions.assert(state: ClicsIsLoading())
                }
                await gate.open()
                if cancelling {
                    await assertions.assert(state: ClicsIsLoaded(numberOfLoads: 1))
                    await assertions.assertNoTransition()
                } else {
                    for count in 1...3 { await assertions.assert(state: ClicsIsLoaded(numberOfLoads: count)) }
                }
            }
        }
    }

    @Test("the view flags of each state")
    func superStates() {
        #expect(
            ClicsIsIdle().superState == ClicsState(numberOfLoads: 0, isLoading: false, canLoad: true, canReset: false)
        )
        #expect(
            ClicsIsLoading().superState == ClicsState(numberOfLoads: 0, isLoading: true, canLoad: true, canReset: false)
        )
        #expect(
            ClicsIsLoaded(numberOfLoads: 4).superState
                == ClicsState(numberOfLoads: 4, isLoading: false, canLoad: false, canReset: true)
        )
    }
}
