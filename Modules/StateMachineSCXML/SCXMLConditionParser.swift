import StateMachineHierarchy

/// Reads a `cond` of the null data model into an ``SCXMLDocument/Condition``:
///
///     condition := term ('||' term)*
///     term      := factor ('&&' factor)*
///     factor    := '!' factor | '(' condition ')' | 'true' | 'false' | "In(" quoted-id ")"
///
/// Whitespace is free between tokens. Anything else is an error saying what was expected
/// where (the data models that could say more are not supported).
struct SCXMLConditionParser {
    /// Why a condition is not one the subset supports.
    struct Failure: Error, Equatable {
        let reason: String
    }

    /// Nesting deeper than this is refused (a `cond` is one line, not a program).
    static let maxDepth = 64

    private let text: [Character]
    private var position = 0
    private var depth = 0

    private init(_ text: String) { self.text = Array(text) }

    /// The condition `text` states.
    static func parse(_ text: String) throws(Failure) -> SCXMLDocument.Condition {
        var parser = SCXMLConditionParser(text)
        let condition = try parser.disjunction()
        parser.skipSpaces()
        guard parser.position == parser.text.count else {
            throw parser.failure("expected '&&', '||' or the end")
        }
        return condition
    }

    private mutating func disjunction() throws(Failure) -> SCXMLDocument.Condition {
        var result = try conjunction()
        while take("||") { result = .or(result, try conjunction()) }
        return result
    }

    private mutating func conjunction() throws(Failure) -> SCXMLDocument.Condition {
        var result = try factor()
        while take("&&") { result = .and(result, try factor()) }
        return result
    }

    private mutating func factor() throws(Failure) -> SCXMLDocument.Condition {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { throw failure("nested more than \(Self.maxDepth) levels deep") }
        if take("!") { return .not(try factor()) }
        if take("(") {
            let inner = try disjunction()
            guard take(")") else { throw failure("expected ')'") }
            return inner
        }
        if takeWord("true") { return .constant(true) }
        if takeWord("false") { return .constant(false) }
        if takeWord("In") {
            guard take("(") else { throw failure("expected '(' after In") }
            skipSpaces()
            guard position < text.count, text[position] == "'" || text[position] == "\"" else {
                throw failure("expected a quoted state id")
            }
            let quote = text[position]
            position += 1
            let start = position
            while position < text.count, text[position] != quote { position += 1 }
            guard position < text.count else { throw failure("the state id's quote is not closed") }
            let id = String(text[start..<position])
            guard !id.isEmpty, !id.contains(where: \.isWhitespace) else {
                position = start - 1
                throw failure("In() needs one state id without spaces")
            }
            position += 1
            guard take(")") else { throw failure("expected ')' after the state id") }
            return .inState(id)
        }
        throw failure("expected In('id'), true, false, '!' or '('")
    }

    private mutating func skipSpaces() {
        while position < text.count, text[position].isWhitespace { position += 1 }
    }

    /// Consumes `token` (after spaces) if it comes next.
    private mutating func take(_ token: String) -> Bool {
        skipSpaces()
        let characters = Array(token)
        guard position + characters.count <= text.count,
            Array(text[position..<position + characters.count]) == characters
        else { return false }
        position += characters.count
        return true
    }

    /// Consumes the word `word` if it comes next and is not the start of a longer name.
    private mutating func takeWord(_ word: String) -> Bool {
        let start = position
        guard take(word) else { return false }
        if position < text.count, text[position].isLetter || text[position].isNumber || text[position] == "_" {
            position = start
            return false
        }
        return true
    }

    private func failure(_ expected: String) -> Failure {
        var at = position
        while at < text.count, text[at].isWhitespace { at += 1 }
        let rest = at < text.count ? "at '\(String(text[at...].prefix(20)))'" : "at the end"
        return Failure(reason: "\(expected) \(rest)")
    }
}
