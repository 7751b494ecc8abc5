import Foundation
import LoadingFeature
import StateMachineBroadcast
import StateMachineCore
import Testing

/// The example of the README and of StateMachineBroadcast's article "Broadcasting the states
/// of several machines", compiled and run.
@Suite("README: StateMachineBroadcast", .timeLimit(.minutes(1)))
struct BroadcastReadmeTests {
    @Test("a subscriber sees the initial state and every transition")
    func readmeExample() async throws {
        let load: Load = { _ in Data("42".utf8) }
        let printed = PrintedLines()

        let broadcaster = makeStateContextBroadcaster()
        let asyncStateMachine = makeAsyncStateMachine(load: load).disableLog().activateBroadcast()

        let monitor = Task {
            for await context in broadcaster.stream where context.stateMachineId == asyncStateMachine.id {
                printed.print(context)  // "[<id>] DataIsIdle + DidRequestLoading => DataIsLoading"
                if context.newState is DataIsLoaded { break }
            }
        }

        asyncStateMachine.send(event: DidRequestLoading(id: "42"))
        await monitor.value
        broadcaster.stop()  // ends this subscriber's stream only

        #expect(
            printed.lines == [
                "[\(asyncStateMachine.id)] DataIsIdle",
                "[\(asyncStateMachine.id)] DataIsIdle + DidRequestLoading => DataIsLoading",
                "[\(asyncStateMachine.id)] DataIsLoading + DidSucceedToLoad => DataIsLoaded (2 bytes)",
            ]
        )
    }
}

/// What an example prints, kept for the test to check.
final class PrintedLines: Sendable {
    private let storage = Storage()
    func print(_ value: Any) { storage.append("\(value)") }
    var lines: [String] { storage.all }

    private final class Storage: @unchecked Sendable {
        // @unchecked Sendable: `values` is only touched under `lock`.
        private let lock = NSLock()
        private var values: [String] = []
        func append(_ value: String) { lock.withLock { values.append(value) } }
        var all: [String] { lock.withLock { values } }
    }
}
