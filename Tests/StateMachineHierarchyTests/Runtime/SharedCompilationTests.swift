import Foundation
import Testing

// @testable: the tests check which compiled form (`Topology`) each chart runs, and the
// handler table's shape.
@testable import StateMachineHierarchy
@testable import StateMachineSCXML

// Charts made from one definition share its compiled form; each has its own run. And the
// sparse handler table finds the same handlers, in the same order, as the chart declares.

@Suite("One compiled chart, many instances")
struct SharedCompilationTests {
    typealias Chart = Statechart<String, String, Int>

    static func definition() -> Chart.Definition {
        Chart.Definition(name: "door") {
            Chart.State("closed").on("open", to: "opened")
            Chart.State("opened").on("close", to: "closed")
        }
    }

    @Test("charts of one definition share its compiled form and keep their own configuration")
    func sharing() throws {
        let definition = Self.definition()
        let first = try Chart(definition)
        let second = try Chart(definition)
        #expect(first.engine.topology === second.engine.topology)
        #expect(first.model === second.model)
        first.start()
        second.start()
        try first.handle("open")
        #expect(first.activeStates == ["opened"])
        #expect(second.activeStates == ["closed"])
        // A copy that is not edited shares it too.
        let copy = definition
        #expect(try Chart(copy).engine.topology === first.engine.topology)
    }

    @Test("an edited copy compiles anew and leaves the original's charts as they were")
    func editedCopy() throws {
        let definition = Self.definition()
        let original = try Chart(definition)
        var edited = definition
        try edited.addTransition(from: "opened", on: "slam", to: "closed")
        let changed = try Chart(edited)
        #expect(changed.engine.topology !== original.engine.topology)
        original.start()
        changed.start()
        try original.handle("open")
        try changed.handle("open")
        #expect(try original.handle("slam") == .unhandled)
        #expect(try changed.handle("slam") == .handled)
        #expect(changed.activeStates == ["closed"])
        // The original still compiles to what it compiled to before.
        #expect(try Chart(definition).engine.topology === original.engine.topology)

        var renamed = definition
        renamed.name = "gate"
        #expect(try Chart(renamed).name == "gate")
        #expect(try Chart(definition).name == "door")
    }

    @Test("options that change compilation get a compiled form of their own")
    func options() throws {
        let definition = Chart.Definition(name: "prefix") {
            Chart.State("idle").on("error", to: "failed")
            Chart.State("failed")
        }
        let exact = try Chart(definition)
        let prefix = try Chart(definition, options: .scxml)
        let exactAgain = try Chart(definition, options: StatechartOptions())
        #expect(exact.engine.topology !== prefix.engine.topology)
        #expect(exact.engine.topology === exactAgain.engine.topology)
        exact.start()
        prefix.start()
        // Under prefix matching the handler for `error` also takes `error.io`.
        #expect(try prefix.handle("error.io") == .handled)
        #expect(prefix.activeStates == ["failed"])
        #expect(try exact.handle("error.io") == .unhandled)
    }

    @Test("charts made from one definition on many threads at once all share one compiled form")
    func concurrentFirstCompile() async throws {
        let definition = Self.definition()
        let topologies = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<16 {
                group.addTask { ObjectIdentifier(try Chart(definition).engine.topology) }
            }
            return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        // Two threads may both compile before either stores; the first stored is kept, so
        // every chart made afterwards runs that one.
        let kept = ObjectIdentifier(try Chart(definition).engine.topology)
        #expect(topologies.contains(kept))
        #expect(ObjectIdentifier(try Chart(definition).engine.topology) == kept)
    }

    @Test("interpreters of one SCXML document share its compiled chart")
    func scxmlSharing() throws {
        let document = try SCXMLDocument(
            xml: """
                <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
                  <state id="a"><transition event="go" target="b"/></state>
                  <state id="b"/>
                </scxml>
                """
        )
        // Loading compiled it once; every interpreter, tracing or not, takes that.
        let compiled = try document.definition.compiledModel(options: .scxml)
        let first = SCXMLInterpreter(document: document)
        let second = SCXMLInterpreter(document: document, recordsTrace: false)
        #expect(try document.definition.compiledModel(options: .scxml) === compiled)
        let copy = document
        #expect(try copy.definition.compiledModel(options: .scxml) === compiled)
        try first.start()
        try second.start()
        // Traced or not, both run that compiled chart, whose plain states have no blocks:
        // the trace hears of entries and exits from the step.
        let running = [first, second].compactMap { $0.state.withLock { $0.chart?.engine.topology } }
        #expect(running.count == 2 && running.allSatisfy { $0 === compiled.topology })
        #expect(compiled.topology.states.allSatisfy { !$0.hasEnter && !$0.hasExit })
        try first.send("go")
        #expect(first.trace == ["event:go", "exit:a", "enter:b"])
        #expect(first.activeStates == ["b"])
        #expect(second.activeStates == ["a"])
    }
}

