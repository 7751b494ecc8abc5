import StateMachineECMAScript
import StateMachineHierarchy
import Testing

/// The system variables (`_sessionid`, `_name`, `_ioprocessors`, `_event`), `In(id)`, and
/// the sandbox a session's scripts run in.
@Suite("System variables and the sandbox")
struct SystemVariablesTests {
    @Test("_sessionid, _name and _ioprocessors are the host's")
    func hostValues() throws {
        let session = try Sessions.session([
            Sessions.source(.value, "_sessionid"), Sessions.source(.value, "_name"),
            Sessions.source(.value, "_ioprocessors.scxml.location"),
        ])
        #expect(try session.evaluate(0) == .string("s1"))
        #expect(try session.evaluate(1) == .string("chart"))
        #expect(try session.evaluate(2) == .string("#_scxml_s1"))
    }

    @Test("_name is null when the document has no name")
    func nullName() throws {
        let session = try Sessions.session(
            [Sessions.source(.condition, "_name === null")],
            host: Sessions.host(name: nil)
        )
        #expect(try session.isTrue(0))
    }

    @Test(
        "a system variable cannot be assigned: the assignment fails and the value stays (W3C 322, 329)",
        arguments: [
            ("_sessionid", "TypeError: not writable"),
            ("_name", "TypeError: not writable"),
            ("_ioprocessors", "TypeError: not writable"),
            ("_event", "TypeError: setter undefined"),
            ("In", "TypeError: not writable"),
            ("_event.name", "TypeError: not writable"),
        ]
    )
    func readOnly(location: String, message: String) throws {
        let session = try Sessions.session([
            Sessions.source(.location, location), Sessions.source(.value, "JSON.stringify(\(location))"),
        ])
        session.setEvent(SCXMLEventFields(name: "go", type: "external"))
        let before = try session.evaluate(1)
        #expect(Sessions.message { try session.assign(0, value: .number(27)) } == message)
        #expect(try session.evaluate(1) == before)
    }

    @Test("a script cannot delete or redefine a system variable")
    func scriptCannotRedefine() throws {
        let session = try Sessions.session([
            Sessions.source(.script, "delete _sessionid; _name = 'other'; var _ioprocessors = 1"),
            Sessions.source(.script, "Object.defineProperty(this, '_sessionid', {value: 'x'})"),
            Sessions.source(.value, "[_sessionid, _name, typeof _ioprocessors]"),
        ])
        // Outside strict mode these do nothing, as for any read-only property.
        try session.run(0)
        #expect(Sessions.message { try session.run(1) } == "TypeError: not configurable")
        #expect(try session.evaluate(2) == .array([.string("s1"), .string("chart"), .string("object")]))
    }

