import Foundation
import StateMachineSupport
import Testing

/// The one diagram renderer set escapes text the same way for every product: these tests
/// pin what each format does with the characters that would otherwise end a string, a
/// label or a line.
@Suite("Diagram escaping")
struct DiagramEscapingTests {
    /// Two states joined by one arrow labelled `label`, the first with `note` under it.
    static func diagram(stateName: String = "a", label: String, note: String? = nil) -> Diagram {
        Diagram(
            name: "chart",
            root: Diagram.Region(
                vertices: [
                    Diagram.Vertex(id: stateName, kind: .simple, notes: note.map { [$0] } ?? []),
                    Diagram.Vertex(id: "b", kind: .simple),
                ],
                initial: [stateName]
            ),
            transitions: [Diagram.Transition(source: stateName, target: "b", label: label)]
        )
    }

    /// The arrow line of a rendering (the one with the label).
    static func arrow(_ text: String) -> String? {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.last {
            $0.contains("->") && !$0.contains("[*]")
        }
    }

    @Test(
        "DOT: quotes and backslashes are escaped, line breaks become \\n, the rest stays",
        arguments: [
            (#"say "hi""#, #"say \"hi\""#),
            (#"C:\path"#, #"C:\\path"#),
            (#"\"#, #"\\"#),
            ("line\nbreak", #"line\nbreak"#),
            ("crlf\r\nbreak", #"crlf\nbreak"#),
            ("# ; : { } < >", "# ; : { } < >"),
        ]
    )
    func dotLabels(label: String, escaped: String) {
        // A space pads each side of an arrow's label (opposite arrows' labels stay apart).
        #expect(Self.arrow(Self.diagram(label: label).dot()) == #""a" -> "b" [label=" "# + escaped + #" "];"#)
    }

    @Test("DOT: a state name with quotes and a backslash is one quoted id wherever it appears")
    func dotIDs() {
        let text = Self.diagram(stateName: #"the "x\y" state"#, label: "go").dot()
        let id = #""the \"x\\y\" state""#
        #expect(text.contains("\n    \(id);\n"))
        #expect(text.contains(#"-> "# + id + ";"))
        #expect(Self.arrow(text) == #"\#(id) -> "b" [label=" go "];"#)
    }

    @Test("DOT: notes are further lines of the state's label, escaped like any text")
    func dotNotes() {
        let text = Self.diagram(label: "go", note: #"entry / say "hi""#).dot()
        #expect(text.contains(#"    "a" [label="a\nentry / say \"hi\""];"#))
    }

    @Test(
        "Mermaid: #, quotes, ; and : become entity codes, line breaks spaces, a backslash stays",
        arguments: [
            ("a#b", "a#35;b"),
            (#"say "hi""#, "say #quot;hi#quot;"),
            ("x;y", "x#59;y"),
            ("key: value", "key#58; value"),
            ("line\nbreak", "line break"),
            ("crlf\r\nbreak", "crlf break"),
            (#"C:\path"#, #"C#58;\path"#),
            ("[guard] / action", "[guard] / action"),
        ]
    )
    func mermaidLabels(label: String, escaped: String) {
        #expect(Self.arrow(Self.diagram(label: label).mermaid()) == "a --> b : \(escaped)")
    }

    @Test("Mermaid: a state name that is not an identifier is aliased, its text escaped")
    func mermaidIDs() {
        let text = Self.diagram(stateName: #"a "b": c; #d"#, label: "go").mermaid()
        #expect(text.contains(#"    state "a #quot;b#quot;#58; c#59; #35;d" as a__b___c___d"# + "\n"))
        #expect(text.contains("    [*] --> a__b___c___d\n"))
        #expect(Self.arrow(text) == "a__b___c___d --> b : go")
    }

    @Test("Mermaid: notes are state descriptions, escaped like labels")
    func mermaidNotes() {
        let text = Self.diagram(label: "go", note: "entry / a: b; c").mermaid()
        #expect(text.contains("    a : entry / a#58; b#59; c\n"))
    }

    @Test("Mermaid: names that are keywords or clash after sanitising get distinct identifiers")
    func mermaidNames() {
        let names = MermaidNames(["state", "a-b", "a_b", "1x"])
        #expect(names["state"] == "state_2")
        #expect(names["a_b"] == "a_b")
        #expect(names["a-b"] == "a_b_2")
        #expect(names["1x"] == "_1x")
    }
}
