import StateMachineHierarchy
import StateMachineSCXML

/// Values as bytes between Swift and the C half of the data model (the format
/// `CDuktape.h` describes): a tag per value, u32 little-endian lengths and counts, doubles
/// little-endian, strings UTF-8.
package enum ECMAScriptWire {
    /// The bytes of a value.
    static func encode(_ value: SCXMLValue) -> [UInt8] {
        var writer = Writer()
        writer.write(value)
        return writer.bytes
    }

    /// The bytes of an object whose members are `members`, in their order; a nil member is
    /// undefined.
    static func encode(members: [(String, SCXMLValue?)]) -> [UInt8] {
        var writer = Writer()
        writer.bytes.append(UInt8(ascii: "o"))
        writer.write(count: members.count)
        for (key, value) in members {
            writer.write(string: key)
            if let value { writer.write(value) } else { writer.bytes.append(UInt8(ascii: "u")) }
        }
        return writer.bytes
    }

    /// Writes the bytes of `_event` (SCXML 1.0, section 5.10.1) into `bytes`, replacing what
    /// it held: the six string fields in order, each a u32 length and UTF-8 (0xFFFFFFFF when
    /// absent: undefined), then `data` as a value (undefined when absent). Every field
    /// becomes a property.
    package static func encode(_ event: SCXMLEventFields, into bytes: inout [UInt8]) {
        var writer = Writer()
        swap(&writer.bytes, &bytes)
        writer.bytes.removeAll(keepingCapacity: true)
        writer.write(field: event.name)
        writer.write(field: event.type)
        writer.write(field: event.sendID)
        writer.write(field: event.origin)
        writer.write(field: event.originType)
        writer.write(field: event.invokeID)
        if let data = event.data { writer.write(data) } else { writer.bytes.append(UInt8(ascii: "u")) }
        swap(&writer.bytes, &bytes)
    }

    /// The value the bytes hold.
    static func decode(_ bytes: UnsafeRawBufferPointer) throws(SCXMLScriptFailure) -> SCXMLValue {
        var reader = Reader(bytes: bytes)
        let value = try reader.value()
        guard reader.offset == bytes.count else { throw Reader.malformed }
        return value
    }

    struct Writer {
        var bytes: [UInt8] = []

        mutating func write(count: Int) {
            let count = UInt32(truncatingIfNeeded: count).littleEndian
            withUnsafeBytes(of: count) { bytes.append(contentsOf: $0) }
        }

        mutating func write(string: String) {
            var string = string
            string.withUTF8 {
                write(count: $0.count)
                bytes.append(contentsOf: $0)
            }
        }

        /// A field of an event: its string, or 0xFFFFFFFF when absent.
        mutating func write(field: String?) {
            if let field { write(string: field) } else { write(count: Int(UInt32.max)) }
        }

        mutating func write(_ value: SCXMLValue) {
            switch value {
            case .null:
                bytes.append(UInt8(ascii: "n"))
            case .bool(let flag):
                bytes.append(UInt8(ascii: flag ? "t" : "f"))
            case .number(let number):
                bytes.append(UInt8(ascii: "d"))
                withUnsafeBytes(of: number.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
            case .string(let text):
                bytes.append(UInt8(ascii: "s"))
                write(string: text)
            case .array(let elements):
                bytes.append(UInt8(ascii: "a"))
                write(count: elements.count)
                for element in elements { write(element) }
            case .object(let members):
                bytes.append(UInt8(ascii: "o"))
                write(count: members.count)
                for (key, member) in members {
                    write(string: key)
                    write(member)
                }
            }
        }
    }

    struct Reader {
        static let malformed = SCXMLScriptFailure(message: "malformed value bytes from the ECMAScript engine")

        let bytes: UnsafeRawBufferPointer
        var offset = 0

        mutating func byte() throws(SCXMLScriptFailure) -> UInt8 {
            guard offset < bytes.count else { throw Self.malformed }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func count() throws(SCXMLScriptFailure) -> Int {
            guard bytes.count - offset >= 4 else { throw Self.malformed }
            defer { offset += 4 }
            return Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        }

        mutating func string() throws(SCXMLScriptFailure) -> String {
            let length = try count()
            guard bytes.count - offset >= length else { throw Self.malformed }
            defer { offset += length }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length]), as: UTF8.self)
        }

        mutating func value() throws(SCXMLScriptFailure) -> SCXMLValue {
            switch try byte() {
            case UInt8(ascii: "n"), UInt8(ascii: "u"):
                return .null
            case UInt8(ascii: "t"):
                return .bool(true)
            case UInt8(ascii: "f"):
                return .bool(false)
            case UInt8(ascii: "d"):
                guard bytes.count - offset >= 8 else { throw Self.malformed }
                defer { offset += 8 }
                let pattern = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                return .number(Double(bitPattern: pattern))
            case UInt8(ascii: "s"):
                return .string(try string())
            case UInt8(ascii: "a"):
                let count = try count()
                var elements: [SCXMLValue] = []
                elements.reserveCapacity(min(count, bytes.count - offset))
                for _ in 0..<count { elements.append(try value()) }
                return .array(elements)
            case UInt8(ascii: "o"):
                let count = try count()
                var members: [String: SCXMLValue] = [:]
                members.reserveCapacity(min(count, bytes.count - offset))
                for _ in 0..<count {
                    let key = try string()
                    members[key] = try value()
                }
                return .object(members)
            default:
                throw Self.malformed
            }
        }
    }
}
