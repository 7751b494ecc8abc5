import StateMachineHierarchy
import Testing

@Suite("JSON: final states, histories, delayed, eventless and done transitions, deferral")
struct JSONExtensionTests {
    static let oven = """
        {
          "name": "oven",
          "states": [
            {"type": "state", "name": "idle", "deferred": ["ding"]},
            {"type": "sub", "name": "cooking",
             "history": [{"name": "resume", "type": "deep", "default": "cooking/baking"}],
             "states": [
               {"type": "state", "name": "heating"},
               {"type": "state", "name": "baking"},
               {"type": "final", "name": "cooked"}
             ]},
            {"type": "state", "name": "ready"},
            {"type": "state", "name": "cleaning"}
          ],
          "transitions": [
            {"type": "simple", "kind": "external", "name": "start", "source": "idle", "target": "cooking"},
            {"type": "simple", "kind": "external", "name": "resume", "source": "idle", "history": "resume"},
            {"type": "simple", "kind": "external", "name": "open", "source": "cooking", "target": "idle"},
            {"type": "after", "seconds": 1.5, "source": "cooking/heating", "target": "cooking/baking"},
            {"type": "simple", "kind": "external", "name": "ding", "source": "cooking/baking", "target": "cooking/cooked"},
            {"type": "done", "source": "cooking", "target": "ready"},
            {"type": "eventless", "source": "ready", "target": "cleaning"}
          ]
        }
        """

    @Test("every extension works end to end")
    func oven() throws {
        let clock = ManualStatechartClock()
        let chart = try Chart(Chart.definition(fromJSON: Self.oven), clock: clock)
        chart.start()
        try chart.handle("resume")
        #expect(chart.activeStates == ["cooking", "baking"], "the history's default")
        try chart.handle("open")
        try chart.handle("start")
        clock.advance(by: .milliseconds(1_499))
        #expect(chart.activeStates == ["cooking", "heating"])
        clock.advance(by: .milliseconds(1))
        #expect(chart.activeStates == ["cooking", "baking"])
        try chart.handle("ding")
        #expect(chart.activeStates == ["cleaning"], "done.state.cooking, then the eventless transition")
    }

    @Test("a deferred event is replayed once idle is left")
    func deferredReplay() throws {
        let chart = try Chart(Chart.definition(fromJSON: Self.oven), clock: ManualStatechartClock())
        chart.start()
        #expect(try chart.handle("ding") == .deferred)
        try chart.handle("resume")
        // ding is replayed in baking: cooked, done.state.cooking, ready, then eventless to cleaning.
        #expect(chart.activeStates == ["cleaning"])
    }

    @Test("bad extensions are reported with their JSON path")
    func errors() {
        func issues(_ json: String) -> [String] {
            do {
                _ = try Chart.definition(fromJSON: json)
                return []
            } catch StatechartError.invalidJSON(let error) {
                return error.issues.map { "\($0.path): \($0.message)" }
            } catch {
                return ["\(error)"]
            }
        }
        #expect(
            issues(
                """
                {"name": "x", "states": [{"type": "state", "name": "a", "history": []}]}
                """
            ) == ["$.states[0].history: only 'sub' and 'parallel' states have a history"]
        )
        #expect(
            issues(
                """
                {"name": "x", "states": [{"type": "sub", "name": "a", "states": [{"type": "state", "name": "b"}],
                  "history": [{"name": "h", "type": "wide", "default": "a/zz"}]}]}
                """
            ) == [
                "$.states[0].history[0].type: unknown history type 'wide' (expected 'shallow' or 'deep')",
                "$.states[0].history[0].default: Invalid path 'a/zz' at component 'zz': region 'aSubMachine' has no state named 'zz'.",
            ]
        )
        #expect(
            issues(
                """
                {"name": "x", "states": [{"type": "state", "name": "a", "deferred": ["", 3]}],
                 "transitions": [{"type": "after", "source": "a", "target": "a"},
                                 {"type": "done", "source": "a", "target": "a"},
                                 {"type": "later", "source": "a", "target": "a"}]}
                """
            ) == [
                "$.states[0].deferred[0]: an event name must not be empty",
                "$.states[0].deferred[1]: expected an event name, found a number",
                "$.transitions[0]: an 'after' transition needs 'seconds', a number of seconds from 0 to less than 9223372036",
                "$.transitions[1].source: 'a' is a simple state, so it raises no done event",
                "$.transitions[2].type: unknown transition type 'later' (expected 'simple', 'compound', 'after', 'eventless' or 'done')",
            ]
        )
    }
}

@Suite("Diagrams of history, final states, delayed, eventless and done transitions")
struct CompleteDiagramTests {
    @Test("the typed builder's new features are drawn")
    func mermaid() throws {
        let chart = try Chart(name: "oven") {
            Chart.State("idle")
                .on("start", to: "cooking")
                .on("resume", to: .history("again"))
            Chart.State("cooking") {
                Chart.State("heating").after(.milliseconds(1_500), to: "baking")
                Chart.State("baking").always(to: "cooked", guard: { _ in true })
                Chart.State(final: "cooked")
            }
            .history("again", .shallow, default: "baking")
            .onDone(to: "idle")
        }
        #expect(
            chart.mermaid() == """
                stateDiagram-v2
                    idle
                    state cooking {
                        state "H" as again
                        heating
                        baking
                        cooked
                        [*] --> heating
                        again --> baking
                        heating --> baking : after 1.5s
                        baking --> cooked : [guard]
                        cooked --> [*]
                    }
                    [*] --> idle
                    idle --> cooking : start
                    idle --> again : resume
                    cooking --> idle : done.state.cooking

                """
        )
    }
}
