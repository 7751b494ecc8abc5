import StateMachineECMAScript
import StateMachineHierarchy
import StateMachineSCXML
import Testing

/// Documents and sessions for the tests: sources by kind, compiled by the ECMAScript data
/// model, and a session of them with a host whose active states the test chooses.
enum Sessions {
    /// A source of `kind` with `text`.
    static func source(_ kind: SCXMLScriptSource.Kind, _ text: String) -> SCXMLScriptSource {
        SCXMLScriptSource(kind: kind, text: text, line: 1, element: "test", attribute: "expr")
    }

    /// The sources compiled with `limits`.
    static func compile(
        _ sources: [SCXMLScriptSource],
        limits: ECMAScriptLimits = .standard
    ) throws(SCXMLScriptFailure) -> any SCXMLCompiledScripts {
        try ECMAScriptDataModel(limits: limits).compile(sources)
    }

    /// The host of the tests' sessions: `_sessionid` "s1", `_name` `name`, and `In(id)` true
    /// for the states in `active`.
    static func host(
        name: String? = "chart",
        ioProcessors: SCXMLValue = .object(["scxml": .object(["location": .string("#_scxml_s1")])]),
        active: Set<String> = []
    ) -> SCXMLDataModelHost {
        SCXMLDataModelHost(sessionID: "s1", name: name, ioProcessors: ioProcessors, isActive: { active.contains($0) })
    }

    /// A session of the sources.
    static func session(
        _ sources: [SCXMLScriptSource],
        limits: ECMAScriptLimits = .standard,
        host: SCXMLDataModelHost = Sessions.host()
    ) throws -> ECMAScriptSession {
        try #require(try compile(sources, limits: limits).makeSession(host) as? ECMAScriptSession)
    }

    /// The value of the expression `text`, in a fresh session that first ran `script`.
    static func evaluate(_ text: String, after script: String? = nil) throws -> SCXMLValue {
        var sources = [source(.value, text)]
        if let script { sources.append(source(.script, script)) }
        let session = try session(sources)
        if script != nil { try session.run(1) }
        return try session.evaluate(0)
    }

    /// The data model failure `body` throws, or nil when it throws none.
    static func failure(_ body: () throws -> Void) -> SCXMLScriptFailure? {
        do {
            try body()
            return nil
        } catch {
            return error as? SCXMLScriptFailure
        }
    }

    /// The message of the failure `body` throws, or nil.
    static func message(_ body: () throws -> Void) -> String? {
        failure(body)?.message
    }
}
