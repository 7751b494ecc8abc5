import StateMachineECMAScript
import StateMachineHierarchy
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

    /// A session of the sources, whose `In(id)` is true for the states in `active`.
    static func session(
        _ sources: [SCXMLScriptSource],
        limits: ECMAScriptLimits = .standard,
        name: String? = "chart",
        ioProcessors: SCXMLValue = .object(["scxml": .object(["location": .string("#_scxml_s1")])]),
        active: Set<String> = []
    ) throws -> ECMAScriptSession {
        let scripts = try compile(sources, limits: limits)
        let host = SCXMLDataModelHost(
            sessionID: "s1",
            name: name,
            ioProcessors: ioProcessors,
            isActive: { active.contains($0) }
        )
        return try #require(try scripts.makeSession(host) as? ECMAScriptSession)
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
}
