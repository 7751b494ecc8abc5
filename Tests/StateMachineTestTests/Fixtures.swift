import StateMachineCore
import StateMachineSupport

struct FeatureState: Equatable, Sendable { let isLoaded: Bool }
enum FeatureEvent {}

struct DataIsIdle: State, Equatable { var superState: FeatureState { FeatureState(isLoaded: false) } }
struct DataIsLoading: State, Equatable { var superState: FeatureState { FeatureState(isLoaded: false) } }
struct DataIsLoaded: State, Equatable {
    let value: Int
    var superState: FeatureState { FeatureState(isLoaded: true) }
}

struct DidRequestLoading: Event {
    typealias SuperEvent = FeatureEvent
    let id: Int
}
struct DidRequestReloading: Event {
    typealias SuperEvent = FeatureEvent
    let id: Int
}
struct DidSucceedToLoad: Event {
    typealias SuperEvent = FeatureEvent
    let value: Int
}

let expectedState1 = DataIsIdle()
let expectedState2 = DataIsLoading()
let expectedState3 = DataIsLoaded(value: 1701)

/// The seed README's "How to test" machine.
func makeMachine() -> AsyncStateMachine<FeatureState, FeatureEvent> {
    AsyncStateMachine<FeatureState, FeatureEvent>(initial: expectedState1) {
        When(state: DataIsIdle.self) {
            On(event: DidRequestLoading.self) { _, _ in
                Transition { expectedState2 }
                Output { DidSucceedToLoad(value: 1701) }
            }
        }

        When(state: DataIsLoading.self) {
            On(event: DidSucceedToLoad.self) { _, _ in
                Transition(state: expectedState3)
            }
        }

        When(state: DataIsLoaded.self) {
            On(event: DidRequestReloading.self) { _, _ in
                Transition(state: expectedState2)
                Output { DidSucceedToLoad(value: 1701) }
            }
        }
    }.disableLog()
}

/// Collects the failures an assertion reports instead of failing the test.
final class FailureSpy: Sendable {
    private let failures = Lock<[(message: String, line: UInt)]>([])

    var fail: @Sendable (String, StaticString, UInt) -> Void {
        { message, _, line in self.failures.withLock { $0.append((message, line)) } }
    }

    var messages: [String] { failures.withLock { $0.map(\.message) } }
    var lines: [UInt] { failures.withLock { $0.map(\.line) } }
}
