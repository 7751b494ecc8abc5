import Foundation
import LoadingFeature
import Observation
import StateMachineCore
import StateMachineUI
import Testing

/// The examples of StateMachineUI's article "Running a machine in a UI" (and the README),
/// compiled and run.
@Suite("README: StateMachineUI")
@MainActor
struct UIReadmeTests {
    let load: Load = { _ in Data("42".utf8) }

    /// Waits until `condition` holds for `ui.state`, woken by Observation.
    func waitUntil<UIState, SuperEvent>(
        _ ui: UIStateMachine<UIState, SuperEvent>,
        _ condition: (UIState) -> Bool
    ) async {
        while !condition(ui.state) {
            await withCheckedContinuation { continuation in
                withObservationTracking {
                    _ = ui.state
                } onChange: {
                    continuation.resume()
                }
            }
        }
    }

    @Test("UIStateMachine", .timeLimit(.minutes(1)))
    func uiStateMachine() async {
        let asyncStateMachine = makeAsyncStateMachine(load: load).disableLog()
        let uiStateMachine = UIStateMachine(asyncStateMachine: asyncStateMachine)

        uiStateMachine.start()  // observes the machine; idempotent
        #expect(uiStateMachine.state.isLoaded == false)
        await uiStateMachine.sendAndWait(DidRequestLoading(id: "1"))  // waits for the load
        await waitUntil(uiStateMachine) { $0.isLoaded }

        // The article's two requests in a row race: a request the loading state does not
        // handle still cancels the pending load (its output's policy is
        // `Cancel(on: DidRequestLoading.self)`), so the machine ends loaded or still
        // loading, depending on which came first. Whichever it is, the UI shows it.
        uiStateMachine.send(DidRequestLoading(id: "2"))
        await uiStateMachine.sendAndWait(DidRequestLoading(id: "3"))
        // Bounded by the test's time limit: the UI catches up with the machine. Whether it is
        // still caught up a moment later depends on whether the last load's output has
        // moved the machine since, so that is not asserted (it failed once on a busy host).
        await uiStateMachine.waitUntilCaughtUp()
    }

    @Test("instantiation strategy, UIState mapping and bindings", .timeLimit(.minutes(1)))
    func sharedMappedAndBound() async {
        let load = self.load
        let asyncStateMachineFactory = AsyncStateMachineFactory(lifecycle: .singleton) {
            makeAsyncStateMachine(load: load).disableLog()
        }

        let list = UIStateMachine(asyncStateMachineFactory: asyncStateMachineFactory)
        let detail = UIStateMachine(asyncStateMachineFactory: asyncStateMachineFactory)

        struct UIState: Equatable {
            let description: String
        }

        let toUIState: (FeatureState) -> UIState = { superState in
            UIState(description: "\(superState.isLoaded)")
        }

        let asyncStateMachine = makeAsyncStateMachine(load: load).disableLog()
        let uiStateMachine = UIStateMachine(asyncStateMachine: asyncStateMachine, mapping: toUIState)
        let sharedUIStateMachine = UIStateMachine(
            asyncStateMachineFactory: asyncStateMachineFactory,
            mapping: toUIState
        )
        #expect(uiStateMachine.state == UIState(description: "false"))

        list.start()
        detail.start()
        sharedUIStateMachine.start()
        let isLoaded = list.binding(\.isLoaded, send: DidRequestLoading(id: "4"))
        #expect(isLoaded.wrappedValue == false)  // reads state.isLoaded
        isLoaded.wrappedValue = true  // sends DidRequestLoading(id: "4"), whatever the value
        await waitUntil(detail) { $0.isLoaded }
        await waitUntil(sharedUIStateMachine) { $0.description == "true" }
        await waitUntil(list) { $0.isLoaded }
        #expect(isLoaded.wrappedValue)

        let loading = list.binding(\.isLoaded) { wantsLoading in
            wantsLoading ? DidRequestLoading(id: "5") : nil  // nil sends nothing
        }
        let label = list.binding(get: { $0.isLoaded ? "loaded" : "idle" }, send: { _ in DidRequestReloading() })
        let readOnly = list.binding(\.isError)  // writes are ignored
        loading.wrappedValue = false
        readOnly.wrappedValue = true
        #expect(label.wrappedValue == "loaded")
        #expect(readOnly.wrappedValue == false)
    }

    @Test("StateMachineView", .timeLimit(.minutes(1)))
    func stateMachineView() async {
        let load = self.load
        let asyncStateMachineFactory = AsyncStateMachineFactory(lifecycle: .singleton) {
            makeAsyncStateMachine(load: load).disableLog()
        }
        struct UIState: Equatable {
            let description: String
        }
        let toUIState: (FeatureState) -> UIState = { UIState(description: "\($0.isLoaded)") }
        let output = CapturedOutput()

        func makeFeatureView() -> StateMachineView<UIState, FeatureEvent> {
            let view = StateMachineView(factory: asyncStateMachineFactory, mapping: toUIState, output: output) {
                state in
                ["Feature", "loaded: \(state.description)"]
            }
            view.start()  // writes the first frame now, then one per change
            return view  // keep it: releasing the view stops rendering
        }

        let view = makeFeatureView()
        view.uiStateMachine.send(DidRequestLoading(id: "42"))

        await waitUntil(view.uiStateMachine) { $0.description == "true" }
        while output.frames.last?.lines != ["Feature", "loaded: true"] {
            await withCheckedContinuation { output.onWrite = $0.resume }
        }
        #expect(output.frames.first?.lines == ["Feature", "loaded: false"])
    }

    @MainActor
    final class CapturedOutput: TerminalOutput {
        var frames: [TerminalFrame] = []
        var onWrite: (() -> Void)?
        func write(frame: TerminalFrame) {
            frames.append(frame)
            onWrite?()
            onWrite = nil
        }
    }
}
