import Foundation
import StateMachineSupport
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The package's one markup escaping function, as the SCXML parser, the step-through page
/// and the W3C converter use it.
@Suite("Markup escaping")
struct MarkupEscapingTests {
    /// A text, where it goes, and what it must become.
    struct Case: Sendable, CustomTestStringConvertible {
        let text: String
        let inAttribute: Bool
        let expected: String

        var testDescription: String { "\(text.debugDescription) in \(inAttribute ? "an attribute" : "text")" }
    }

    @Test(
        "each markup character is escaped, a quote only in an attribute",
        arguments: [
            Case(text: "a & b", inAttribute: true, expected: "a &amp; b"),
            Case(text: "1<2", inAttribute: true, expected: "1&lt;2"),
            Case(text: "2>1", inAttribute: false, expected: "2&gt;1"),
            Case(text: "say \"hi\"", inAttribute: true, expected: "say &quot;hi&quot;"),
            Case(text: "say \"hi\"", inAttribute: false, expected: "say \"hi\""),
            Case(text: "it's", inAttribute: true, expected: "it's"),
            Case(text: "&amp;", inAttribute: true, expected: "&amp;amp;"),
            Case(text: "", inAttribute: true, expected: ""),
        ]
    )
    func escapes(_ example: Case) {
        #expect(markupEscaped(example.text, inAttribute: example.inAttribute) == example.expected)
    }

    @Test("a markup character is escaped even when a combining mark makes it part of a longer character")
    func combiningMarks() {
        // "<" followed by U+0338 is one Character ("≮"); a character-by-character escape
        // would miss it and leave a raw "<" in the output.
        let text = "<\u{338}x>"
        #expect(text.count == 3)
        #expect(markupEscaped(text) == "&lt;\u{338}x&gt;")
    }

    @Test("text without markup characters comes back unchanged, non-ASCII included")
    func plainText() {
        for text in ["plain", "élan vital", "状态机", "tab\tand newline\n", "emoji 🧭"] {
            #expect(markupEscaped(text) == text)
        }
    }

    @Test("an attribute escaped this way reads back as the original value")
    func roundTrip() throws {
        let value = "a<b & c>\"d\" 'e' ≮ \u{1F9ED}"
        let document = "<root key=\"\(markupEscaped(value))\">\(markupEscaped(value, inAttribute: false))</root>"
        let reader = AttributeReader()
        let parser = XMLParser(data: Data(document.utf8))
        parser.delegate = reader
        #expect(parser.parse(), "\(document)")
        #expect(reader.attribute == value)
        #expect(reader.text == value)
    }
}

/// Reads the root's `key` attribute and its text.
private final class AttributeReader: NSObject, XMLParserDelegate {
    var attribute: String?
    var text = ""

    func parser(
        _ parser: XMLParser,
        didStartElement elementName: String,
        namespaceURI: String?,
        qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        attribute = attributes["key"]
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }
}
