import StateMachineECMAScript
import StateMachineHierarchy
import Testing

/// The bounds a session runs within: time per call, memory per session, recursion; a call
/// that exceeds one fails within the bound, and the session stays usable. The bounds the
/// tests measure against are generous multiples of the limits, since the tests also run
/// under the thread sanitizer.
@Suite("Bounds")
struct BoundsTests {
    /// What a call may take beyond its limit before the test calls the bound broken.
    static let slack = Duration.seconds(2)

    /// Evaluates `text` in `session` and returns its failure's message and how long it took.
    static func timed(_ session: ECMAScriptSession, _ index: Int) -> (String?, Duration) {
        var message: String?
        let elapsed = ContinuousClock().measure { message = Sessions.message { _ = try session.evaluate(index) } }
        return (message, elapsed)
    }

    @Test(
        "a runaway script stops with a RangeError within the time limit, and the next call works",
        arguments: [
            "(function () { while (true) {} })()",
            "(function () { try { while (true) {} } catch (e) { return 'caught' } })()",
            "(function () { try { while (true) {} } finally { while (true) {} } })()",
            "(function f() { return f() })()",
            "/(a+)+b/.test('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')",
            "new Array(1e9).indexOf(1)",
            "new Array(1e9).join('x')",
            "new Array(1e7).sort().length",
            "(function () { var a = []; for (var i = 0; i < 1e6; i++) a = [a]; return 1 })()",
            "(function () { throw {toString: function () { while (true) {} }} })()",
        ]
    )
    func runaway(text: String) throws {
        let session = try Sessions.session([Sessions.source(.value, text), Sessions.source(.value, "1 + 1")])
        let (message, elapsed) = Self.timed(session, 0)
        #expect(message == "RangeError: execution timeout")
        #expect(elapsed >= .milliseconds(100))
        #expect(elapsed < .milliseconds(100) + Self.slack)
        #expect(try session.evaluate(1) == .number(2))
        #expect(session.valueStackDepth == 0)
    }

    @Test("the time limit is the limits' own")
    func shorterLimit() throws {
        let limits = ECMAScriptLimits(timePerCall: .milliseconds(20), memoryPerSession: 16 << 20)
        let session = try Sessions.session(
            [Sessions.source(.value, "(function () { while (true) {} })()")],
            limits: limits
        )
        let (message, elapsed) = Self.timed(session, 0)
        #expect(message == "RangeError: execution timeout")
        #expect(elapsed >= .milliseconds(20))
        #expect(elapsed < .milliseconds(20) + Self.slack)
    }

