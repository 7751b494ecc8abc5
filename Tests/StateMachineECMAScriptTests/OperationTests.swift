import StateMachineECMAScript
import StateMachineHierarchy
import StateMachineSCXML
import Testing

/// Assigning, declaring, running scripts and `<foreach>`, and the engine's own messages when
/// they fail.
@Suite("Assigning, declaring, scripts and foreach")
struct OperationTests {
    @Test(
        "a failure is the engine's message: the error's name and message",
        arguments: [
            ("undefined.z", "TypeError: cannot read property 'z' of undefined"),
            ("x", "ReferenceError: identifier 'x' undefined"),
            ("null()", "TypeError: null not callable"),
            ("(function () { throw new RangeError('too far') })()", "RangeError: too far"),
            ("(function () { throw 'boom' })()", "boom"),
            ("(function () { throw {toString: function () { return 'custom' }} })()", "custom"),
        ]
    )
    func messages(text: String, message: String) {
        #expect(Sessions.message { _ = try Sessions.evaluate(text) } == message)
    }

    @Test("assigning an expression keeps the engine's value: an object stays the same object")
    func assignKeepsObject() throws {
        let session = try Sessions.session([
            Sessions.source(.script, "var x = {a: 1}, y"), Sessions.source(.location, "y"),
            Sessions.source(.value, "x"),
            Sessions.source(.condition, "y === x"),
        ])
        try session.run(0)
        try session.assign(1, from: 2)
        #expect(try session.isTrue(3))
    }

    @Test(
        "assigning to a location that is not one fails (W3C 286, 311, 152)",
        arguments: [
            ("nope", "ReferenceError: identifier 'nope' undefined"),
            ("foo.bar.baz ", "ReferenceError: identifier 'foo' undefined"),
            ("1", "ReferenceError: invalid lvalue"),
            ("'continue'", "ReferenceError: invalid lvalue"),
        ]
    )
    func invalidLocation(location: String, message: String) throws {
        let session = try Sessions.session([Sessions.source(.location, location), Sessions.source(.value, "1")])
        #expect(Sessions.message { try session.assign(0, from: 1) } == message)
        #expect(Sessions.message { try session.assign(0, value: .null) } == message)
    }

    @Test("an expression that fails leaves the location as it was (W3C 312)")
    func failingExpression() throws {
        let session = try Sessions.session([
            Sessions.source(.location, "x"), Sessions.source(.value, "return"), Sessions.source(.value, "x"),
        ])
        try session.declare("x", value: .number(1))
        #expect(Sessions.message { try session.assign(0, from: 1) }?.hasPrefix("SyntaxError: ") == true)
        #expect(try session.evaluate(2) == .number(1))
    }

