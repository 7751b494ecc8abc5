import Foundation
import StateMachineSupport

/// A value that crosses between Swift and an SCXML data model: what JSON can hold.
///
/// Event data (`_event.data`), `<param>` and `<content>` values, `<donedata>` and the
/// variables a snapshot keeps are `SCXMLValue`s. A data model value that JSON cannot hold
/// (an ECMAScript function, a cyclic object) does not cross: the data model reports it as
/// an error instead of sending part of it.
public enum SCXMLValue: Sendable, Hashable, Codable, CustomStringConvertible {
    /// JSON's `null` (also what ECMAScript's `undefined` crosses as).
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number (JSON numbers are doubles; non-finite numbers do not cross).
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([SCXMLValue])
    /// An object; its keys are unordered.
    case object([String: SCXMLValue])

    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([SCXMLValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: SCXMLValue].self))
        }
    }

    /// Encodes the value as the JSON value it is.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The value as compact JSON with sorted keys; a string is quoted (`"text"`).
    public var json: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value):
            guard value.isFinite else { return "null" }  // as JSON.stringify writes NaN and infinities
            if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
            return "\(value)"
        case .string(let value): return Self.quoted(value)
        case .array(let values): return "[" + values.map(\.json).joined(separator: ",") + "]"
        case .object(let members):
            let pairs = members.keys.sorted().map { Self.quoted($0) + ":" + members[$0]!.json }
            return "{" + pairs.joined(separator: ",") + "}"
        }
    }

    /// A string as itself, anything else as its ``json`` (what `<log expr>` writes).
    public var description: String {
        if case .string(let text) = self { return text }
        return json
    }

    /// `text` as a JSON string (the one JSON string writer of the package).
    private static func quoted(_ text: String) -> String { StepThroughPage.json(text) }
}

extension SCXMLValue {
    /// The value a parsed JSON document is.
    package init(_ json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .number(let value): self = .number(value)
        case .string(let value): self = .string(value)
        case .array(let values): self = .array(values.map(SCXMLValue.init))
        case .object(let members): self = .object(members.mapValues(SCXMLValue.init))
        }
    }
}
