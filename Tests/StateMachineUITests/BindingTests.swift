import TestSupport
import Testing

@testable import StateMachineCore
@testable import StateMachineUI

@Suite("UIStateMachine bindings", .timeLimit(.minutes(1)))
@MainActor
struct BindingTests {
    @Test("binding(keyPath, send: event) reads the state and sends that event whatever is written")
    func fixedEvent() async {
        let machine = counterMachine()
        let ui = UIStateMachine(asyncStateMachine: machine)
        ui.start()
        let value = ui.binding(\.value, send: DidRequestIncrease())
        #expect(value.wrappedValue == 0)
        value.wrappedValue = 100
        value.wrappedValue = 0
        // A write never assigns the state itself: only the machine does.
        #expect(ui.state.value == 0)
        await ui.sendAndWait(DidRequestIncrease())
        #expect(machine.lastKnownState as? Count == Count(value: 3))
        await waitUntil(ui) { $0.value == 3 }
        #expect(value.wrappedValue == 3)
    }

    @Test("binding(keyPath, send: closure) sends the event made from the value; nil sends nothing")
    func eventFromValue() async {
        let machine = counterMachine()
        let ui = UIStateMachine(asyncStateMachine: machine)
        let value = ui.binding(\.value) { $0 >= 0 ? DidSetValue(value: $0) : nil }
        value.wrappedValue = 5
        value.wrappedValue = -1
        await ui.sendAndWait(DidRequestIncrease())
        // 5, then nothing for -1, then + 1 (a sent -1 would have given 0).
        #expect(machine.lastKnownState as? Count == Count(value: 6))
    }

    @Test("binding(get:send:) derives any value")
    func getSend() async {
        let machine = counterMachine(initial: 7)
        let ui = UIStateMachine(asyncStateMachine: machine)
        ui.start()
        let text = ui.binding(get: { "\($0.value)" }, send: { Int($0).map { DidSetValue(value: $0) } })
        #expect(text.wrappedValue == "7")
        text.wrappedValue = "not a number"
        text.wrappedValue = "12"
        await ui.sendAndWait(DidRequestIncrease())
        await waitUntil(ui) { $0.value == 13 }
        #expect(text.wrappedValue == "13")
    }

    @Test("a read-only binding ignores writes")
    func readOnly() async {
        let machine = counterMachine(initial: 2)
        let ui = UIStateMachine(asyncStateMachine: machine)
        let isEven = ui.binding(\.isEven)
        #expect(isEven.wrappedValue)
        isEven.wrappedValue = false
        #expect(isEven.wrappedValue)
        await ui.sendAndWait(DidRequestIncrease())
        #expect(machine.lastKnownState as? Count == Count(value: 3))
    }

    @Test("a constant binding and a custom get/set pair")
    func plainBindings() {
        let constant = UIBinding.constant(4)
        constant.wrappedValue = 5
        #expect(constant.wrappedValue == 4)
        let box = Box()
        let binding = UIBinding(get: { box.value }, set: { box.value = $0 * 2 })
        binding.wrappedValue = 21
        #expect(binding.wrappedValue == 42)
    }

    @MainActor final class Box { var value = 0 }
}