    @Test("locations: properties and elements of the document's data")
    func deepLocations() throws {
        let session = try Sessions.session([
            Sessions.source(.location, "data.list[1]"), Sessions.source(.location, "data['key']"),
            Sessions.source(.value, "data"),
        ])
        try session.declare("data", value: .object(["list": .array([.number(0), .number(0)])]))
        try session.assign(0, value: .string("one"))
        try session.assign(1, value: .bool(true))
        #expect(
            try session.evaluate(2) == .object(["list": .array([.number(0), .string("one")]), "key": .bool(true)])
        )
    }

    @Test("a location reads as its value (namelist, <param location>)")
    func locationValue() throws {
        let session = try Sessions.session([Sessions.source(.location, "x"), Sessions.source(.location, "missing")])
        try session.declare("x", value: .string("v"))
        #expect(try session.evaluate(0) == .string("v"))
        #expect(Sessions.message { _ = try session.evaluate(1) } == "ReferenceError: identifier 'missing' undefined")
    }

    @Test("<data> without a value declares an undefined variable")
    func declareUndefined() throws {
        let session = try Sessions.session([Sessions.source(.condition, "'v' in this && v === undefined")])
        try session.declare("v", from: nil)
        #expect(try session.isTrue(0))
    }

    @Test("a variable named like nothing special is assigned, whatever its name")
    func anyName() throws {
        let names = ["v", "arguments0", "value", "x"]
        let session = try Sessions.session(names.map { Sessions.source(.location, $0) })
        for (index, name) in names.enumerated() {
            try session.declare(name, from: nil)
            try session.assign(index, value: .string(name))
            #expect(try session.evaluate(index) == .string(name))
        }
    }

    @Test("a location that mentions v and v1 assigns what it names (the setter's parameter is another name)")
    func setterParameter() throws {
        let session = try Sessions.session([
            Sessions.source(.location, "o[v + v1]"), Sessions.source(.value, "o.ab"),
        ])
        try session.declare("o", value: .object([:]))
        try session.declare("v", value: .string("a"))
        try session.declare("v1", value: .string("b"))
        try session.assign(0, value: .number(7))
        #expect(try session.evaluate(1) == .number(7))
    }

    @Test("<data> whose expression fails leaves the variable declared and unbound (W3C 277)")
    func declareFailing() throws {
        let session = try Sessions.session([
            Sessions.source(.value, "return"), Sessions.source(.condition, "typeof v === 'undefined'"),
            Sessions.source(.location, "v"), Sessions.source(.value, "v"),
        ])
        #expect(Sessions.message { try session.declare("v", from: 0) }?.hasPrefix("SyntaxError: ") == true)
        #expect(try session.isTrue(1))
        try session.assign(2, value: .number(1))
        #expect(try session.evaluate(3) == .number(1))
    }

    @Test("<data> with an expression or a value, and <data> again replacing it")
    func declareValues() throws {
        let session = try Sessions.session([
            Sessions.source(.value, "[1, 2].length"), Sessions.source(.value, "[a, b]"),
        ])
        try session.declare("a", from: 0)
        try session.declare("b", value: .string("x"))
        #expect(try session.evaluate(1) == .array([.number(2), .string("x")]))
        try session.declare("b", value: .null)
        #expect(try session.evaluate(1) == .array([.number(2), .null]))
    }

    @Test("a script that throws fails with its error; what it did before stays")
    func scriptFailure() throws {
        let session = try Sessions.session([
            Sessions.source(.script, "var before = 1; undefined.z; var after = 2;"),
            Sessions.source(.value, "[before, typeof after]"),
        ])
        #expect(Sessions.message { try session.run(0) } == "TypeError: cannot read property 'z' of undefined")
        #expect(try session.evaluate(1) == .array([.number(1), .string("undefined")]))
    }

    @Test("<foreach> iterates a shallow copy, assigning item and index, declaring them when missing (W3C 150, 153)")
    func forEach() throws {
        let session = try Sessions.session([
            Sessions.source(.value, "list"), Sessions.source(.location, "item"), Sessions.source(.location, "index"),
            Sessions.source(.script, "seen.push(item + '@' + index); list.push('added')"),
            Sessions.source(.value, "seen"),
        ])
        try session.declare("list", value: .array([.string("a"), .string("b"), .string("c")]))
        try session.declare("seen", value: .array([]))
        let count = try session.beginForEach(array: 0)
        #expect(count == 3)
        for position in 0..<count {
            try session.assignForEach(position: position, item: 1, index: 2)
            try session.run(3)
        }
        session.endForEach()
        #expect(try session.evaluate(4) == .array([.string("a@0"), .string("b@1"), .string("c@2")]))
        #expect(session.valueStackDepth == 0)
    }

    @Test("<foreach> elements nest, each iterating its own copy")
    func nestedForEach() throws {
        let session = try Sessions.session([
            Sessions.source(.value, "[1, 2]"), Sessions.source(.value, "['x', 'y', 'z']"),
            Sessions.source(.location, "i"),
            Sessions.source(.location, "j"), Sessions.source(.script, "pairs.push(i + j)"),
            Sessions.source(.value, "pairs"),
        ])
        try session.declare("pairs", value: .array([]))
        let outer = try session.beginForEach(array: 0)
        for p in 0..<outer {
            try session.assignForEach(position: p, item: 2, index: nil)
            let inner = try session.beginForEach(array: 1)
            for q in 0..<inner {
                try session.assignForEach(position: q, item: 3, index: nil)
                try session.run(4)
            }
            session.endForEach()
        }
        session.endForEach()
        #expect(try session.evaluate(5) == .array(["1x", "1y", "1z", "2x", "2y", "2z"].map(SCXMLValue.string)))
    }

    @Test(
        "<foreach> over what is not an array fails before anything runs (W3C 152, 156)",
        arguments: [
            ("7", "TypeError: <foreach> array is not an array: 7"),
            ("({length: 2})", "TypeError: <foreach> array is not an array: [object Object]"),
            ("'abc'", "TypeError: <foreach> array is not an array: abc"),
            ("missing", "ReferenceError: identifier 'missing' undefined"),
        ]
    )
    func forEachNotArray(text: String, message: String) throws {
        let session = try Sessions.session([Sessions.source(.value, text)])
        #expect(Sessions.message { _ = try session.beginForEach(array: 0) } == message)
        session.endForEach()
        #expect(session.valueStackDepth == 0)
    }

    @Test(
        "an inner <foreach> whose array is not one leaves the outer iteration's copy, ended or not",
        arguments: [true, false]
    )
    func failedInnerForEach(endsAfterFailure: Bool) throws {
        let session = try Sessions.session([
            Sessions.source(.value, "['a', 'b']"), Sessions.source(.value, "7"), Sessions.source(.location, "i"),
            Sessions.source(.value, "i"),
        ])
        #expect(try session.beginForEach(array: 0) == 2)
        try session.assignForEach(position: 0, item: 2, index: nil)
        #expect(Sessions.failure { _ = try session.beginForEach(array: 1) } != nil)
        if endsAfterFailure { session.endForEach() }
        try session.assignForEach(position: 1, item: 2, index: nil)
        #expect(try session.evaluate(3) == .string("b"))
        session.endForEach()
        #expect(
            Sessions.message { try session.assignForEach(position: 0, item: 2, index: nil) }
                == "Error: no <foreach> runs"
        )
    }

    @Test("<foreach> with an item that is not a location fails at its first assignment (W3C 152)")
    func forEachIllegalItem() throws {
        let session = try Sessions.session([
            Sessions.source(.value, "[1, 2]"), Sessions.source(.location, "'continue'"),
            Sessions.source(.location, "i"),
            Sessions.source(.condition, "typeof i === 'undefined'"),
        ])
        #expect(try session.beginForEach(array: 0) == 2)
        #expect(
            Sessions.message { try session.assignForEach(position: 0, item: 1, index: 2) }
                == "ReferenceError: invalid lvalue"
        )
        session.endForEach()
        #expect(try session.isTrue(3))
    }
}

