import Foundation
import LoadingFeature
import StateMachineCore
import StateMachineTest
import Synchronization
import Testing
import XCTest

struct LoadFailed: Error {}

@Suite("LoadingFeature, as a client of the products")
struct LoadingFeatureTests {
    let payload = Data("42".utf8)

    @Test("loading succeeds: idle -> loading -> loaded")
    func loads() async {
        let payload = self.payload
        let machine = makeAsyncStateMachine { _ in payload }.disableLog()
        await expect(asyncStateMachine: machine) { assertions in
            await assertions.assert(state: DataIsIdle())
            assertions.send(DidRequestLoading(id: "42"))
            await assertions.assert(state: DataIsLoading(id: "42"))
            await assertions.assert(state: DataIsLoaded(data: payload))
        }
    }

    @Test("the articles' 'running it' example ends by itself", .timeLimit(.minutes(1)))
    func runningItEnds() async {
        await readmeRunningTheFeature()
    }

    @Test("a failing load is retried twice, then reported as a failure")
    func failureAfterRetries() async {
        let attempts = Attempts()
        let machine = makeAsyncStateMachine { _ in
            attempts.increment()
            throw LoadFailed()
        }.disableLog()
        await machine.sendAndWait(event: DidRequestLoading(id: "1"))
        #expect(attempts.count == 3)
        #expect(machine.lastKnownState is DataIsInFailure)
        await machine.finishAndWait()
    }

    @Test("the table, checked without running outputs")
    func table() async {
        let machine = makeAsyncStateMachine { _ in Data() }
        await expectTransition(
            asyncStateMachine: machine,
            when: DataIsIdle(),
            on: DidRequestLoading(id: "7"),
            transitionsTo: DataIsLoading(id: "7")
        )
        await expectNoTransition(asyncStateMachine: machine, when: DataIsIdle(), on: DidRequestReloading())
    }
}

final class Attempts: Sendable {
    private let value = Mutex(0)
    func increment() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}

final class LoadingFeatureXCTests: XCTestCase {
    func test_loadingFlow() async {
        let payload = Data("1701".utf8)
        await XCTAssert(asyncStateMachine: makeAsyncStateMachine { _ in payload }.disableLog()) { assertions in
            await assertions.assert(state: DataIsIdle())
            assertions.send(DidRequestLoading(id: "1701"))
            await assertions.assert(state: DataIsLoading(id: "1701"))
            await assertions.assert(state: DataIsLoaded(data: payload))
            assertions.send(DidRequestReloading())
            await assertions.assertNoTransition()
        }
        await XCTAssertNoTransition(
            asyncStateMachine: makeAsyncStateMachine { _ in payload },
            when: DataIsIdle(),
            on: DidRequestReloading()
        )
    }
}
