import StateMachineSupport
import Testing

// @testable: a step observer (the SCXML interpreter's trace) is package API.
@testable import StateMachineHierarchy

// A step observer that wants state traces hears of every state entered and exited from the
// step itself, where the state's enter or exit block runs, so that a chart needs no block
// per state to record them (the SCXML trace's `enter:` and `exit:` entries). And the
// specs keep the parts few states and handlers have in one box, which must read back as set.

@Suite("States traced by the step")
struct StateTraceTests {
    typealias Chart = Statechart<String, String, Never>

    /// Records the states the step traces, into the same log as the chart's blocks.
    final class Tracer: StatechartStepObserver {
        let log: Recorder
        let wantsStateTraces: Bool
        var wantsEventStarts: Bool { false }
        var wantsEveryStepEnd: Bool { false }

        init(_ log: Recorder, tracing: Bool) {
            self.log = log
            wantsStateTraces = tracing
        }

        func eventStarted(_ name: String, payload: (any Sendable)?, external: Bool, from hooks: AnyObject) {}
        func stepFinished(_ result: Result<StatechartStepOutcome, StatechartError>, from hooks: AnyObject) {}
        func stateTraced(entered: Bool, name: String) {
            log.append((entered ? "enter:" : "exit:") + name)
        }
    }

    /// `a` (with blocks), then `go` to the composite `b`, whose `b1` has none; `end` goes
    /// to the root's final state.
    static func chart(_ tracer: Tracer, options: StatechartOptions = StatechartOptions()) throws -> Chart {
        let log = tracer.log
        let definition = Chart.Definition(name: "traced", initial: "a") {
            Chart.State("a").onEnter(log.record("block:enter a")).onExit(log.record("block:exit a"))
                .on("go", to: "b")
            Chart.State("b") {
                Chart.State("b1").on("end", to: "done")
            }
            Chart.State(final: "done").onExit(log.record("block:exit done"))
        }
        return try Chart(
            definition,
            options: options,
            clock: .continuous,
            stepObserver: tracer,
            callBlock: Chart.Hooks.callBlocks()
        )
    }

    @Test("every entry and exit is traced before the state's block, and subscribers still hear theirs")
    func entriesAndExits() throws {
        let log = Recorder()
        let tracer = Tracer(log, tracing: true)
        let chart = try Self.chart(tracer)
        let subscription = try chart.observe(.entered, at: "b/b1") { _ in log.append("observer:b1") }
        chart.start()
        try chart.handle("go")
        #expect(
            log.entries == [
                "enter:a", "block:enter a",
                "exit:a", "block:exit a", "enter:b", "enter:b1", "observer:b1",
            ]
        )
        subscription.cancel()
        try chart.handle("end")
        #expect(log.entries.suffix(3) == ["exit:b1", "exit:b", "enter:done"])
        withExtendedLifetime(tracer) {}
    }

    @Test("an observer that does not want state traces hears none, and the step still notifies subscribers")
    func untraced() throws {
        let log = Recorder()
        let tracer = Tracer(log, tracing: false)
        let chart = try Self.chart(tracer)
        let subscription = try chart.observe(.entered, at: "b/b1") { _ in log.append("observer:b1") }
        chart.start()
        try chart.handle("go")
        #expect(log.entries == ["block:enter a", "block:exit a", "observer:b1"])
        withExtendedLifetime((tracer, subscription)) {}
    }

    @Test("the final configuration's exits are traced with their blocks, and not again when the chart stops")
    func finalConfiguration() throws {
        let log = Recorder()
        let tracer = Tracer(log, tracing: true)
        let chart = try Self.chart(tracer, options: .scxml)
        chart.start()
        try chart.handle("go")
        try chart.handle("end")
        #expect(
            log.entries.suffix(5) == ["exit:b1", "exit:b", "enter:done", "exit:done", "block:exit done"]
        )
        let traced = log.entries.count
        chart.stop()
        #expect(log.entries.count == traced)
        withExtendedLifetime(tracer) {}
    }

    @Test("a handler's rare parts read back as set, each kept when another changes, and copies apart")
    func handlerParts() {
        var handler = Chart.HandlerSpec(
            trigger: .event("go"),
            target: .state("b"),
            kind: .external,
            guardBlock: nil,
            action: nil,
            extraEvents: ["go2"]
        )
        #expect(handler.extraEvents == ["go2"])
        #expect(handler.guardName == nil && handler.actionName == nil && handler.extraTargets.isEmpty)
        handler.guardName = "ready"
        handler.extraTargets = [.state("c")]
        handler.extraEvents = []
        let copy = handler
        handler.actionName = "log"
        #expect(handler.guardName == "ready")
        #expect(handler.extraEvents.isEmpty)
        #expect(handler.extraTargets.count == 1)
        #expect(handler.actionName == "log")
        #expect(copy.actionName == nil && copy.guardName == "ready")
        handler.guardName = nil
        handler.actionName = nil
        handler.extraTargets = []
        #expect(handler.guardName == nil && handler.actionName == nil)
        #expect(handler.extraEvents.isEmpty && handler.extraTargets.isEmpty)
        handler.extraEvents = ["again"]
        #expect(handler.extraEvents == ["again"])
    }

    @Test("a state's rare parts read back as set, each kept when another changes")
    func nodeParts() {
        var node = Chart.NodeSpec(id: "a", content: .simple, enter: nil, exit: nil, handlers: [], deferred: ["later"])
        #expect(node.deferred == ["later"])
        #expect(node.histories.isEmpty && node.task == nil && node.enterName == nil && node.exitName == nil)
        #expect(!node.namesWithoutTransition)
        node.enterName = "hello"
        node.namesWithoutTransition = true
        node.deferred = []
        node.exitName = "bye"
        #expect(node.enterName == "hello" && node.exitName == "bye")
        #expect(node.namesWithoutTransition)
        #expect(node.deferred.isEmpty)
        node.enterName = nil
        node.exitName = nil
        node.namesWithoutTransition = false
        #expect(node.enterName == nil && node.exitName == nil && !node.namesWithoutTransition)
        node.task = { _ in nil }
        #expect(node.task != nil)
    }
}
