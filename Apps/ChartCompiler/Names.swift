/// Swift names for a chart's states and events: valid identifiers, keywords escaped,
/// collisions resolved in document order by a numeric suffix (`_2`, `_3`, …).
struct SwiftNames {
    private var used: Set<String> = []

    /// Swift's keywords, which a case name must escape with backticks.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
        "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw",
        "switch", "where", "while", "Any", "as", "false", "is", "nil", "self", "Self", "super", "throws", "true",
        "try", "await", "async", "some", "any", "consume", "borrowing", "consuming",
    ]

    /// The words of `text`: its runs of letters and digits (`coin.dollar` → coin, dollar;
    /// `my-state` → my, state), camel humps kept as they are.
    static func words(_ text: String) -> [String] {
        text.split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
    }

    /// `coin.dollar` → `coinDollar`; a name starting with a digit gets a leading `_`.
    static func lowerCamel(_ text: String) -> String {
        let parts = words(text)
        guard let first = parts.first else { return "_" }
        var name = first.prefix(1).lowercased() + first.dropFirst()
        for part in parts.dropFirst() { name += part.prefix(1).uppercased() + part.dropFirst() }
        if name.first?.isNumber == true { name = "_" + name }
        return name
    }

    /// `vending machine` → `VendingMachine`.
    static func upperCamel(_ text: String) -> String {
        let name = lowerCamel(text)
        guard name != "_" else { return "Chart" }
        return name.hasPrefix("_") ? "Chart" + name : name.prefix(1).uppercased() + name.dropFirst()
    }

    /// A case name for `text`, unique among those this value gave.
    mutating func caseName(for text: String) -> String {
        let base = Self.lowerCamel(text)
        var name = base
        var suffix = 2
        while used.contains(name) {
            name = "\(base)_\(suffix)"
            suffix += 1
        }
        used.insert(name)
        return name
    }

    /// `name` as it is written in Swift code (a keyword in backticks).
    static func written(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// `text` as a Swift string literal.
    static func literal(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where scalar.value < 0x20: escaped += "\\u{\(String(scalar.value, radix: 16))}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return "\"\(escaped)\""
    }

    /// `text` as a raw multi-line string literal that holds it exactly: enough `#`s that no
    /// `"""#…` in the text closes it.
    static func rawMultiline(_ text: String) -> String {
        var hashes = "#"
        while text.contains("\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
        var body = text
        if body.hasSuffix("\n") { body.removeLast() }
        return "\(hashes)\"\"\"\n\(body)\n\"\"\"\(hashes)"
    }
}
