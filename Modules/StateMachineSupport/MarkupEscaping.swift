/// `text` escaped for XML and HTML: `&`, `<` and `>` become `&amp;`, `&lt;` and `&gt;`, and,
/// in an attribute value (`inAttribute`, the default), `"` becomes `&quot;`. The package's one
/// escaping function for markup: SCXML content written back as XML, the step-through page's
/// HTML, and the stylesheet the W3C converter writes.
///
/// It reads Unicode scalars, not characters: a markup character followed by a combining mark
/// (`<` then U+0338 is one `Character`, "≮") must still be escaped, or it would open a tag.
/// Text without any of those characters is returned as it is, without a copy. Apostrophes are
/// left alone, so values belong in double quotes.
package func markupEscaped(_ text: String, inAttribute: Bool = true) -> String {
    let needsEscaping = text.utf8.contains { byte in
        byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
            || (inAttribute && byte == UInt8(ascii: "\""))
    }
    guard needsEscaping else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count + 16)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": result += "&amp;"
        case "<": result += "&lt;"
        case ">": result += "&gt;"
        case "\"" where inAttribute: result += "&quot;"
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result
}
