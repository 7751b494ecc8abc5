#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A parsed JSON document, kept generic so that validation can report every problem
/// with its JSON path instead of stopping at the first decoding failure.
package enum JSONValue: Sendable {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    /// How deeply arrays and objects may nest: a deeper document is a syntax error (as in
    /// Foundation's parsers), so that reading it never exhausts the stack.
    static let maxDepth = 512

    /// Why a document is not JSON, and the byte offset where reading stopped.
    package struct SyntaxError: Error, CustomStringConvertible {
        let offset: Int
        let reason: String
        package var description: String { "\(reason) around character \(offset)" }
    }

    /// Parses RFC 8259 JSON (UTF-8, one value, whitespace around it): one pass over the
    /// bytes, in time and memory linear in the document. A key given twice keeps its last
    /// value.
    /// - Throws: ``SyntaxError`` naming where the document stops being JSON.
    package static func parse(_ data: Data) throws(SyntaxError) -> JSONValue {
        var parser = Parser(bytes: Array(data))
        // A byte-order mark may precede the document.
        if parser.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.position = 3 }
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.position == parser.bytes.count else { throw parser.error("garbage after the document") }
        return value
    }

    /// The recursive-descent reader behind ``parse(_:)``.
    private struct Parser {
        let bytes: [UInt8]
        var position = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        func error(_ reason: String) -> SyntaxError { SyntaxError(offset: position, reason: reason) }

        var current: UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
        }

        mutating func expect(_ literal: String, _ value: JSONValue) throws(SyntaxError) -> JSONValue {
            for byte in literal.utf8 {
                guard current == byte else { throw error("invalid literal, expected '\(literal)'") }
                position += 1
            }
            return value
        }

        mutating func value(depth: Int) throws(SyntaxError) -> JSONValue {
            guard let byte = current else { throw error("unexpected end of file") }
            switch byte {
            case UInt8(ascii: "{"): return try object(depth: depth + 1)
            case UInt8(ascii: "["): return try array(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try expect("true", .bool(true))
            case UInt8(ascii: "f"): return try expect("false", .bool(false))
            case UInt8(ascii: "n"): return try expect("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
            default: throw error("invalid value")
            }
        }

        mutating func object(depth: Int) throws(SyntaxError) -> JSONValue {
            guard depth <= JSONValue.maxDepth else { throw error("too many nested arrays or objects") }
            position += 1
            var members: [String: JSONValue] = [:]
            skipWhitespace()
            if current == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard current == UInt8(ascii: "\"") else { throw error("expected a string key") }
                let key = try string()
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
                position += 1
                skipWhitespace()
                members[key] = try value(depth: depth)
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "}"):
                    position += 1
                    return .object(members)
                default: throw error("expected ',' or '}' in an object")
                }
            }
        }

        mutating func array(depth: Int) throws(SyntaxError) -> JSONValue {
            guard depth <= JSONValue.maxDepth else { throw error("too many nested arrays or objects") }
            position += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                elements.append(try value(depth: depth))
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "]"):
                    position += 1
                    return .array(elements)
                default: throw error("expected ',' or ']' in an array")
                }
            }
        }

        /// A string at `position` (its opening quote), escapes resolved; invalid UTF-8,
        /// unescaped control characters and lone surrogates are errors.
        mutating func string() throws(SyntaxError) -> String {
            position += 1
            var scalars: [UInt8] = []
            var start = position
            while true {
                guard let byte = current else { throw error("unterminated string") }
                switch byte {
                case UInt8(ascii: "\""):
                    if scalars.isEmpty, let text = asciiText(start..<position) {
                        position += 1
                        return text
                    }
                    scalars += bytes[start..<position]
                    position += 1
                    guard let text = String(validating: scalars, as: UTF8.self) else {
                        throw error("invalid UTF-8 in a string")
                    }
                    return text
                case UInt8(ascii: "\\"):
                    scalars += bytes[start..<position]
                    position += 1
                    try escape(into: &scalars)
                    start = position
                case 0..<0x20:
                    throw error("unescaped control character in a string")
                default:
                    position += 1
                }
            }
        }

        /// The bytes in `range` as a string when they are all ASCII, nil otherwise: such bytes
        /// are valid UTF-8 as they are, so they are decoded without a copy and without the
        /// generic validation (names and paths, most of a chart's strings, are ASCII).
        private func asciiText(_ range: Range<Int>) -> String? {
            bytes.withUnsafeBufferPointer { buffer in
                let text = UnsafeBufferPointer(rebasing: buffer[range])
                guard !text.contains(where: { $0 >= 0x80 }) else { return nil }
                return String(decoding: text, as: UTF8.self)
            }
        }

        /// The escape after a backslash, appended to `scalars` as UTF-8.
        mutating func escape(into scalars: inout [UInt8]) throws(SyntaxError) {
            guard let byte = current else { throw error("unterminated string") }
            position += 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(byte)
            case UInt8(ascii: "b"): scalars.append(0x08)
            case UInt8(ascii: "f"): scalars.append(0x0C)
            case UInt8(ascii: "n"): scalars.append(0x0A)
            case UInt8(ascii: "r"): scalars.append(0x0D)
            case UInt8(ascii: "t"): scalars.append(0x09)
            case UInt8(ascii: "u"):
                var code = try hexQuad()
                if (0xD800..<0xDC00).contains(code) {
                    guard current == UInt8(ascii: "\\"), position + 1 < bytes.count,
                        bytes[position + 1] == UInt8(ascii: "u")
                    else { throw error("unpaired surrogate in a string") }
                    position += 2
                    let low = try hexQuad()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate in a string") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(code) {
                    throw error("unpaired surrogate in a string")
                }
                guard let scalar = Unicode.Scalar(code) else { throw error("invalid escape in a string") }
                scalars += Array(String(Character(scalar)).utf8)
            default:
                throw error("invalid escape in a string")
            }
        }

        /// Four hexadecimal digits.
        mutating func hexQuad() throws(SyntaxError) -> UInt32 {
            var code: UInt32 = 0
            for _ in 0..<4 {
                guard let byte = current else { throw error("unterminated string") }
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw error("invalid \\u escape in a string")
                }
                code = code << 4 | UInt32(digit)
                position += 1
            }
            return code
        }

        /// A number in JSON's grammar (`-? int frac? exp?`), read as a `Double`; one too
        /// large for a `Double` is an error, not infinity.
        mutating func number() throws(SyntaxError) -> Double {
            let start = position
            func digits() -> Int {
                let first = position
                while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
                return position - first
            }
            if current == UInt8(ascii: "-") { position += 1 }
            if current == UInt8(ascii: "0") {
                position += 1
            } else if digits() == 0 {
                throw error("invalid number")
            }
            if current == UInt8(ascii: ".") {
                position += 1
                guard digits() > 0 else { throw error("invalid number") }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                position += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
                guard digits() > 0 else { throw error("invalid number") }
            }
            guard let value = Double(String(decoding: bytes[start..<position], as: UTF8.self)), value.isFinite else {
                throw SyntaxError(offset: start, reason: "number out of range")
            }
            return value
        }
    }

    /// A short name of the value's JSON type, for messages.
    var typeName: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}
