// swift-format-ignore-file
// The examples of the core and its companions in the DocC articles, verbatim: ReadmeTests
// (in the main package) checks that every swift block of those documents appears in a
// compiled file, and these are compiled with this client package by `scripts/test`. (The
// README's examples are whole files of a client package of their own: scripts/readme-client.)
// Each function gives a block the values it assumes (a `load`, an `api`, machines); the
// functions are compiled, not called (the examples observe machines without end or replace
// process-wide settings), except `FeatureTests`, which XCTest runs, and
// `readmeRunningTheFeature`, which `LoadingFeatureTests` runs. Edit the documents and this
// file together.
import Foundation
import LoadingFeature
import StateMachineBroadcast
import StateMachineCore
import StateMachineDump
import StateMachineTest
import StateMachineUI
import XCTest

/// The backend the README's examples call (`api.load`).
struct ReadmeAPI: Sendable {
    let load: Load
}

/// "The loading feature, end to end": running it (it ends once the load ended).
func readmeRunningTheFeature() async {
    let api = ReadmeAPI(load: { id in Data(id.utf8) })
    let machine = AsyncStateMachine(stateMachine: makeStateMachine(load: api.load))
    machine.send(event: DidRequestLoading(id: "42"))
    // A machine has one observer (a second `for await` ends at once); `share(replayCount:)` gives more.
    for await state in machine {
        print(state.superState)
        if state is DataIsLoaded || state is DataIsInFailure { break }
    }
    await machine.finishAndWait()
}

/// A second feature, for the Mediator example.
enum Feature2Event {}

/// The second feature's super state.
struct Feature2State: Equatable {}

/// The second feature's only state.
struct DataIsIdle2: State {
    var superState: Feature2State { Feature2State() }
}

/// The second feature's only event.
struct DidRequestLoading2: Event {
    typealias SuperEvent = Feature2Event
}

/// "Connecting machines": a mediator.
func readmeMediator() {
    let machine1 = makeAsyncStateMachine(load: { id in Data(id.utf8) })
    let machine2 = AsyncStateMachine<Feature2State, Feature2Event>(initial: DataIsIdle2()) {
        When(state: DataIsIdle2.self) {
            On(event: DidRequestLoading2.self) { _, _ in Transition(state: DataIsIdle2()) }
        }
    }
    let mediator = Mediator<FeatureEvent>()
    machine1.connectAsReceiver(to: mediator)
    machine2.connectAsSender(to: mediator, whenCurrentState: DataIsIdle2.self, on: DidRequestLoading2.self) { state, event in
        DidRequestLoading(id: "1")
    }
}

/// "Sharing a machine".
func readmeSharing() {
    let api = ReadmeAPI(load: { id in Data(id.utf8) })
    let factory = AsyncStateMachineFactory(lifecycle: .singleton) {
        AsyncStateMachine(stateMachine: makeStateMachine(load: api.load))
    }
    let machine = factory.makeAsyncStateMachine()
    _ = machine
}

/// The data the testing example loads.
let data = Data("1701".utf8)

/// The machine the testing example tests.
let machine = makeAsyncStateMachine(load: { _ in data })

final class FeatureTests: XCTestCase {
    func test_loading() async {
        await XCTAssert(asyncStateMachine: machine) { assertions in
            await assertions.assert(state: DataIsIdle())
            assertions.send(DidRequestLoading(id: "1701"))
            await assertions.assert(state: DataIsLoading(id: "1701"))
            await assertions.assert(state: DataIsLoaded(data: data))
            assertions.send(DidRequestReloading())
            await assertions.assertNoTransition()
        }
        await XCTAssertNoTransition(asyncStateMachine: machine, when: DataIsIdle(), on: DidRequestReloading())
        await XCTAssertTransition(asyncStateMachine: machine, when: DataIsIdle(), on: DidRequestLoading(id: "1"), transitionsTo: DataIsLoading(id: "1"))
    }
}

/// "Logging": a logger of one's own.
func readmeLogger() {
    StateMachine.setLogger { title, currentState, event, newState in
        print("[\(title)] \(currentState) + \(event) -> \(newState)")
    }
    // or, module-qualified: StateMachineCore.setLogger { ... }
}

/// "UIStateMachine".
@MainActor
func readmeUIStateMachine(load: @escaping Load) async {
    let asyncStateMachine = makeAsyncStateMachine(load: load)
    let uiStateMachine = UIStateMachine(asyncStateMachine: asyncStateMachine)

    uiStateMachine.start() // observes the machine; idempotent
    print(uiStateMachine.state.isLoaded)
    uiStateMachine.send(DidRequestLoading(id: "2"))
    await uiStateMachine.sendAndWait(DidRequestLoading(id: "3"))
}

