import StateMachineECMAScript
import StateMachineHierarchy
import Testing

/// `variables()` and `restore(_:)`: the document's own variables, as a snapshot keeps them.
@Suite("Variables of a snapshot")
struct SnapshotTests {
    @Test("variables() holds what the document declared and scripts made, and restore(_:) brings it back")
    func roundTrip() throws {
        let sources = [
            Sessions.source(.script, "var counter = 3, label = 'ready'; seen = [1, {deep: true}]"),
            Sessions.source(.value, "[counter, label, seen, data, empty]"),
        ]
        let session = try Sessions.session(sources)
        try session.declare("data", value: .object(["k": .string("v")]))
        try session.declare("empty", from: nil)
        try session.run(0)
        let variables = try session.variables()
        #expect(
            variables == [
                "counter": .number(3), "label": .string("ready"),
                "seen": .array([.number(1), .object(["deep": .bool(true)])]), "data": .object(["k": .string("v")]),
                "empty": .null,
            ]
        )
        let restored = try Sessions.session(sources)
        try restored.restore(variables)
        #expect(try restored.variables() == variables)
        #expect(try restored.evaluate(1) == (try session.evaluate(1)))
    }

    @Test("variables() leaves out the standard library and the system variables, not a <data> named like one")
    func baseline() throws {
        let session = try Sessions.session([])
        session.setEvent(SCXMLEventFields(name: "e", type: "external"))
        #expect(try session.variables() == [:])
        try session.declare("escape", value: .number(1))
        #expect(try session.variables() == ["escape": .number(1)])
    }

    @Test(
        "a variable that JSON cannot hold fails the snapshot, naming it",
        arguments: [
            ("function f() {}", "variable 'f' holds a function, which a snapshot cannot keep"),
            ("var o = {}; o.self = o", "variable 'o' holds a cyclic structure, which a snapshot cannot keep"),
            ("var n = [0 / 0]", "variable 'n' holds a non-finite number (NaN), which a snapshot cannot keep"),
            ("var s = {k: Symbol()}", "variable 's' holds a symbol, which a snapshot cannot keep"),
        ]
    )
    func failure(script: String, message: String) throws {
        let session = try Sessions.session([Sessions.source(.script, script)])
        try session.run(0)
        #expect(Sessions.message { _ = try session.variables() } == message)
    }
}
