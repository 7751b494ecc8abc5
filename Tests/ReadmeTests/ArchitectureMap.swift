import Foundation

/// What ARCHITECTURE.md says lives where: the functions and properties a paragraph names in
/// backticks beside the Swift files it names, and a check that a file declares one.
///
/// The rule is deliberately plain, so that it holds for prose: a paragraph is a numbered
/// step, a bullet or a block of text between blank lines; a file is a code span ending in
/// `.swift` (a repository path, a path's last folders or a file name); a declaration is a
/// code span that is a lowercase identifier, optionally after a type and a dot
/// (`MachineCore.enqueue`) and optionally followed by its argument labels (`take(together:)`,
/// `snapshot()`). A paragraph that names no Swift file names no declaration.
enum ArchitectureMap {
    /// A declaration a paragraph names, and the files it may be in.
    struct Reference: CustomStringConvertible {
        /// The code span as written (`MachineCore.enqueue`, `choose(_:)`).
        let span: String
        /// The declaration's base name (`enqueue`, `choose`).
        let name: String
        /// The argument labels, when the span gives them (`["_"]`; `[]` for `snapshot()`).
        let labels: [String]?
        /// The Swift files the paragraph names, relative to the repository's root.
        let files: [String]

        var description: String { span }
    }

    /// The paragraphs of `text`: a heading, a numbered step, a bullet or lines between blank
    /// lines, each joined into one line.
    static func paragraphs(of text: String) -> [String] {
        var paragraphs: [String] = []
        var current: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if trimmed.isEmpty || startsBlock(trimmed), !current.isEmpty {
                paragraphs.append(current.joined(separator: " "))
                current = []
            }
            if !trimmed.isEmpty { current.append(trimmed) }
        }
        if !current.isEmpty { paragraphs.append(current.joined(separator: " ")) }
        return paragraphs
    }

    /// Whether `line` starts a heading, a bullet (`- `) or a numbered step (`4. `).
    static func startsBlock(_ line: Substring) -> Bool {
        if line.hasPrefix("#") || line.hasPrefix("- ") { return true }
        let digits = line.prefix { $0.isASCII && $0.isNumber }
        return !digits.isEmpty && line.dropFirst(digits.count).hasPrefix(". ")
    }

    /// Every declaration `text` names in a paragraph that also names Swift files, with those
    /// files resolved among `swiftFiles` (the repository's Swift files, relative to its root).
    static func references(in text: String, swiftFiles: [String]) -> [Reference] {
        paragraphs(of: text).flatMap { paragraph -> [Reference] in
            let spans = paragraph.split(separator: "`", omittingEmptySubsequences: false)
                .enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            let files = spans.filter { $0.hasSuffix(".swift") }.flatMap { named in
                swiftFiles.filter { $0 == named || $0.hasSuffix("/" + named) }
            }
            guard !files.isEmpty else { return [] }
            return spans.compactMap { span in
                declaration(span).map { Reference(span: span, name: $0.name, labels: $0.labels, files: files) }
            }
        }
    }

    /// The base name and labels of a code span that names a declaration, or nil when it names
    /// something else (a file, a type, a command, an expression).
    static func declaration(_ span: String) -> (name: String, labels: [String]?)? {
        var rest = Substring(span)
        var labels: [String]?
        if rest.hasSuffix(")") {
            guard let open = rest.firstIndex(of: "(") else { return nil }
            let inside = rest[rest.index(after: open)..<rest.index(before: rest.endIndex)]
            guard inside.isEmpty || inside.hasSuffix(":") else { return nil }
            let parsed = inside.split(separator: ":").map(String.init)
            guard parsed.allSatisfy({ $0 == "_" || isIdentifier($0) }) else { return nil }
            labels = parsed
            rest = rest[..<open]
        }
        let parts = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard let name = parts.last, parts.count <= 2, isIdentifier(name), name.first?.isLowercase == true else {
            return nil
        }
        if parts.count == 2 {
            // `When.swift` is a file; `MachineCore.enqueue` a member of a type.
            guard !["swift", "md", "c", "h"].contains(name), let type = parts.first, isIdentifier(type),
                type.first?.isUppercase == true
            else { return nil }
        }
        return (String(name), labels)
    }

    /// Whether `text` is a Swift identifier made of ASCII letters and digits.
    static func isIdentifier(_ text: some StringProtocol) -> Bool {
        guard let first = text.first, first.isASCII, first.isLetter || first == "_" else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }

    /// Whether `source` declares `reference`: a `func` of its name with exactly its labels
    /// when it gives them, otherwise a `func`, `var`, `let` or `case` of its name.
    static func declares(_ source: String, _ reference: Reference) -> Bool {
        let keywords = reference.labels == nil ? ["func", "var", "let", "case"] : ["func"]
        for keyword in keywords {
            var searchStart = source.startIndex
            while let found = source.range(of: keyword + " " + reference.name, range: searchStart..<source.endIndex) {
                searchStart = found.upperBound
                let before = source[..<found.lowerBound].last ?? " "
                let after = source[found.upperBound...].first ?? " "
                guard !isIdentifierCharacter(before), !isIdentifierCharacter(after) else { continue }
                guard let labels = reference.labels else { return true }
                if parameterLabels(source[found.upperBound...]) == labels { return true }
            }
        }
        return false
    }

    static func isIdentifierCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }

    /// The argument labels of the function whose declaration continues with `text` (after
    /// its name: an optional generic clause, then the parameter list); nil when `text` does
    /// not start a parameter list.
    static func parameterLabels(_ text: Substring) -> [String]? {
        var rest = text.drop { $0 == " " }
        if rest.first == "<" {
            guard let close = closingIndex(of: rest, open: "<", close: ">") else { return nil }
            rest = rest[rest.index(after: close)...]
        }
        guard rest.first == "(", let close = closingIndex(of: rest, open: "(", close: ")") else { return nil }
        let list = rest[rest.index(after: rest.startIndex)..<close]
        var parameters: [Substring] = []
        var depth = 0
        var start = list.startIndex
        var previous: Character = " "
        for index in list.indices {
            let character = list[index]
            switch character {
            case "(", "[", "<": depth += 1
            case ")", "]": depth -= 1
            // `->` is no closing angle bracket.
            case ">" where previous != "-": depth -= 1
            case "," where depth == 0:
                parameters.append(list[start..<index])
                start = list.index(after: index)
            default: break
            }
            previous = character
        }
        parameters.append(list[start...])
        return parameters.compactMap { parameter in
            // `_ handlers: [Handler]`, `event: AnyEvent`: the first word before the colon.
            let head = parameter.prefix { $0 != ":" }
            return head.split(whereSeparator: \.isWhitespace).first.map(String.init)
        }
    }

    /// The index of the bracket that closes the one `text` starts with.
    static func closingIndex(of text: Substring, open: Character, close: Character) -> Substring.Index? {
        var depth = 0
        var previous: Character = " "
        for index in text.indices {
            let character = text[index]
            if character == open {
                depth += 1
            } else if character == close, !(close == ">" && previous == "-") {
                depth -= 1
                if depth == 0 { return index }
            }
            previous = character
        }
        return nil
    }
}
