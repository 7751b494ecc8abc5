import StateMachineECMAScript
import StateMachineHierarchy
import Testing

@Suite("Smoke")
struct SmokeTests {
    @Test("a first evaluation")
    func first() throws {
        let session = try Sessions.session(
            [
                Sessions.source(.script, "var x = 5; function f() { return 1 }"),
                Sessions.source(.condition, "x > 3"),
                Sessions.source(.value, "({a: [1, 'two', null, true], b: x})"),
                Sessions.source(.location, "x"),
                Sessions.source(.value, "x + 1"),
                Sessions.source(.value, "undefined.z"),
                Sessions.source(.value, "y"),
                Sessions.source(.value, "while (true) {}; 1"),
                Sessions.source(.value, "(function () { while (true) {} })()"),
                Sessions.source(.value, "_sessionid + ' ' + _name + ' ' + typeof _event + ' ' + In('a')"),
                Sessions.source(.value, "Object.getOwnPropertyNames(this).join(' ')"),
            ],
            active: ["a"]
        )
        try session.run(0)
        print(try session.isTrue(1))
        print(try session.evaluate(2))
        try session.assign(3, from: 4)
        print(try session.evaluate(4))
        print(Sessions.failure { _ = try session.evaluate(5) } as Any)
        print(Sessions.failure { _ = try session.evaluate(6) } as Any)
        print(Sessions.failure { _ = try session.evaluate(7) } as Any)
        print(Sessions.failure { _ = try session.evaluate(8) } as Any)
        print(try session.evaluate(4))
        print(try session.evaluate(9))
        print(try session.evaluate(10))
        print(Sessions.failure { _ = try session.variables() } as Any)
        print(session.bytesInUse, session.valueStackDepth)
    }
}
