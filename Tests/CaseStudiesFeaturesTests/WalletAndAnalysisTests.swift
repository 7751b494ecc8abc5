import StateMachineCore
import StateMachineTest
import Testing

@testable import CaseStudiesFeatures

@Suite("Wallet", .timeLimit(.minutes(1)))
struct WalletTests {
    @Test("the wallet keeps whole cents: 0.10 + 0.20 is exactly 0.30, and states and events print dollars and cents")
    func cents() async {
        let machine = AsyncStateMachine(stateMachine: makeWalletStateMachine()).disableLog()
        await machine.sendAndWait(event: DidRequestToAddCredits(credits: 0.1))
        await machine.sendAndWait(event: DidRequestToAddCredits(credits: 0.2))
        let state = machine.lastKnownState as? WalletState
        #expect(state == WalletState(cents: 30))
        #expect(state?.description == "WalletState (credits: 0.30)")
        #expect(WalletState(credits: 1057.5).description == "WalletState (credits: 1057.50)")
        #expect(WalletState(cents: -5).description == "WalletState (credits: -0.05)")
        #expect(DidRequestToRemoveCredits(credits: 2.5).description == "DidRequestToRemoveCredits(credits: 2.50)")
        #expect(DidRequestToAddCredits(cents: 7).credits == 0.07)
        await machine.finishAndWait()
    }

    @Test("0 -> +10 -> 10 -> -2 -> 8; removing more than there is does nothing")
    func credits() async {
        let machine = AsyncStateMachine(stateMachine: makeWalletStateMachine()).disableLog()
        await expect(asyncStateMachine: machine) { assertions in
            await assertions.assert(state: WalletState(credits: 0))
            assertions.send(DidRequestToAddCredits(credits: 10))
            await assertions.assert(state: WalletState(credits: 10))
            assertions.send(DidRequestToRemoveCredits(credits: 2))
            await assertions.assert(state: WalletState(credits: 8))
            assertions.send(DidRequestToRemoveCredits(credits: 20))
            await assertions.assertNoTransition(timeout: .milliseconds(50))
        }
        await expectNoTransition(
            asyncStateMachine: machine,
            when: WalletState(credits: 8),
            on: DidRequestToRemoveCredits(credits: 20)
        )
        await expectTransition(
            asyncStateMachine: machine,
            when: WalletState(credits: 8),
            on: DidRequestToRemoveCredits(credits: 8),
            transitionsTo: WalletState(credits: 0)
        )
    }
}

extension WalletTests {
    @Test("a wallet made with an initial state starts there (the app's --state), and the default is empty")
    func initialState() async {
        #expect(makeWalletStateMachine().initial as? WalletState == WalletState(cents: 0))
        let machine = AsyncStateMachine(stateMachine: makeWalletStateMachine(initial: WalletState(cents: 4250)))
            .disableLog()
        await expect(asyncStateMachine: machine) { assertions in
            await assertions.assert(state: WalletState(cents: 4250))
            assertions.send(DidRequestToRemoveCredits(cents: 250))
            await assertions.assert(state: WalletState(cents: 4000))
        }
    }
}

@Suite("Analysis", .timeLimit(.minutes(1)))
struct AnalysisTests {
    @Test("idle -> in progress -> done -> reset -> idle")
    func flow() async {
        let machine = AsyncStateMachine(stateMachine: makeAnalysisStateMachine {}).disableLog()
        await expect(asyncStateMachine: machine) { assertions in
            await assertions.assert(state: AnalysisIsIdle())
            assertions.send(DidRequestAnalysis(identifier: 1701))
            await assertions.assert(state: AnalysisIsInProgress(identifier: 1701))
            await assertions.assert(state: AnalysisIsDone(identifier: 1701))
            assertions.send(DidRequestAnalysisReset())
            await assertions.assert(state: AnalysisIsIdle())
        }
    }

    @Test("a reset does not cancel the running analysis: its completion finishes a new one")
    func noCancellation() async {
        let release = AsyncStream<Void>.makeStream()
        let machine = AsyncStateMachine(
            stateMachine: makeAnalysisStateMachine {
                var iterator = release.stream.makeAsyncIterator()
                _ = await iterator.next()
            }
        ).disableLog()
        await expect(asyncStateMachine: machine) { assertions in
            await assertions.assert(state: AnalysisIsIdle())
            assertions.send(DidRequestAnalysis(identifier: 1))
            await assertions.assert(state: AnalysisIsInProgress(identifier: 1))
            assertions.send(DidRequestAnalysisReset())
            await assertions.assert(state: AnalysisIsIdle())
            assertions.send(DidRequestAnalysis(identifier: 2))
            await assertions.assert(state: AnalysisIsInProgress(identifier: 2))
            release.continuation.yield()  // the first analysis completes
            await assertions.assert(state: AnalysisIsDone(identifier: 2))
            release.continuation.finish()
        }
    }

    @Test("messages and flags")
    func superStates() {
        #expect(
            AnalysisIsIdle().superState
                == AnalysisState(
                    message: "Ready to start a new analysis",
                    canMakeNewAnalysis: true,
                    canResetAnalysis: false
                )
        )
        #expect(
            AnalysisIsInProgress(identifier: 3).superState
                == AnalysisState(
                    message: "Analysis in progress (id = 3)",
                    canMakeNewAnalysis: false,
                    canResetAnalysis: true,
                    isInProgress: true
                )
        )
        #expect(
            AnalysisIsDone(identifier: 3).superState
                == AnalysisState(
                    message: "Analysis is finished (id = 3)",
                    canMakeNewAnalysis: false,
                    canResetAnalysis: true
                )
        )
    }
}
