internal import CDuktape
import StateMachineHierarchy
import StateMachineSCXML

/// One session's ECMAScript data: a duktape heap of its own, holding the document's
/// variables, the system variables and the functions it has loaded so far.
///
/// Every method is one protected call into the heap, bounded by the program's limits; a
/// failure is the engine's message (`TypeError: cannot read property 'z' of undefined`),
/// and the heap stays usable after it. `In(id)` calls back into Swift during a call; should
/// the host call the session again from there, the calls nest (each keeps its own time
/// limit, output and error).
package final class ECMAScriptSession: SCXMLDataModelSession {
    private let handle: OpaquePointer
    /// Keeps the bytecode the heap loads from alive.
    private let program: ECMAScriptProgram
    private let host: ECMAScriptSessionHost

    init(program: ECMAScriptProgram, host: SCXMLDataModelHost) throws(SCXMLScriptFailure) {
        let sessionHost = ECMAScriptSessionHost(isActive: host.isActive)
        let system = ECMAScriptWire.encode(members: [
            ("_sessionid", .string(host.sessionID)),
            ("_name", host.name.map(SCXMLValue.string) ?? .null),
            ("_ioprocessors", host.ioProcessors),
        ])
        var message: UnsafeMutablePointer<CChar>?
        let handle = system.withUnsafeBufferPointer {
            scxml_js_session_create(program.pointer, sessionHost.callbacks, $0.baseAddress, $0.count, &message)
        }
        guard let handle else {
            let text = message.map { String(cString: $0) } ?? "the session could not be made"
            scxml_js_free(message)
            throw SCXMLScriptFailure(message: text)
        }
        self.handle = handle
        self.program = program
        self.host = sessionHost
    }

    deinit {
        scxml_js_session_destroy(handle)
    }

    /// The bytes the session's heap holds now (its allocator's count).
    package var bytesInUse: Int { scxml_js_session_memory(handle) }

    /// The values left on the heap's value stack between calls: 0 unless a call leaks.
    package var valueStackDepth: Int { Int(scxml_js_session_stack_depth(handle)) }

    package func evaluate(_ script: Int) throws(SCXMLScriptFailure) -> SCXMLValue {
        try check(scxml_js_evaluate(handle, script))
        return try output()
    }

    package func isTrue(_ script: Int) throws(SCXMLScriptFailure) -> Bool {
        var result: Int32 = 0
        try check(scxml_js_is_true(handle, script, &result))
        return result != 0
    }

    package func assign(_ location: Int, from expression: Int) throws(SCXMLScriptFailure) {
        try check(scxml_js_assign(handle, location, expression))
    }

    package func assign(_ location: Int, value: SCXMLValue) throws(SCXMLScriptFailure) {
        let status = ECMAScriptWire.encode(value).withUnsafeBufferPointer {
            scxml_js_assign_value(handle, location, $0.baseAddress, $0.count)
        }
        try check(status)
    }

    package func run(_ script: Int) throws(SCXMLScriptFailure) {
        try check(scxml_js_run(handle, script))
    }

    package func declare(_ id: String, from expression: Int?) throws(SCXMLScriptFailure) {
        let status = id.withCString { scxml_js_declare(handle, $0, id.utf8.count, expression ?? -1) }
        try check(status)
    }

    package func declare(_ id: String, value: SCXMLValue) throws(SCXMLScriptFailure) {
        let bytes = ECMAScriptWire.encode(value)
        let status = id.withCString { name in
            bytes.withUnsafeBufferPointer {
                scxml_js_declare_value(handle, name, id.utf8.count, $0.baseAddress, $0.count)
            }
        }
        try check(status)
    }

    package func beginForEach(array: Int) throws(SCXMLScriptFailure) -> Int {
        var count = 0
        try check(scxml_js_foreach_begin(handle, array, &count))
        return count
    }

    package func assignForEach(position: Int, item: Int, index: Int?) throws(SCXMLScriptFailure) {
        try check(scxml_js_foreach_step(handle, item, index ?? -1, position))
    }

    package func endForEach() {
        scxml_js_foreach_end(handle)
    }

    package func setEvent(_ event: SCXMLEventFields?) {
        host.event = event
        scxml_js_set_event(handle)
    }

    package func variables() throws(SCXMLScriptFailure) -> [String: SCXMLValue] {
        try check(scxml_js_variables(handle))
        guard case .object(let variables) = try output() else { throw ECMAScriptWire.Reader.malformed }
        return variables
    }

    package func markCode() throws(SCXMLScriptFailure) {
        try check(scxml_js_mark_code(handle))
    }

    package func restore(_ variables: [String: SCXMLValue]) throws(SCXMLScriptFailure) {
        let status = ECMAScriptWire.encode(.object(variables)).withUnsafeBufferPointer {
            scxml_js_restore(handle, $0.baseAddress, $0.count)
        }
        try check(status)
    }

    /// Throws the last call's failure when `status` says it failed.
    private func check(_ status: Int32) throws(SCXMLScriptFailure) {
        guard status != 0 else { return }
        var length = 0
        let text = scxml_js_session_error(handle, &length)
        throw SCXMLScriptFailure(
            message: String(decoding: UnsafeRawBufferPointer(start: text, count: length), as: UTF8.self)
        )
    }

    /// The value the last call wrote.
    private func output() throws(SCXMLScriptFailure) -> SCXMLValue {
        var length = 0
        let bytes = scxml_js_session_output(handle, &length)
        return try ECMAScriptWire.decode(UnsafeRawBufferPointer(start: bytes, count: length))
    }
}
