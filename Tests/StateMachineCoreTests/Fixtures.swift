import Foundation
import Synchronization
import TestSupport
import Testing

@testable import StateMachineCore

// MARK: The seed's loading feature

struct FeatureState: Equatable, Sendable {
    let isLoaded: Bool
    let isError: Bool
}

enum FeatureEvent {}

struct DataIsIdle: State, Equatable {
    var superState: FeatureState { FeatureState(isLoaded: false, isError: false) }
}

struct DataIsLoading: State, Equatable {
    let id: String
    var superState: FeatureState { FeatureState(isLoaded: false, isError: false) }
}

struct DataIsLoaded: State, Equatable {
    let data: String
    var superState: FeatureState { FeatureState(isLoaded: true, isError: false) }
}

struct DataIsInFailure: State {
    let id: String
    let error: any Error
    var superState: FeatureState { FeatureState(isLoaded: false, isError: true) }
}

struct DidRequestLoading: Event {
    typealias SuperEvent = FeatureEvent
    let id: String
}
struct DidRequestReloading: Event { typealias SuperEvent = FeatureEvent }
struct DidSucceedToLoad: Event {
    typealias SuperEvent = FeatureEvent
    let data: String
}
struct DidFailToLoad: Event {
    typealias SuperEvent = FeatureEvent
    let error: any Error
}
struct DidTick: Event { typealias SuperEvent = FeatureEvent }

struct LoadingFailed: Error, Equatable {}

// MARK: A counter, for ordering tests

struct CounterState: Equatable, Sendable { let value: Int }
enum CounterEvent {}

struct Count: State, Equatable {
    let value: Int
    var superState: CounterState { CounterState(value: value) }
}

struct Increment: Event {
    typealias SuperEvent = CounterEvent
    let sender: Int
    let sequence: Int
}

// MARK: Helpers

/// A counter that counts every `Increment`, its log off.
func countingMachine() -> AsyncStateMachine<CounterState, CounterEvent> {
    AsyncStateMachine<CounterState, CounterEvent>(initial: Count(value: 0)) {
        When(state: Count.self) {
            On(event: Increment.self) { state, _ in Transition(state: Count(value: state.value + 1)) }
        }
    }.disableLog()
}

/// Consumes `count` states from `machine`.
func take<SuperState, SuperEvent>(
    _ count: Int,
    from machine: AsyncStateMachine<SuperState, SuperEvent>
) async -> [any State<SuperState>] {
    var states: [any State<SuperState>] = []
    for await state in machine {
        states.append(state)
        if states.count == count { break }
    }
    return states
}

/// An async signal a test can raise once and await, for side effects the test controls.
final class Signal: Sendable {
    let latch = Latch()
    func raise() { latch.open() }
    func wait() async { await latch.wait() }
    /// Waits for the signal even when the calling task is cancelled.
    func waitIgnoringCancellation() async {
        let latch = self.latch
        await Task { await latch.wait() }.value
    }
    var isRaised: Bool { latch.isOpen }
}

func loadingMachine(
    load: @escaping @Sendable (String) async -> (any Event<FeatureEvent>)? = { _ in DidSucceedToLoad(data: "data") }
) -> StateMachine<FeatureState, FeatureEvent> {
    StateMachine<FeatureState, FeatureEvent>(initial: DataIsIdle()) {
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
            On(event: DidFailToLoad.self) { state, event in
                Transition(state: DataIsInFailure(id: state.id, error: event.error))
            }
        }
        When(state: DataIsInFailure.self) {
            On(event: DidRequestReloading.self) { state, _ in
                Transition(state: DataIsLoading(id: state.id))
                Output(priority: .high, sideEffect: { await load(state.id) })
            }
        }
    }
}

extension Array where Element == any State<FeatureState> {
    /// The states' descriptions, for readable expectations.
    var names: [String] { map { String(describing: type(of: $0)) } }
}

/// Every diagnostic reported in this test process, from the moment a test first asked for
/// it: tests filter it by what identifies their own machine (the handler is global, and
/// swapping it per test would race with the tests running alongside).
let diagnostics: Recorder<String> = {
    let recorder = Recorder<String>()
    Diagnostics.handler.withLock {
        $0 = Diagnostics.Handler { message in
            recorder.append(message)
            diagnosticStackAddresses.append((message, stackAddress()))
        }
    }
    return recorder
}()

/// For every diagnostic in ``diagnostics``, where on its thread's stack the handler ran: a
/// probe of how deep the call through the kept handler goes.
let diagnosticStackAddresses = Recorder<(message: String, address: Int)>()

/// The address of a local in a frame of its own, one call below the caller.
@inline(never)
func stackAddress() -> Int {
    var marker = 0
    return withUnsafeMutablePointer(to: &marker) { Int(bitPattern: $0) }
}
