import Foundation

// What a malformed-XML error adds when its cause is a bare `&` or `<`: the commonest
// mistake in a document with scripts (`a && b`, `i < n`), which XML reads as the start of
// an entity reference or of a tag, and reports in its own terms ("a name is required here").

extension SCXMLParser {
    /// The elements whose text is a script or a value, where `<![CDATA[ ... ]]>` keeps `&`
    /// and `<` as they are.
    static let textElements: Set<String> = ["script", "data", "assign", "content"]

    /// `error` with a hint when it is malformed XML whose cause, at its line and column of
    /// `text`, is a bare `&` or `<`: how to write it (`&amp;`, `&lt;`), and in the text of a
    /// `<script>` (or `<data>`, `<assign>`, `<content>`) that CDATA keeps it as it is.
    /// Only the errors libxml2 (the parser of Foundation's `XMLParser` on Linux) reports for
    /// a bare `&` or `<` get the hint: a name is required (68), an entity reference is not
    /// complete (22, 23), `<` in an attribute value (38).
    static func withEscapingHint(_ error: SCXMLError, in text: Data, openElement: String?, code: Int) -> SCXMLError {
        guard case let .malformedXML(line, column, reason) = error,
            let hint = escapingHint(in: text, line: line, column: column, openElement: openElement, code: code)
        else { return error }
        return .malformedXML(line: line, column: column, reason: reason + "; " + hint)
    }

    /// The hint for an error of libxml2's `code` reported at `line` and `column` (1-based;
    /// libxml2 reports it just past the character it stopped at), or nil when no bare `&` or
    /// `<` stands there.
    static func escapingHint(in text: Data, line: Int, column: Int, openElement: String?, code: Int) -> String? {
        let looksFor: Set<Unicode.Scalar>
        switch code {
        case 68: looksFor = ["&", "<"]
        case 22, 23: looksFor = ["&"]
        case 38: looksFor = ["<"]
        default: return nil
        }
        guard let characters = lineCharacters(text, line: line) else { return nil }
        // The nearest `&` or `<` at or before the reported column, within the token XML
        // tried to read (a name after `<`), never across the end of a tag.
        var index = min(column - 1, characters.count - 1)
        let lowest = max(0, index - 32)
        while index >= lowest, characters[index] != "&", characters[index] != "<" {
            if characters[index] == ">" { return nil }
            index -= 1
        }
        guard index >= lowest, looksFor.contains(characters[index]) else { return nil }
        let rest = String(String.UnicodeScalarView(characters[(index + 1)...]))
        let inAttribute = isInAttribute(characters, before: index)
        let cdata =
            !inAttribute && openElement.map(textElements.contains) == true
            ? " (or put the text of <\(openElement!)> in <![CDATA[ ... ]]>)" : ""
        if characters[index] == "&" {
            // A reference (`&amp;`, `&#38;`), even a broken one, is not a bare `&`.
            guard rest.firstMatch(of: /^(#|[A-Za-z_][A-Za-z0-9._-]*;)/) == nil else { return nil }
            return "a bare '&' must be written '&amp;'\(cdata)"
        }
        let next = rest.unicodeScalars.first
        let previous = index > 0 ? characters[index - 1] : " "
        let startsName = next.map { $0.properties.isAlphabetic || $0 == "_" || $0 == ":" || $0 == "/" } ?? false
        // `a<b`: a `<` right after a name or a number is a comparison, not a tag.
        let afterOperand = previous.properties.isAlphabetic || ("0"..."9").contains(previous) || previous == ")"
        guard inAttribute || !startsName || afterOperand else { return nil }
        return "a '<' that is not a tag must be written '&lt;'\(cdata)"
    }

    /// The characters of the 1-based `line` of `text`, nil when it has fewer lines.
    private static func lineCharacters(_ text: Data, line: Int) -> [Unicode.Scalar]? {
        var current = 1
        var start = text.startIndex
        if line > 1 {
            for position in text.indices where text[position] == UInt8(ascii: "\n") {
                current += 1
                if current == line {
                    start = text.index(after: position)
                    break
                }
            }
            guard current == line else { return nil }
        }
        let end = text[start...].firstIndex(of: UInt8(ascii: "\n")) ?? text.endIndex
        return Array(String(decoding: text[start..<end], as: UTF8.self).unicodeScalars)
    }

    /// Whether `index` is inside a quoted attribute value: going back, a quote that follows
    /// `=` comes before any `>`.
    private static func isInAttribute(_ characters: [Unicode.Scalar], before index: Int) -> Bool {
        var position = index - 1
        while position >= 0 {
            let character = characters[position]
            if character == ">" { return false }
            if character == "\"" || character == "'" {
                var before = position - 1
                while before >= 0, characters[before] == " " { before -= 1 }
                return before >= 0 && characters[before] == "="
            }
            position -= 1
        }
        return false
    }
}
