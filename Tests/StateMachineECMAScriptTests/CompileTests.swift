import StateMachineECMAScript
import StateMachineHierarchy
import StateMachineSCXML
import Testing

/// Compiling a document's sources, once, at load: which errors reject the document and which
/// are left for the evaluation to report, and that a source is not compiled again.
@Suite("Compiling a document's sources")
struct CompileTests {
    @Test("the data model is named ecmascript")
    func name() {
        #expect(SCXMLDataModel.ecmascript.name == "ecmascript")
    }

    @Test("a <script> that does not parse rejects the document, naming it")
    func scriptSyntaxError() {
        let failure = Sessions.failure {
            _ = try Sessions.compile([
                Sessions.source(.value, "1"),
                Sessions.source(.condition, "true"),
                Sessions.source(.script, "var = ;"),
                Sessions.source(.script, "var ok = 1;"),
            ])
        }
        #expect(failure == SCXMLScriptFailure(index: 2, message: "SyntaxError: invalid variable declaration (line 1)"))
    }

    @Test("a location that does not parse rejects the document, naming it")
    func locationSyntaxError() {
        let failure = Sessions.failure {
            _ = try Sessions.compile([Sessions.source(.value, "1"), Sessions.source(.location, "foo(")])
        }
        #expect(failure == SCXMLScriptFailure(index: 1, message: "SyntaxError: parse error (line 1)"))
    }

    @Test(
        "a value or condition that does not parse fails when it runs, as SCXML requires (W3C 277, 309, 312)",
        arguments: ["return", "1 +", "x y"]
    )
    func deferredSyntaxError(text: String) throws {
        let session = try Sessions.session([Sessions.source(.condition, text), Sessions.source(.value, text)])
        let condition = try #require(Sessions.message { _ = try session.isTrue(0) })
        let value = try #require(Sessions.message { _ = try session.evaluate(1) })
        #expect(condition.hasPrefix("SyntaxError: "))
        #expect(value == condition)
    }

    @Test(
        "a value is one expression: text that closes the wrapper's parenthesis does not compile",
        arguments: ["1); while (true); (1", "1]; while (true); [1", "1; 2", "var x = 1", "1 /* unclosed"]
    )
    func oneExpression(text: String) throws {
        let session = try Sessions.session([Sessions.source(.value, text)])
        let message = try #require(Sessions.message { _ = try session.evaluate(0) })
        #expect(message.hasPrefix("SyntaxError: "))
    }

    @Test(
        "expressions that are one expression evaluate",
        arguments: [
            ("{a: 1}.a", SCXMLValue.number(1)),
            ("{a: 1, b: 2}", .object(["a": .number(1), "b": .number(2)])),
            ("1, 2", .number(2)),
            ("1 // a comment", .number(1)),
            ("'http://example.com/x'", .string("http://example.com/x")),
            ("(1)", .number(1)),
            ("\n 1 +\n 2 \n", .number(3)),
        ]
    )
    func expressions(text: String, value: SCXMLValue) throws {
        #expect(try Sessions.evaluate(text) == value)
    }

    @Test(
        "an empty or blank condition is true, as uSCXML takes a transition with cond=\"\"",
        arguments: ["", "  \n\t"]
    )
    func emptyCondition(text: String) throws {
        let session = try Sessions.session([Sessions.source(.condition, text)])
        #expect(try session.isTrue(0))
        #expect(try session.evaluate(0) == .bool(true))
    }

    @Test("an empty value is a syntax error, reported when it runs")
    func emptyValue() throws {
        let session = try Sessions.session([Sessions.source(.value, "")])
        #expect(Sessions.message { _ = try session.evaluate(0) }?.hasPrefix("SyntaxError: ") == true)
    }

    @Test("a source's function is loaded once per session and called again, never compiled again")
    func compiledOnce() throws {
        // `arguments.callee` is the source's own function: a count kept on it survives
        // from one evaluation to the next only if the same function runs each time.
        let count = Sessions.source(.value, "arguments.callee.calls = (arguments.callee.calls || 0) + 1")
        let scripts = try Sessions.compile([count])
        let first = try scripts.makeSession(Sessions.host())
        #expect(try first.evaluate(0) == .number(1))
        #expect(try first.evaluate(0) == .number(2))
        #expect(try first.evaluate(0) == .number(3))
        // Another session of the same document has a heap, and so a function, of its own.
        let second = try scripts.makeSession(Sessions.host())
        #expect(try second.evaluate(0) == .number(1))
        #expect(try first.evaluate(0) == .number(4))
    }

    @Test("sessions of one document do not share variables")
    func independentSessions() throws {
        let scripts = try Sessions.compile([Sessions.source(.script, "var x = 1"), Sessions.source(.value, "typeof x")])
        let first = try scripts.makeSession(Sessions.host())
        let second = try scripts.makeSession(Sessions.host())
        try first.run(0)
        #expect(try first.evaluate(1) == .string("number"))
        #expect(try second.evaluate(1) == .string("undefined"))
    }

    @Test("a <script>'s top-level var and function declarations become globals")
    func scriptGlobals() throws {
        let session = try Sessions.session([
            Sessions.source(.script, "var a = 1; function next() { return a + 1 }"),
            Sessions.source(.value, "next()"),
            Sessions.source(.value, "typeof next + ' ' + ('a' in this)"),
        ])
        try session.run(0)
        #expect(try session.evaluate(1) == .number(2))
        #expect(try session.evaluate(2) == .string("function true"))
    }

    @Test("a document whose session cannot fit in the memory limit fails to load, naming no source")
    func tooLittleMemory() {
        let failure = Sessions.failure {
            _ = try Sessions.compile(
                [Sessions.source(.value, "1")],
                limits: ECMAScriptLimits(timePerCall: .milliseconds(100), memoryPerSession: 50_000)
            )
        }
        #expect(failure == SCXMLScriptFailure(index: nil, message: "out of memory"))
    }

    @Test("a session that cannot fit in the memory limit is not made")
    func sessionTooLarge() throws {
        // The scratch heap of compiling fits in 120 KB; a session's heap, with the system
        // variables and a large _ioprocessors, does not.
        let limits = ECMAScriptLimits(timePerCall: .milliseconds(100), memoryPerSession: 120_000)
        let scripts = try Sessions.compile([Sessions.source(.value, "1")], limits: limits)
        let large = SCXMLValue.string(String(repeating: "x", count: 200_000))
        let message = Sessions.message { _ = try scripts.makeSession(Sessions.host(ioProcessors: large)) }
        #expect(message == "Error: alloc failed")
    }
}