@Suite("The sparse handler table")
struct HandlerTableTests {
    typealias Chart = Statechart<String, String, Int>

    @Test("every state's handlers are found for its events, and no others, beyond 64 events")
    func manyEvents() throws {
        // 100 events: the 64-bit event masks collide, and one state has more than 8 (its
        // pairs are searched by halving).
        let count = 100
        var hub = Chart.State("hub")
        for index in 0..<count { hub = hub.on("e\(index)", to: "spoke") }
        let chart = try Chart(name: "wide") {
            hub
            Chart.State("spoke").on("e\(count - 1)", to: "hub").on("e64", to: "hub")
        }
        chart.start()
        for index in 0..<count {
            #expect(try chart.handle("e\(index)") == .handled, "hub, e\(index)")
            #expect(chart.activeStates == ["spoke"])
            // e0 and e64 share a mask bit in spoke; only e64 and the last are spoke's.
            let back = index == count - 1 || index == 64
            #expect(try chart.handle(back ? "e\(index)" : "e0") == (back ? .handled : .unhandled), "spoke, e\(index)")
            if !back { try chart.handle("e64") }
            #expect(chart.activeStates == ["hub"])
        }
        let sizes = chart.topology.tableSizes
        #expect(sizes.handlerList == count + 2)
        #expect(sizes.pairEvents == count + 2)
    }

    @Test("handlers of one state for one event are tried in registration order")
    func order() throws {
        let log = Recorder()
        let chart = try Chart(name: "guards") {
            Chart.State("a")
                .on(
                    "go",
                    to: "b",
                    guard: { _ in
                        log.append("first")
                        return false
                    }
                )
                .on("other", to: "c")
                .on(
                    "go",
                    to: "c",
                    guard: { _ in
                        log.append("second")
                        return true
                    }
                )
                .on(
                    "go",
                    to: "b",
                    guard: { _ in
                        log.append("third")
                        return true
                    }
                )
            Chart.State("b")
            Chart.State("c")
        }
        chart.start()
        #expect(try chart.handle("go") == .handled)
        #expect(chart.activeStates == ["c"])
        #expect(log.entries == ["first", "second"])
    }

    @Test("a chart of many states and events takes room for its transitions only")
    func linearSize() throws {
        let states = 2_000
        let chart = try Chart(name: "ring") {
            for index in 0..<states {
                Chart.State("s\(index)")
                    .on("next", to: "s\((index + 1) % states)")
                    .on("e\(index)", to: "s\((index + 2) % states)")
            }
        }
        let sizes = chart.topology.tableSizes
        #expect(sizes.handlerList == 2 * states)
        #expect(sizes.pairEvents == 2 * states)
        #expect(sizes.hot == states)
        chart.start()
        try chart.handle("e0")
        #expect(chart.activeStates == ["s2"])
        try chart.handle("next")
        try chart.handle("e3")
        #expect(chart.activeStates == ["s5"])
        #expect(try chart.handle("e0") == .unhandled)
    }

    @Test("under prefix matching a descriptor takes its name and the names below it, not names that only start alike")
    func prefixClasses() throws {
        let definition = Chart.Definition(name: "prefix") {
            Chart.State("a").on("e1", to: "b").on("e10", to: "c")
            Chart.State("b").on("e1.x", to: "a").on("*", to: "c")
            Chart.State("c").on("e1.x.*", to: "a")
        }
        let chart = try Chart(definition, options: .scxml)
        chart.start()
        #expect(try chart.handle("e10") == .handled)
        #expect(chart.activeStates == ["c"])
        #expect(try chart.handle("e1.x.y") == .handled)
        #expect(chart.activeStates == ["a"])
        #expect(try chart.handle("e1.x") == .handled)
        #expect(chart.activeStates == ["b"])
        #expect(try chart.handle("e1.x") == .handled)
        #expect(chart.activeStates == ["a"])
        #expect(try chart.handle("e1.y") == .handled)
        #expect(chart.activeStates == ["b"])
        #expect(try chart.handle("e10") == .handled)
        #expect(chart.activeStates == ["c"])
        #expect(try chart.handle("e1") == .unhandled)
    }
}
