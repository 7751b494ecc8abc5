import Foundation
import Observation
import StateMachineSupport
import TestSupport
import Testing

@testable import StateMachineCore
@testable import StateMachineUI

// MARK: The seed's loading feature; Idle and Loading have equal super states.

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

/// Idle -> Loading -> (Loading again on a new request) -> Loaded, with no outputs: the test
/// drives every step.
func loadingMachine() -> AsyncStateMachine<FeatureState, FeatureEvent> {
    AsyncStateMachine<FeatureState, FeatureEvent>(initial: DataIsIdle()) {
        When(states: DataIsIdle.self, DataIsLoading.self, DataIsLoaded.self) {
            On(event: DidRequestLoading.self) { _, event in
                Transition(state: DataIsLoading(id: event.id))
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

// MARK: A counter, for bindings

struct CounterState: Equatable, Sendable {
    let value: Int
    var isEven: Bool { value.isMultiple(of: 2) }
}

enum CounterEvent {}

struct Count: State, Equatable {
    let value: Int
    var superState: CounterState { CounterState(value: value) }
}

struct DidRequestIncrease: Event { typealias SuperEvent = CounterEvent }
struct DidSetValue: Event {
    typealias SuperEvent = CounterEvent
    let value: Int
}

func counterMachine(initial: Int = 0) -> AsyncStateMachine<CounterState, CounterEvent> {
    AsyncStateMachine<CounterState, CounterEvent>(initial: Count(value: initial)) {
        When(state: Count.self) {
            On(event: DidRequestIncrease.self) { state, _ in Transition(state: Count(value: state.value + 1)) }
            On(event: DidSetValue.self) { _, event in Transition(state: Count(value: event.value)) }
        }
    }
    .disableLog()
}

// MARK: Helpers

/// Waits (bounded) until `condition(ui.state)` holds, woken by Observation on each change.
@MainActor
@discardableResult
func waitUntil<UIState: Equatable, SuperEvent>(
    _ ui: UIStateMachine<UIState, SuperEvent>,
    _ what: String = "the UI state",
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: @escaping @MainActor (UIState) -> Bool
) async -> Bool {
    await within(what, sourceLocation: sourceLocation) { @MainActor in
        while !condition(ui.state) {
            if Task.isCancelled { return false }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                withObservationTracking {
                    _ = ui.state
                } onChange: {
                    continuation.resume()
                }
            }
        }
        return true
    } ?? false
}

/// Counts the assignments of `ui.state` (Observation notifies once per assignment).
@MainActor
final class ChangeCounter<UIState: Equatable, SuperEvent> {
    private let count = Lock(0)
    let ui: UIStateMachine<UIState, SuperEvent>

    init(_ ui: UIStateMachine<UIState, SuperEvent>) {
        self.ui = ui
        track()
    }

    var changes: Int { count.withLock { $0 } }

    private func track() {
        withObservationTracking {
            _ = ui.state
        } onChange: { [count, weak self] in
            count.withLock { $0 += 1 }
            // Observation calls onChange synchronously, on the main actor that assigns.
            MainActor.assumeIsolated { self?.track() }
        }
    }
}

/// A terminal that records frames; its `frames` stream ends when it is released.
@MainActor
final class FakeOutput: TerminalOutput {
    let written = Lock<[TerminalFrame]>([])
    let frames: AsyncStream<TerminalFrame>
    private let continuation: AsyncStream<TerminalFrame>.Continuation

    init() {
        (frames, continuation) = AsyncStream.makeStream()
    }

    deinit { continuation.finish() }

    func write(frame: TerminalFrame) {
        written.withLock { $0.append(frame) }
        continuation.yield(frame)
    }
}

/// The next `count` frames of `stream` (fewer if it ends), bounded.
func nextFrames(
    _ count: Int,
    of stream: AsyncStream<TerminalFrame>,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> [TerminalFrame] {
    await within("\(count) frames", sourceLocation: sourceLocation) {
        var frames: [TerminalFrame] = []
        for await frame in stream {
            frames.append(frame)
            if frames.count == count { break }
        }
        return frames
    } ?? []
}
