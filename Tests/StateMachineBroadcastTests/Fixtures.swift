import Foundation
import StateMachineCore
import Testing

// MARK: The seed's loading feature

struct FeatureState: Equatable, Sendable {
    let isLoaded: Bool
}

enum FeatureEvent {}

struct DataIsIdle: State, Equatable {
    var superState: FeatureState { FeatureState(isLoaded: false) }
}

struct DataIsLoading: State, Equatable {
    let id: String
    var superState: FeatureState { FeatureState(isLoaded: false) }
}

struct DataIsLoaded: State, Equatable {
    let data: String
    var superState: FeatureState { FeatureState(isLoaded: true) }
}

struct DidRequestLoading: Event {
    typealias SuperEvent = FeatureEvent
    let id: String
}
struct DidSucceedToLoad: Event {
    typealias SuperEvent = FeatureEvent
    let data: String
}

/// Idle -> Loading -> Loaded; the load output is `load`.
func loadingMachine(
    load: @escaping @Sendable (String) async -> (any Event<FeatureEvent>)? = { id in
        DidSucceedToLoad(data: "data \(id)")
    }
) -> AsyncStateMachine<FeatureState, FeatureEvent> {
    AsyncStateMachine<FeatureState, FeatureEvent>(initial: DataIsIdle()) {
        When(states: DataIsIdle.self, DataIsLoaded.self) {
            On(event: DidRequestLoading.self) { _, event in
                Transition(state: DataIsLoading(id: event.id))
                Output(sideEffect: { await load(event.id) })
            }
        }
        When(state: DataIsLoading.self) {
            On(event: DidSucceedToLoad.self) { _, event in
                Transition(state: DataIsLoaded(data: event.data))
            }
        }
    }
    .disableLog()
}

// MARK: Helpers

/// Runs `body`, failing the test (and returning nil) when it takes longer than `seconds`.
/// This is a bound on a wait for a fact, not a sleep: a passing test never waits for it.
func within<T: Sendable>(
    seconds: Double = 10,
    _ what: String = "operation",
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable () async -> T
) async -> T? {
    await withTaskGroup(of: T?.self) { group in
        group.addTask { await body() }
        group.addTask {
            try? await Task.sleep(for: .seconds(seconds))
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        if first == nil {
            Issue.record("\(what) did not complete within \(seconds) s", sourceLocation: sourceLocation)
        }
        return first
    }
}