    @Test("declaring or restoring a system variable fails")
    func declareSystemVariable() throws {
        let session = try Sessions.session([])
        #expect(
            Sessions.message { try session.declare("_sessionid", value: .number(1)) } == "TypeError: not configurable"
        )
        #expect(Sessions.message { try session.declare("_event", from: nil) } == "TypeError: not configurable")
        #expect(Sessions.message { try session.restore(["_name": .string("x")]) } == "TypeError: not configurable")
    }

    @Test("_event is undefined before the first event and after setEvent(nil)")
    func noEvent() throws {
        let session = try Sessions.session([Sessions.source(.value, "typeof _event")])
        #expect(try session.evaluate(0) == .string("undefined"))
        session.setEvent(SCXMLEventFields(name: "go", type: "internal"))
        #expect(try session.evaluate(0) == .string("object"))
        session.setEvent(nil)
        #expect(try session.evaluate(0) == .string("undefined"))
    }

    @Test("_event has every field of SCXML 1.0 section 5.10.1; an absent one is undefined (W3C 500s)")
    func eventFields() throws {
        let session = try Sessions.session([
            Sessions.source(
                .condition,
                "['name', 'type', 'sendid', 'origin', 'origintype', 'invokeid', 'data'].every(function (k) { return k in _event })"
            ),
            Sessions.source(.value, "[_event.name, _event.type, typeof _event.sendid, typeof _event.data]"),
            Sessions.source(.value, "_event"),
        ])
        session.setEvent(SCXMLEventFields(name: "go", type: "external"))
        #expect(try session.isTrue(0))
        #expect(
            try session.evaluate(1)
                == .array([.string("go"), .string("external"), .string("undefined"), .string("undefined")])
        )
        let full = SCXMLEventFields(
            name: "done.invoke.x",
            type: "external",
            sendID: "send1",
            origin: "#_scxml_s2",
            originType: "scxml",
            invokeID: "x",
            data: .object(["a": .array([.number(1)])])
        )
        session.setEvent(full)
        #expect(
            try session.evaluate(2)
                == .object([
                    "name": .string("done.invoke.x"), "type": .string("external"), "sendid": .string("send1"),
                    "origin": .string("#_scxml_s2"), "origintype": .string("scxml"), "invokeid": .string("x"),
                    "data": .object(["a": .array([.number(1)])]),
                ])
        )
    }

    @Test("_event is frozen: a script's change of a field does nothing")
    func eventFrozen() throws {
        let session = try Sessions.session([
            Sessions.source(.script, "_event.name = 'changed'; _event.extra = 1"),
            Sessions.source(.value, "[_event.name, typeof _event.extra, Object.isFrozen(_event)]"),
        ])
        session.setEvent(SCXMLEventFields(name: "go", type: "external"))
        try session.run(0)
        #expect(try session.evaluate(1) == .array([.string("go"), .string("undefined"), .bool(true)]))
    }

    @Test("one event reads as one object; an event a script kept keeps its fields when the next arrives")
    func eventIdentity() throws {
        let session = try Sessions.session([
            Sessions.source(.location, "kept"), Sessions.source(.value, "_event"),
            Sessions.source(.condition, "kept === _event"),
            Sessions.source(.value, "[kept.name, kept.sendid, kept.data, _event.name, _event.sendid, _event.data]"),
        ])
        try session.declare("kept", from: nil)
        session.setEvent(SCXMLEventFields(name: "first", type: "external", sendID: "a", data: .number(1)))
        try session.assign(0, from: 1)
        #expect(try session.isTrue(2))
        session.setEvent(SCXMLEventFields(name: "second", type: "external"))
        #expect(try session.isTrue(2) == false)
        #expect(
            try session.evaluate(3)
                == .array([.string("first"), .string("a"), .number(1), .string("second"), .null, .null])
        )
    }

    @Test("events whose object no script kept read their own fields, event after event")
    func eventReuse() throws {
        let session = try Sessions.session([
            Sessions.source(.value, "[_event.name, _event.type, _event.sendid, _event.invokeid, _event.data]")
        ])
        let events = [
            SCXMLEventFields(name: "a", type: "external"),
            SCXMLEventFields(name: "a", type: "external"),
            SCXMLEventFields(name: "b", type: "internal", sendID: "s", data: .object(["x": .number(1)])),
            SCXMLEventFields(name: "b", type: "internal", sendID: "s", data: .object(["x": .number(2)])),
            SCXMLEventFields(name: "😀", type: "platform", invokeID: "i"),
            SCXMLEventFields(name: "c", type: "external", data: .null),
            SCXMLEventFields(name: "c", type: "external"),
        ]
        for event in events {
            session.setEvent(event)
            let expected = SCXMLValue.array([
                .string(event.name), .string(event.type), event.sendID.map(SCXMLValue.string) ?? .null,
                event.invokeID.map(SCXMLValue.string) ?? .null, event.data ?? .null,
            ])
            #expect(try session.evaluate(0) == expected)
        }
    }

    @Test("In(id) asks the host whether the state is active, also inside a condition")
    func inState() throws {
        let session = try Sessions.session(
            [
                Sessions.source(.value, "[In('a'), In('b'), In(), In('😀')]"),
                Sessions.source(.condition, "In('a') && !In('b') && x > 1"),
                Sessions.source(.script, "var x = 2"),
            ],
            host: Sessions.host(active: ["a", "😀"])
        )
        #expect(try session.evaluate(0) == .array([.bool(true), .bool(false), .bool(false), .bool(true)]))
        try session.run(2)
        #expect(try session.isTrue(1))
    }

    @Test("the sandbox: no Duktape object, print, alert or require; the standard library and the system variables")
    func sandbox() throws {
        let session = try Sessions.session([
            Sessions.source(.value, "[typeof Duktape, typeof print, typeof alert, typeof require]"),
            Sessions.source(.value, "Object.getOwnPropertyNames(this).sort().join(' ')"),
        ])
        #expect(try session.evaluate(0) == .array(Array(repeating: .string("undefined"), count: 4)))
        #expect(
            try session.evaluate(1)
                == .string(
                    "Array ArrayBuffer Boolean Buffer CBOR DataView Date Error EvalError Float32Array Float64Array "
                        + "Function In Infinity Int16Array Int32Array Int8Array JSON Math NaN Number Object Proxy "
                        + "RangeError ReferenceError Reflect RegExp String Symbol SyntaxError TextDecoder TextEncoder "
                        + "TypeError URIError Uint16Array Uint32Array Uint8Array Uint8ClampedArray _event "
                        + "_ioprocessors _name _sessionid decodeURI decodeURIComponent encodeURI encodeURIComponent "
                        + "escape eval globalThis isFinite isNaN parseFloat parseInt performance undefined unescape"
                )
        )
    }
}
