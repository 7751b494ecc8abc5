import StateMachineECMAScript
import StateMachineHierarchy
import Testing

/// Values between Swift and ECMAScript: what JSON can hold crosses both ways; what it cannot
/// (a function, a cycle, a non-finite number, a symbol) fails instead of crossing in part.
@Suite("Values crossing")
struct ValueCrossingTests {
    @Test(
        "ECMAScript values cross out as SCXMLValues",
        arguments: [
            ("null", SCXMLValue.null),
            ("undefined", .null),
            ("true", .bool(true)),
            ("false", .bool(false)),
            ("42", .number(42)),
            ("-0.5", .number(-0.5)),
            ("1e300", .number(1e300)),
            ("'text'", .string("text")),
            ("'é ü'", .string("é ü")),
            ("'\\uD83D\\uDE00'", .string("😀")),
            ("'a\\u0000b'", .string("a\u{0}b")),
            ("'\\uD83D'", .string("\u{FFFD}")),
            ("[]", .array([])),
            (
                "[1, 'a', null, undefined, [true]]",
                .array([.number(1), .string("a"), .null, .null, .array([.bool(true)])])
            ),
            ("[1, , 3]", .array([.number(1), .null, .number(3)])),
            ("({})", .object([:])),
            ("({a: 1, b: {c: [2]}})", .object(["a": .number(1), "b": .object(["c": .array([.number(2)])])])),
            ("({get g() { return 5 }})", .object(["g": .number(5)])),
            ("Object.create({inherited: 1})", .object([:])),
            (
                "(function () { var shared = [1]; return [shared, shared] })()",
                .array([.array([.number(1)]), .array([.number(1)])])
            ),
        ]
    )
    func out(text: String, value: SCXMLValue) throws {
        #expect(try Sessions.evaluate(text) == value)
    }

    @Test(
        "a value that JSON cannot hold does not cross out",
        arguments: [
            ("1 / 0", "the value holds a non-finite number (Infinity), which an SCXML value cannot keep"),
            ("-1 / 0", "the value holds a non-finite number (-Infinity), which an SCXML value cannot keep"),
            ("[NaN]", "the value holds a non-finite number (NaN), which an SCXML value cannot keep"),
            ("(function () {})", "the value holds a function, which an SCXML value cannot keep"),
            ("({nested: {f: Math.max}})", "the value holds a function, which an SCXML value cannot keep"),
            (
                "(function () { var o = {}; o.self = o; return o })()",
                "the value holds a cyclic structure, which an SCXML value cannot keep"
            ),
            ("[Symbol('s')]", "the value holds a symbol, which an SCXML value cannot keep"),
            (
                "(function () { var a = []; for (var i = 0; i < 1001; i++) a = [a]; return a })()",
                "the value nests more than 1000 levels deep, which an SCXML value cannot keep"
            ),
        ]
    )
    func outFailure(text: String, message: String) {
        #expect(Sessions.message { _ = try Sessions.evaluate(text) } == message)
    }

    static let values: [SCXMLValue] = [
        .null,
        .bool(true),
        .bool(false),
        .number(0),
        .number(-12.75),
        .number(Double.greatestFiniteMagnitude),
        .number(Double.leastNonzeroMagnitude),
        .string(""),
        .string("plain"),
        .string("é, 😀, 𝄞 and a\u{0}nul"),
        .array([]),
        .array([.number(1), .string("two"), .null, .array([.bool(false)])]),
        .object([:]),
        .object(["a": .number(1), "nested": .object(["list": .array([.string("x")])]), "😀": .bool(true)]),
        .object(["__proto__": .number(1)]),
    ]

    @Test("SCXMLValues cross in and back unchanged", arguments: values)
    func roundTrip(value: SCXMLValue) throws {
        let session = try Sessions.session([Sessions.source(.location, "x"), Sessions.source(.script, "var x")])
        try session.run(1)
        try session.assign(0, value: value)
        #expect(try session.evaluate(0) == value)
    }

    @Test(
        "SCXMLValues become the ECMAScript values they are",
        arguments: [
            (SCXMLValue.null, "x === null"),
            (.bool(true), "x === true"),
            (.number(2.5), "x === 2.5"),
            (.string("😀"), "x.length === 2 && x.charCodeAt(0) === 0xD83D"),
            (.string("é"), "x.length === 1 && x === '\\u00e9'"),
            (.array([.number(1), .number(2)]), "Array.isArray(x) && x.length === 2 && x[1] === 2"),
            (.object(["k": .string("v")]), "Object.getPrototypeOf(x) === Object.prototype && x.k === 'v'"),
            (.object(["__proto__": .number(1)]), "Object.keys(x).join() === '__proto__' && x instanceof Object"),
        ]
    )
    func crossIn(value: SCXMLValue, check: String) throws {
        let session = try Sessions.session([
            Sessions.source(.location, "x"), Sessions.source(.script, "var x"), Sessions.source(.condition, check),
        ])
        try session.run(1)
        try session.assign(0, value: value)
        #expect(try session.isTrue(2))
    }

    @Test("a value nested deeper than 1000 levels does not cross in")
    func crossInTooDeep() throws {
        var value = SCXMLValue.null
        for _ in 0..<1001 { value = .array([value]) }
        let session = try Sessions.session([Sessions.source(.location, "x"), Sessions.source(.script, "var x")])
        try session.run(1)
        #expect(
            Sessions.message { try session.assign(0, value: value) }
                == "RangeError: a value nested more than 1000 levels deep does not cross"
        )
    }

    @Test(
        "a condition is the ECMAScript truth of its value",
        arguments: [
            ("''", false), ("'a'", true), ("0", false), ("-1", true), ("NaN", false), ("[]", true), ("({})", true),
            ("null", false), ("undefined", false),
        ]
    )
    func truth(text: String, truth: Bool) throws {
        let session = try Sessions.session([Sessions.source(.condition, text)])
        #expect(try session.isTrue(0) == truth)
    }
}