/// A host that calls back into the session from `In(id)`, which the seam does not ask for but
/// the session allows: the calls nest, each with its own output.
@Suite("Nested calls")
struct NestedCallTests {
    /// The session `In(id)` evaluates source 2 of, set once the session exists.
    /// `@unchecked Sendable`: the test makes every call from its one thread, one at a time.
    final class Reentry: @unchecked Sendable {
        var session: ECMAScriptSession?
        var inner: [SCXMLValue] = []
    }

    @Test("In() that evaluates again while the outer value is being written out leaves both values whole")
    func nested() throws {
        let reentry = Reentry()
        let host = SCXMLDataModelHost(sessionID: "s1", name: nil, ioProcessors: .null) { _ in
            guard let session = reentry.session, let value = try? session.evaluate(2) else { return false }
            reentry.inner.append(value)
            return true
        }
        let session = try Sessions.session(
            [
                Sessions.source(.value, "({a: 1, get b() { return In('x') }, c: [2, 3]})"),
                Sessions.source(.value, "unused"), Sessions.source(.value, "({inner: ['deep', {n: 4}]})"),
            ],
            host: host
        )
        reentry.session = session
        // The host's closure holds the box, which holds the session: a cycle to break.
        defer { reentry.session = nil }
        #expect(
            try session.evaluate(0)
                == .object(["a": .number(1), "b": .bool(true), "c": .array([.number(2), .number(3)])])
        )
        #expect(reentry.inner == [.object(["inner": .array([.string("deep"), .object(["n": .number(4)])])])])
        #expect(session.valueStackDepth == 0)
    }
}
