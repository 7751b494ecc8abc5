import Foundation
import StateMachineECMAScript
import StateMachineHierarchy
import StateMachineSCXML
import Testing

/// `<data src>`, `<script src>` and a run-time `<invoke srcexpr>` read through the document's
/// source policy: the document of issue 45, which read /etc/passwd into a variable, no
/// longer loads, and a refused `srcexpr` is an `error.execution` naming the rule.
@Suite("ECMAScript documents and the source policy")
struct SourcePolicyTests {
    /// A folder holding `document.scxml` with `text`, and `value.json` beside it.
    struct Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("policy-\(UUID().uuidString)")
        var document: URL { url.appendingPathComponent("document.scxml") }

        init(_ text: String) throws {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: document)
            try Data(#"{"n": 42}"#.utf8).write(to: url.appendingPathComponent("value.json"))
            try Data("var fromScript = 7;".utf8).write(to: url.appendingPathComponent("code.js"))
        }

        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    static let issueDocument = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="s">
          <datamodel><data id="p" src="file:///etc/passwd"/></datamodel>
          <state id="s"><onentry><log label="p" expr="String(p).slice(0,40)"/></onentry></state>
        </scxml>
        """

    @Test("The document of issue 45 fails to load naming <data src=\"file:///etc/passwd\"> and the policy")
    func issueDocumentIsRefused() throws {
        let folder = try Folder(Self.issueDocument)
        defer { folder.remove() }
        #expect {
            _ = try SCXMLDocument.load(contentsOf: folder.document, dataModel: .ecmascript)
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix(#"line 2: <data src="file:///etc/passwd"> refused by the source policy: "#)
                && text.contains("'/etc/passwd' is outside the allowed folders") && !text.contains("root:")
        }
        // Allowed by the program, it loads (and the variable holds the file).
        let allowed = try SCXMLDocument.load(
            contentsOf: folder.document,
            dataModel: .ecmascript,
            sources: .folders([URL(fileURLWithPath: "/etc")])
        )
        let machine = SCXMLInterpreter(document: allowed)
        try machine.start()
        let passwd = try String(contentsOfFile: "/etc/passwd", encoding: .utf8)
        #expect(
            try machine.variables()["p"] == .string(passwd.split(whereSeparator: \.isWhitespace).joined(separator: " "))
        )
    }

    @Test(
        "<data src> and <script src> inside the document's folder are read",
        arguments: ["value.json", "file:value.json"]
    )
    func siblingsAreRead(_ src: String) throws {
        let folder = try Folder(
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
              <datamodel><data id="v" src="\(src)"/></datamodel>
              <script src="code.js"/>
              <state id="s"/>
            </scxml>
            """
        )
        defer { folder.remove() }
        let machine = SCXMLInterpreter(
            document: try SCXMLDocument.load(contentsOf: folder.document, dataModel: .ecmascript)
        )
        try machine.start()
        #expect(try machine.variables()["v"] == .object(["n": .number(42)]))
        #expect(try machine.variables()["fromScript"] == .number(7))
    }

    @Test("<script src> outside the folder is refused naming the element, attribute and line")
    func scriptOutside() throws {
        let folder = try Folder(
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
              <state id="s"><onentry>
                <script src="../\(UUID().uuidString)/code.js"/>
              </onentry></state>
            </scxml>
            """
        )
        defer { folder.remove() }
        #expect {
            _ = try SCXMLDocument.load(contentsOf: folder.document, dataModel: .ecmascript)
        } throws: { error in
            guard case .sourceRefused("script", "src", _, 3, let rule)? = error as? SCXMLError else { return false }
            return rule.contains("is outside the allowed folders")
        }
    }

    @Test("A refused srcexpr raises error.execution naming the rule; an allowed one invokes")
    func sourceExpressionAtRunTime() throws {
        let folder = try Folder(
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="s">
              <datamodel><data id="where" expr="'file:///etc/hostname'"/></datamodel>
              <state id="s">
                <invoke srcexpr="where"/>
                <transition event="error.execution" target="refused"/>
              </state>
              <state id="refused">
                <onentry><assign location="where" expr="'child.scxml'"/></onentry>
                <transition event="retry" target="again"/>
              </state>
              <state id="again">
                <invoke srcexpr="where"/>
                <transition event="done.invoke" target="done"/>
              </state>
              <final id="done"/>
            </scxml>
            """
        )
        defer { folder.remove() }
        try Data(#"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0"><final id="f"/></scxml>"#.utf8)
            .write(to: folder.url.appendingPathComponent("child.scxml"))
        let machine = SCXMLInterpreter(
            document: try SCXMLDocument.load(contentsOf: folder.document, dataModel: .ecmascript),
            clock: ManualStatechartClock()
        )
        try machine.start()
        #expect(machine.activeStates == ["refused"])
        let error = try #require(machine.trace.first { $0.hasPrefix("error:") }, "\(machine.trace)")
        #expect(
            error.hasPrefix(
                #"error:error.execution: line 4: <invoke srcexpr="file:///etc/hostname"> refused by the source policy: '/etc/hostname' is outside the allowed folders"#
            ),
            "\(error)"
        )
        try machine.send("retry")
        #expect(machine.isDone, "\(machine.activeStates) \(machine.trace)")
    }
}
