import Foundation
import StateMachineHierarchy
import Testing

// Port of TBSMStateMachineBuilderTests.m (3), then the JSON validation rules.

@Suite("JSON builder spec (TBSMStateMachineBuilderTests)")
struct BuilderSpecTests {
    @Test("builds a simple setup", .timeLimit(.minutes(1)))
    func simple() async throws {
        let chart = try Chart(try Chart.definition(fromFile: try Fixtures.path("simple")))
        #expect(chart.name == "main")
        #expect(["a", "b", "c"].map { chart.path(of: $0) } == ["a", "b", "c"])
        chart.attachDebugger(StatechartDebugSink { _ in })
        chart.start()
        chart.schedule("a_b")
        chart.schedule("b_c")
        try await chart.send("c_a")
        #expect(chart.activeStates == ["a"])
    }

    @Test("builds a nested setup", .timeLimit(.minutes(1)))
    func nested() async throws {
        let chart = try Chart(try Chart.definition(fromFile: try Fixtures.path("nested")))
        #expect(chart.name == "main")
        for path in ["a", "b", "c", "a/a1", "a/a2", "b@0/b11", "b@1/b21", "b@1/b22"] {
            #expect(try chart.path(of: chart.state(at: path)) == path)
        }
        chart.start()
        #expect(chart.activeStates == ["a", "a1"])
        chart.schedule("a1_a2")
        chart.schedule("a_local")
        chart.schedule("a1_b")
        try await chart.send("b11_c")
        #expect(chart.activeStates == ["c"])
        // c's one handler is internal and targets c.
        let internalActions = try chart.subscribe(to: .internalTransition("c_internal"), at: "c")
        #expect(try await chart.send("c_internal") == .handled)
        #expect(await internalActions.first()?.state == "c")
        #expect(chart.activeStates == ["c"])
    }

    @Test("builds a pseudo state setup", .timeLimit(.minutes(1)))
    func pseudo() async throws {
        let chart = try Chart(try Chart.definition(fromFile: try Fixtures.path("pseudo")))
        #expect(chart.name == "main")
        chart.start()
        chart.schedule("fork_b")
        chart.schedule("b11_join")
        try await chart.send("b21_join")
        #expect(chart.activeStates == ["c"])
    }
}

@Suite("JSON validation")
struct JSONValidationTests {
    private func issues(_ json: String) -> [StatechartJSONError.Issue] {
        issues(Data(json.utf8))
    }

    private func issues(_ json: Data) -> [StatechartJSONError.Issue] {
        do {
            _ = try Chart.definition(fromJSON: json)
            return []
        } catch StatechartError.invalidJSON(let error) {
            return error.issues
        } catch {
            Issue.record("unexpected error \(error)")
            return []
        }
    }

    @Test("malformed JSON is an error, not a crash", arguments: ["", "{", "{\"name\": }", "[1, 2", "nul"])
    func malformed(json: String) {
        let found = issues(json)
        #expect(found.count == 1)
        #expect(found.first?.path == "$")
        #expect(found.first?.message.hasPrefix("malformed JSON") == true)
    }