/// "Instantiation strategy".
@MainActor
func readmeInstantiation(load: @escaping Load) {
    let asyncStateMachineFactory = AsyncStateMachineFactory(lifecycle: .singleton) {
      makeAsyncStateMachine(load: load)
    }

    let list = UIStateMachine(asyncStateMachineFactory: asyncStateMachineFactory)
    let detail = UIStateMachine(asyncStateMachineFactory: asyncStateMachineFactory)
    _ = (list, detail)
}

/// "UIState" and "StateMachineView".
@MainActor
func readmeUIStateBindingAndView(load: @escaping Load) {
    let asyncStateMachine = makeAsyncStateMachine(load: load)
    let asyncStateMachineFactory = AsyncStateMachineFactory(lifecycle: .singleton) {
        makeAsyncStateMachine(load: load)
    }
    struct UIState: Equatable {
      let description: String
    }

    let toUIState: (FeatureState) -> UIState = { superState in
      UIState(description: "\(superState.isLoaded)")
    }

    let uiStateMachine = UIStateMachine(asyncStateMachine: asyncStateMachine, mapping: toUIState)
    // or
    let sharedUIStateMachine = UIStateMachine(asyncStateMachineFactory: asyncStateMachineFactory, mapping: toUIState)
    _ = (uiStateMachine, sharedUIStateMachine)
    @MainActor
    func makeFeatureView() -> StateMachineView<UIState, FeatureEvent> {
      let view = StateMachineView(factory: asyncStateMachineFactory, mapping: toUIState) { state in
        ["Feature", "loaded: \(state.description)"]
      }
      view.start() // writes the first frame now, then one per change
      return view  // keep it: releasing the view stops rendering
    }

    let view = makeFeatureView()
    view.uiStateMachine.send(DidRequestLoading(id: "42"))
}

/// "How to broadcast the states of several machines".
func readmeBroadcast(load: @escaping Load) {
    let broadcaster = makeStateContextBroadcaster()
    let asyncStateMachine = makeAsyncStateMachine(load: load).activateBroadcast()

    let monitor = Task {
      for await context in broadcaster.stream {
        print(context) // "[<id>] DataIsIdle + DidRequestLoading => DataIsLoading"
      }
    }

    asyncStateMachine.send(event: DidRequestLoading(id: "42"))
    // ...
    broadcaster.stop() // ends this subscriber's stream only
    _ = monitor
}

/// "How to dump the state machine's state".
func readmeDump(load: @escaping Load) {
    StateMachineDump.startCollecting() // enable the dump for every tracked state machine
    let asyncStateMachine = makeAsyncStateMachine(load: load)
      .activateDump() // will track: initial state, subsequent transitions, deinit

    StateMachineDump.dump { stateContexts in
      // here we can access all the states that are currently "alive"
      print("----------------- DUMP -----------------")
      for context in stateContexts {
        print(context) // "[FeatureState] DataIsLoading at 2026-11-29 12:00:00 +0000"
      }
      // we can export the data into a JSON file and store it for instance
      if let json = try? StateMachineDump.jsonData(of: stateContexts) {
        try? json.write(to: URL(fileURLWithPath: "dump.json"))
      }
    }

    StateMachineDump.stopCollecting() // disable the dump for every tracked state machine
    _ = asyncStateMachine
}

/// "How to derive a binding from the state machine".
@MainActor
func readmeBinding(load: @escaping Load) {
    let uiStateMachine = UIStateMachine(asyncStateMachine: makeAsyncStateMachine(load: load))
    let isLoaded = uiStateMachine.binding(\.isLoaded, send: DidRequestLoading(id: "4"))
    print(isLoaded.wrappedValue)   // reads state.isLoaded
    isLoaded.wrappedValue = true   // sends DidRequestLoading(id: "4"), whatever the value

    let loading = uiStateMachine.binding(\.isLoaded) { wantsLoading in
      wantsLoading ? DidRequestLoading(id: "5") : nil // nil sends nothing
    }
    let label = uiStateMachine.binding(get: { $0.isLoaded ? "loaded" : "idle" }, send: { _ in DidRequestReloading() })
    let readOnly = uiStateMachine.binding(\.isError) // writes are ignored
    _ = (loading, label, readOnly)
}