    @Test("each call has its own time: calls that each run for most of the limit all finish")
    func perCall() throws {
        let session = try Sessions.session([
            Sessions.source(
                .value,
                "(function () { var end = Date.now() + 60; while (Date.now() < end) {} return 1 })()"
            )
        ])
        for _ in 0..<3 { #expect(try session.evaluate(0) == .number(1)) }
    }

    @Test(
        "runaway recursion ends in a RangeError, not a crash",
        arguments: [
            ("(function f() { return 1 + f() })()", "RangeError: callstack limit"),
            ("(function g() { return [1].map(g) })()", "RangeError: C stack depth limit"),
            (
                "(function () { var o = {}; o.toString = function () { return String(this) }; return String(o) })()",
                "RangeError: C stack depth limit"
            ),
            (
                "(function () { var a = []; for (var i = 0; i < 2000; i++) a = [a]; return JSON.stringify(a) })()",
                "RangeError: encode recursion limit"
            ),
            ("JSON.parse(new Array(2000).join('[') + new Array(2000).join(']'))", "RangeError: decode recursion limit"),
        ]
    )
    func recursion(text: String, message: String) throws {
        // A time limit far above what the recursion takes, so that a slow machine (the
        // thread sanitizer, a busy host) still meets the depth limit first.
        let session = try Sessions.session(
            [Sessions.source(.value, text), Sessions.source(.value, "1 + 1")],
            limits: ECMAScriptLimits(timePerCall: .seconds(30), memoryPerSession: 16 << 20)
        )
        #expect(Self.timed(session, 0).0 == message)
        #expect(try session.evaluate(1) == .number(2))
    }

    @Test("deeply nested source is a syntax error, not a crash of the compiler")
    func compilerRecursion() throws {
        let nested = String(repeating: "(", count: 5000) + "1" + String(repeating: ")", count: 5000)
        let session = try Sessions.session([Sessions.source(.value, nested)])
        #expect(Sessions.message { _ = try session.evaluate(0) }?.hasPrefix("RangeError: ") == true)
    }

    @Test(
        "a script that allocates without end fails at the memory limit, and the memory comes back",
        arguments: [
            "(function () { var a = []; for (var i = 0; ; i++) a.push('x'.repeat(1 << 20) + i) })()",
            "'x'.repeat(1e9)",
            "(function () { var s = 'x'; while (true) s = s + s })()",
        ]
    )
    func memory(text: String) throws {
        // Time enough for the memory to run out first, also in a sanitized build.
        let limits = ECMAScriptLimits(timePerCall: .seconds(20), memoryPerSession: 16 << 20)
        let session = try Sessions.session(
            [Sessions.source(.value, text), Sessions.source(.value, "1 + 1")],
            limits: limits
        )
        let before = session.bytesInUse
        let (message, elapsed) = Self.timed(session, 0)
        #expect(message == "Error: alloc failed")
        #expect(elapsed < .seconds(10))
        #expect(try session.evaluate(1) == .number(2))
        #expect(session.bytesInUse < before + 256 * 1024)
    }

    @Test("the memory limit is the limits' own")
    func smallerLimit() throws {
        let limits = ECMAScriptLimits(timePerCall: .milliseconds(100), memoryPerSession: 1 << 20)
        let session = try Sessions.session(
            [Sessions.source(.value, "'x'.repeat(2e6).length"), Sessions.source(.value, "'x'.repeat(2e5).length")],
            limits: limits
        )
        #expect(Sessions.message { _ = try session.evaluate(0) } == "Error: alloc failed")
        #expect(try session.evaluate(1) == .number(2e5))
    }

    @Test("a getter that runs away while a snapshot reads it is stopped too")
    func runawayGetter() throws {
        let session = try Sessions.session([
            Sessions.source(
                .script,
                "Object.defineProperty(this, 'g', {get: function () { while (true) {} }, enumerable: true})"
            )
        ])
        try session.run(0)
        #expect(Sessions.message { _ = try session.variables() } == "RangeError: execution timeout")
    }

    @Test("100,000 calls leave the heap and the value stack as they were")
    func noLeak() throws {
        let session = try Sessions.session([
            Sessions.source(.script, "var x = 0, o = {list: [1, 2, 3]}"), Sessions.source(.condition, "x > 3"),
            Sessions.source(.location, "x"), Sessions.source(.value, "x + 1"), Sessions.source(.value, "o"),
            Sessions.source(.condition, "_event.name == 'go' && _event.data.n >= 0"),
            Sessions.source(.value, "undefined.z"),
        ])
        try session.run(0)
        func round(_ i: Int) throws {
            _ = try session.isTrue(1)
            try session.assign(2, from: 3)
            _ = try session.evaluate(4)
            session.setEvent(
                SCXMLEventFields(
                    name: i % 2 == 0 ? "go" : "stop",
                    type: "external",
                    data: .object(["n": .number(Double(i))])
                )
            )
            _ = try session.isTrue(5)
            _ = Sessions.failure { _ = try session.evaluate(6) }
            try session.assign(2, value: .number(0))
        }
        for i in 0..<1000 { try round(i) }
        let before = session.bytesInUse
        // A round is seven calls. What the heap holds may differ by the current event's
        // strings and the like (tens of bytes), never by what grows with the calls made.
        var sizes: [Int] = []
        for i in 0..<(100_000 / 7) {
            try round(i)
            if i % 2000 == 1999 { sizes.append(session.bytesInUse) }
        }
        #expect(sizes.allSatisfy { abs($0 - before) <= 1024 }, "\(before) then \(sizes)")
        #expect(session.valueStackDepth == 0)
    }
}