    @Test("malformed JSON names its line and column")
    func malformedPosition() {
        #expect(
            issues("{\"name\": \"m\",\n \"states\": [}")
                == [
                    .init(path: "$", message: "malformed JSON at line 2, column 13: Invalid value around character 26.")
                ]
        )
    }

    @Test("truncated JSON names the line and column where it ends")
    func truncatedPosition() throws {
        let message = try #require(issues("{\"name\": \"m\",\n \"states\": [{\"name\": \"a\"}\n").first?.message)
        #expect(message.hasPrefix("malformed JSON at line 3, column 1: "), "\(message)")
    }

    @Test("names are read as written: ASCII, other characters, escapes; invalid UTF-8 in a string is refused")
    func stringsInNames() throws {
        let json = """
            {"name": "m", "states": [
              {"type": "state", "name": "caf\\u00e9"}, {"type": "state", "name": "日本"},
              {"type": "state", "name": "plain"}, {"type": "state", "name": "tab\\tbed"}],
             "transitions": [
              {"type": "simple", "kind": "external", "name": "go", "source": "café", "target": "日本"},
              {"type": "simple", "kind": "external", "name": "on", "source": "日本", "target": "plain"},
              {"type": "simple", "kind": "external", "name": "é", "source": "plain", "target": "tab\\tbed"}]}
            """
        let chart = try Chart(Chart.definition(fromJSON: json))
        chart.start()
        #expect(chart.activeStates == ["café"])
        try chart.handle("go")
        try chart.handle("on")
        try chart.handle("é")
        #expect(chart.activeStates == ["tab\tbed"])

        var bytes = Array(#"{"name": "m", "states": [{"type": "state", "name": "a"#.utf8)
        bytes += [0xC3, 0x28]  // a lead byte followed by one that cannot continue it
        bytes += Array(#""}]}"#.utf8)
        let found = issues(Data(bytes))
        #expect(found.count == 1)
        // Refused where the bad byte is (the 53rd), in Foundation's words when it has some.
        let message = found.first?.message ?? ""
        #expect(message.hasPrefix("malformed JSON at line 1, column 53: "), "\(found)")
        #expect(message.contains("UTF-8"), "\(found)")
    }

    @Test("a transition's unknown source or target is named with its JSON path, at the top level and below")
    func unknownPaths() {
        let json = """
            {"name": "m", "states": [{"type": "sub", "name": "a", "states": [{"type": "state", "name": "b"}]}],
             "transitions": [
              {"type": "simple", "kind": "external", "name": "x", "source": "nowhere", "target": "a"},
              {"type": "simple", "kind": "external", "name": "y", "source": "a", "target": "a/nothing"}]}
            """
        #expect(
            issues(json) == [
                .init(
                    path: "$.transitions[0].source",
                    message: StatechartError.invalidPath(
                        path: "nowhere",
                        component: "nowhere",
                        reason: "region 'm' has no state named 'nowhere'"
                    ).description
                ),
                .init(
                    path: "$.transitions[1].target",
                    message: StatechartError.invalidPath(
                        path: "a/nothing",
                        component: "nothing",
                        reason: "region 'aSubMachine' has no state named 'nothing'"
                    ).description
                ),
            ]
        )
    }

    @Test("a document that is not an object")
    func notAnObject() {
        #expect(issues("[1]") == [.init(path: "$", message: "expected an object, found an array")])
    }

    @Test("a missing file names the file")
    func missingFile() {
        let error = #expect(throws: StatechartError.self) { try Chart.definition(fromFile: "/nonexistent/chart.json") }
        guard case .invalidJSON(let json)? = error else {
            Issue.record("expected invalidJSON, got \(String(describing: error))")
            return
        }
        #expect(json.issues.first?.message.contains("cannot read file '/nonexistent/chart.json'") == true)
    }

    @Test("reports every problem of a document with its JSON path")
    func everyProblem() {
        let json = """
            {
              "name": "main",
              "states": [
                {"name": "a", "type": "sub", "states": [{"name": "a1", "type": "state"}]},
                {"name": "a1", "type": "state"},
                {"name": "b", "type": "parallel", "regions": [[{"name": "b1", "type": "state"}], []]},
                {"name": "c", "type": "compound"},
                {"type": "state"},
                {"name": "d/e", "type": "state"}
              ],
              "transitions": [
                {"type": "simple", "kind": "external", "name": "go", "source": "a/a1", "target": "zz"},
                {"type": "simple", "kind": "sideways", "name": "go", "source": "a", "target": "a"},
                {"type": "simple", "kind": "local", "name": "go", "source": "b/b1", "target": "a"},
                {"type": "simple", "kind": "internal", "name": "go", "source": "a", "target": "a1"},
                {"type": "teleport", "name": "x"},
                {"type": "compound", "name": "f", "vertices": {"incoming": [{"source": "a", "name": "f"}], "outgoing": [{"target": "a/a1"}]},
                 "pseudo_state": {"type": "fork", "name": "fork_1", "region": "a"}},
                {"type": "compound", "name": "j", "vertices": {"incoming": [], "outgoing": [{"target": "a"}]},
                 "pseudo_state": {"type": "spoon", "name": "fork_1"}}
              ]
            }
            """
        let found = issues(json)
        let expected: [StatechartJSONError.Issue] = [
            .init(
                path: "$.states[1].name",
                message: "duplicate state name 'a1' (first declared at $.states[0].states[0].name)"
            ),
            .init(
                path: "$.states[2].regions[1]",
                message: "a region needs at least one state (its first state is the initial state)"
            ),
            .init(
                path: "$.states[3].type",
                message: "unknown state type 'compound' (expected 'state', 'sub', 'parallel' or 'final')"
            ),
            .init(path: "$.states[4]", message: "missing required string 'name'"),
            .init(
                path: "$.states[5].name",
                message: "state name 'd/e' must not contain '/' or '@', which paths use as separators"
            ),
            .init(
                path: "$.transitions[0].target",
                message: "Invalid path 'zz' at component 'zz': region 'main' has no state named 'zz'."
            ),
            .init(
                path: "$.transitions[1].kind",
                message: "unknown transition kind 'sideways' (expected 'external', 'local' or 'internal')"
            ),
            .init(
                path: "$.transitions[2].source",
                message: "Invalid path 'b/b1' at component 'b': 'b' is a parallel state; add '@<region index>' (0..<2)."
            ),
            .init(
                path: "$.transitions[3].target",
                message: "an internal transition must target its source 'a', not 'a1'"
            ),
            .init(
                path: "$.transitions[4].type",
                message:
                    "unknown transition type 'teleport' (expected 'simple', 'compound', 'after', 'eventless' or 'done')"
            ),
            .init(path: "$.transitions[5].pseudo_state.region", message: "'a' is not a parallel state"),
            .init(
                path: "$.transitions[5].vertices.outgoing[0].target",
                message: "'a/a1' is not inside the fork's region 'a'"
            ),
            .init(
                path: "$.transitions[6].pseudo_state.name",
                message: "duplicate pseudo state name 'fork_1' (first declared at $.transitions[5].pseudo_state.name)"
            ),
            .init(path: "$.transitions[6].pseudo_state", message: "missing required string 'region'"),
            .init(path: "$.transitions[6].vertices.incoming", message: "needs at least one vertex"),
            .init(
                path: "$.transitions[6].pseudo_state.type",
                message:
                    "unknown pseudo state type 'spoon' (expected 'fork' or 'join'; junctions cannot be declared in JSON)"
            ),
        ]
        #expect(found == expected)
    }

    @Test(
        "required fields of the schema",
        arguments: [
            (#"{"states": [{"name": "a", "type": "state"}]}"#, "$", "missing required string 'name'"),
            (#"{"name": "main"}"#, "$.states", "missing required array of states"),
            (
                #"{"name": "", "states": [{"name": "a", "type": "state"}]}"#, "$.name",
                "the statechart needs a non-empty name"
            ),
            (
                #"{"name": "m", "states": [{"name": "a", "type": "sub"}]}"#, "$.states[0].states",
                "missing required array of states"
            ),
            (
                #"{"name": "m", "states": [{"name": "a", "type": "parallel"}]}"#, "$.states[0].regions",
                "missing required array of regions"
            ),
            (
                #"{"name": "m", "states": [{"name": "a", "type": "state"}], "transitions": [{"type": "simple", "name": "e", "source": "a", "target": "a"}]}"#,
                "$.transitions[0]", "missing required string 'kind'"
            ),
            (
                #"{"name": "m", "states": [{"name": "a", "type": "state"}], "transitions": [{"type": "compound", "name": "e", "pseudo_state": {"type": "fork", "name": "f", "region": "a"}}]}"#,
                "$.transitions[0]", "missing required object 'vertices'"
            ),
            (
                #"{"name": "m", "states": [{"name": "a", "type": 3}]}"#, "$.states[0].type",
                "expected a string, found a number"
            ),
            (
                #"{"name": "m", "states": [{"name": "a", "type": "state"}], "transitions": {}}"#, "$.transitions",
                "expected an array, found an object"
            ),
        ]
    )
    func requiredFields(json: String, path: String, message: String) {
        #expect(issues(json).contains(.init(path: path, message: message)))
    }

    @Test("fork and join vertices are checked against their region")
    func compoundRegions() {
        let json = """
            {"name": "m", "states": [
              {"name": "x", "type": "state"},
              {"name": "p", "type": "parallel", "regions": [[{"name": "p1", "type": "state"}, {"name": "p2", "type": "state"}], [{"name": "q1", "type": "state"}]]}],
             "transitions": [
              {"type": "compound", "name": "f", "vertices": {"incoming": [{"source": "x", "name": "f"}, {"source": "x", "name": "g"}],
               "outgoing": [{"target": "p@0/p1"}, {"target": "p@0/p2"}]}, "pseudo_state": {"type": "fork", "name": "f1", "region": "p"}},
              {"type": "compound", "name": "j", "vertices": {"incoming": [{"source": "x", "name": "j"}],
               "outgoing": [{"target": "x"}, {"target": "x"}]}, "pseudo_state": {"type": "join", "name": "j1", "region": "p"}}
             ]}
            """
        #expect(
            issues(json) == [
                .init(
                    path: "$.transitions[0].vertices.incoming",
                    message: "a fork takes exactly one incoming vertex, found 2"
                ),
                .init(
                    path: "$.transitions[0].vertices.outgoing[1].target",
                    message: "'p@0/p2' lies in the same region as 'p@0/p1'"
                ),
                .init(
                    path: "$.transitions[1].vertices.outgoing",
                    message: "a join takes exactly one outgoing vertex, found 2"
                ),
                .init(
                    path: "$.transitions[1].vertices.incoming[0].source",
                    message: "'x' is not inside the join's region 'p'"
                ),
            ]
        )
    }

    @Test("guards and actions attach to JSON transitions by name")
    func attachByName() throws {
        let log = Recorder()
        var definition = try Chart.definition(fromFile: try Fixtures.path("simple"))
        try definition.setGuard(forTransition: "a_b") { $0.payload == "open" }
        try definition.setAction(forTransition: "a_b", from: "a", log.record("a_b_action"))
        #expect(throws: StatechartError.unknownTransition(name: "nope")) {
            try definition.setAction(forTransition: "nope") { _ in }
        }
        try definition.addTransition(from: "b", on: "a_b", to: "c")
        #expect(throws: StatechartError.ambiguousTransition(name: "a_b", sources: ["a", "b"])) {
            try definition.setGuard(forTransition: "a_b") { _ in true }
        }
        let chart = try Chart(definition)
        chart.start()
        #expect(try chart.handle("a_b", payload: "closed") == .unhandled)
        #expect(try chart.handle("a_b", payload: "open") == .handled)
        #expect(log.entries == ["a_b_action"])
        #expect(chart.activeStates == ["b"])
    }
}
