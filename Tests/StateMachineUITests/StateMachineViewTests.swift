import StateMachineSupport
import TestSupport
import Testing

@testable import StateMachineCore
@testable import StateMachineUI

@Suite("StateMachineView", .timeLimit(.minutes(1)))
@MainActor
struct StateMachineViewTests {
    func render(_ state: CounterState) -> [String] { ["Counter", "value: \(state.value)"] }

    func frame(_ value: Int) -> TerminalFrame { TerminalFrame(lines: ["Counter", "value: \(value)"]) }

    /// A started UI machine at value 0 whose machine has nothing left to deliver, so that
    /// only the test changes its state (through the internal `apply`).
    func settledUIStateMachine() async -> UIStateMachine<CounterState, CounterEvent> {
        let ui = UIStateMachine(asyncStateMachine: counterMachine(initial: -1))
        ui.start()
        await ui.sendAndWait(DidSetValue(value: 0))
        await waitUntil(ui) { $0.value == 0 }
        return ui
    }

    @Test("start writes the first frame at once, then a frame per change of the machine")
    func rendersChanges() async {
        let output = FakeOutput()
        let view = StateMachineView(uiStateMachine: UIStateMachine(asyncStateMachine: counterMachine()), output: output)
        {
            self.render($0)
        }
        view.start()
        view.start()
        #expect(view.isRendering)
        #expect(output.written.withLock { $0 } == [frame(0)])
        await view.uiStateMachine.sendAndWait(DidSetValue(value: 1))
        #expect(await nextFrames(2, of: output.frames) == [frame(0), frame(1)])
        await view.uiStateMachine.sendAndWait(DidSetValue(value: 2))
        #expect(await nextFrames(1, of: output.frames) == [frame(2)])
    }

    @Test("a burst of changes is coalesced into one frame showing the latest state")
    func coalescing() async {
        let output = FakeOutput()
        let ui = await settledUIStateMachine()
        let view = StateMachineView(uiStateMachine: ui, output: output) { self.render($0) }
        view.start()
        // Three assignments without leaving the main actor: the render loop cannot run
        // in between, so they cost one frame.
        ui.apply(CounterState(value: 1))
        ui.apply(CounterState(value: 2))
        ui.apply(CounterState(value: 3))
        #expect(await nextFrames(2, of: output.frames) == [frame(0), frame(3)])
        ui.apply(CounterState(value: 4))
        #expect(await nextFrames(1, of: output.frames) == [frame(4)])
        #expect(output.written.withLock { $0 } == [frame(0), frame(3), frame(4)])
    }

    @Test("an unchanged frame is not written again")
    func equalFrames() async {
        let output = FakeOutput()
        let ui = await settledUIStateMachine()
        let (renders, rendered) = AsyncStream.makeStream(of: Int.self)
        let view = StateMachineView(uiStateMachine: ui, output: output) { state in
            rendered.yield(state.value)
            return [state.isEven ? "even" : "odd"]
        }
        view.start()
        ui.apply(CounterState(value: 2))
        // 2 is rendered, and gives "even" again: no frame is written for it.
        let renderedValues = await within("two renders") {
            var values: [Int] = []
            for await value in renders {
                values.append(value)
                if values.count == 2 { break }
            }
            return values
        }
        #expect(renderedValues == [0, 2])
        #expect(output.written.withLock { $0 } == [TerminalFrame(lines: ["even"])])
        ui.apply(CounterState(value: 3))
        #expect(
            await nextFrames(2, of: output.frames) == [TerminalFrame(lines: ["even"]), TerminalFrame(lines: ["odd"])]
        )
    }

    @Test("stop ends rendering; start renders again")
    func stopAndRestart() async {
        let output = FakeOutput()
        let ui = await settledUIStateMachine()
        let view = StateMachineView(uiStateMachine: ui, output: output) { self.render($0) }
        view.start()
        view.stop()
        #expect(!view.isRendering)
        ui.apply(CounterState(value: 1))
        // A loop that survived stop would render 1 when the main actor is free: let it.
        await Task.yield()
        view.start()
        // The restart renders the current state; value 1 was never rendered on its own.
        #expect(await nextFrames(2, of: output.frames) == [frame(0), frame(1)])
        #expect(output.written.withLock { $0 } == [frame(0), frame(1)])
    }

    @Test("releasing the view stops rendering and releases its output")
    func releaseStops() async {
        var output: FakeOutput? = FakeOutput()
        let frames = output!.frames
        let written = output!.written
        let ui = UIStateMachine(asyncStateMachine: counterMachine())
        var view: StateMachineView<CounterState, CounterEvent>? = StateMachineView(uiStateMachine: ui, output: output!)
        {
            self.render($0)
        }
        output = nil
        view?.start()
        view = nil
        // The output's stream ends only when the output is released, which the render
        // loop's end proves.
        let received = await within("the output is released") {
            var frames = frames.makeAsyncIterator()
            var received: [TerminalFrame] = []
            while let frame = await frames.next() { received.append(frame) }
            return received
        }
        #expect(received == [frame(0)])
        ui.apply(CounterState(value: 1))
        #expect(written.withLock { $0 } == [frame(0)])
    }

    @Test("views made from a singleton factory, with and without a mapping, show the same machine")
    func factoryViews() async {
        let factory = AsyncStateMachineFactory(lifecycle: .singleton) { counterMachine() }
        let plainOutput = FakeOutput()
        let mappedOutput = FakeOutput()
        let plain = StateMachineView(factory: factory, output: plainOutput) { self.render($0) }
        let mapped = StateMachineView(
            factory: factory,
            mapping: { $0.value * 10 },
            output: mappedOutput,
            render: { ["x10: \($0)"] }
        )
        plain.start()
        mapped.start()
        await plain.uiStateMachine.sendAndWait(DidSetValue(value: 4))
        #expect(await nextFrames(2, of: plainOutput.frames) == [frame(0), frame(4)])
        #expect(await nextFrames(2, of: mappedOutput.frames).map(\.lines) == [["x10: 0"], ["x10: 40"]])
    }

    @Test("standard output: plain lines off a terminal, frames replaced in place on a terminal")
    func standardOutput() {
        let plainText = Lock<[String]>([])
        let plain = StandardTerminalOutput(isTerminal: false) { text in plainText.withLock { $0.append(text) } }
        plain.write(frame: TerminalFrame(lines: ["a", "b"]))
        plain.write(frame: TerminalFrame(lines: ["c"]))
        #expect(plainText.withLock { $0 } == ["a\nb\n", "c\n"])

        let ttyText = Lock<[String]>([])
        let tty = StandardTerminalOutput(isTerminal: true) { text in ttyText.withLock { $0.append(text) } }
        tty.write(frame: TerminalFrame(lines: ["a", "b"]))
        tty.write(frame: TerminalFrame(lines: ["c"]))
        tty.write(frame: TerminalFrame(lines: ["d"]))
        #expect(ttyText.withLock { $0 } == ["a\nb\n", "\u{1B}[2F\u{1B}[Jc\n", "\u{1B}[1F\u{1B}[Jd\n"])
        #expect(TerminalFrame(lines: ["a", "b"]).description == "a\nb")
    }
}
