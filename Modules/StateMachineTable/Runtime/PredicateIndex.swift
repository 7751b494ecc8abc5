/// Maps the predicates passed to `handleEvent` to (type, case) indices of the table.
///
/// The usual predicate is a case-only enum, one byte in memory. For such types the
/// case index is read straight from that byte through a 256-entry table made when the
/// table is built (from the type's own `allCases`, so it agrees with `==`); other types,
/// and bytes no case has, go through a dictionary.
@usableFromInline
final class PredicateIndex {
    let types: [PredicateType]
    @usableFromInline let typeIDs: [ObjectIdentifier]
    /// Whether each type is one byte wide.
    @usableFromInline let isOneByte: [Bool]
    /// 256 entries per type: the case index of each possible byte (-1 for none).
    @usableFromInline let byteCases: [Int16]

    init(types: [PredicateType]) {
        self.types = types
        typeIDs = types.map(\.id)
        isOneByte = types.map(\.isOneByte)
        byteCases = types.flatMap { type in
            var table = [Int16](repeating: -1, count: 256)
            guard type.isOneByte else { return table }
            for value in type.cases {
                // `cases` holds the type's own values.
                let predicate = value.base as! any Predicate
                let byte = Self.inlineByte(of: predicate)
                if table[Int(byte)] < 0 { table[Int(byte)] = Int16(type.caseIndex[value]!) }
            }
            return table
        }
    }

    @inlinable var count: Int { typeIDs.count }

    /// The first byte of a one-byte value stored in an existential. Values of up to three
    /// words are stored inline at the start of the existential container (Swift's ABI),
    /// and a one-byte type has no references, so its byte is its whole value.
    static func inlineByte(of predicate: any Predicate) -> UInt8 {
        withUnsafeBytes(of: predicate) { $0[0] }
    }

    /// Writes each passed predicate's case index at its type's position. Types the
    /// table does not use are ignored; for a type passed twice the first value counts.
    @inlinable
    func fill(_ cases: UnsafeMutableBufferPointer<Int>, from predicates: some PassedPredicates) {
        var position = 0
        while position < predicates.count {
            if let type = typeIndex(of: predicates.typeID(at: position)), cases[type] < 0 {
                cases[type] = predicates.caseIndex(at: position, type: type, in: self)
            }
            position &+= 1
        }
    }

    /// The table's index of the type `id`, or nil when the table does not use that type.
    /// Always inlined: it runs once per predicate of every event.
    @inlinable @inline(__always)
    func typeIndex(of id: ObjectIdentifier) -> Int? {
        var type = 0
        while type < typeIDs.count && typeIDs[type] != id { type &+= 1 }
        return type < typeIDs.count ? type : nil
    }

    /// The case index of the one-byte value `byte` of the table's type `type` (-1 for a
    /// byte no case has, or a type wider than a byte).
    @inlinable @inline(__always)
    func `case`(ofByte byte: UInt8, type: Int) -> Int {
        Int(byteCases[type &* 256 &+ Int(byte)])
    }

    /// The case index of `value`, a value of the table's type `type` (-1 for a value no case
    /// of the type has). Always inlined: it runs once per predicate of every event; for a
    /// one-byte type it is one read of a table.
    @inlinable @inline(__always)
    func caseIndex<P: Predicate>(of value: P, type: Int) -> Int {
        if MemoryLayout<P>.size == 1 {
            let found = self.case(ofByte: withUnsafeBytes(of: value) { $0[0] }, type: type)
            if found >= 0 { return found }
        }
        return slowCaseIndex(of: value, type: type)
    }

    /// The dynamic type of the value in the `any Predicate` existential at `existential`,
    /// read in place when the value is a struct or an enum, or nil for other kinds (a
    /// class's dynamic type may be a subclass of the type the existential records).
    ///
    /// Copying the existential out to ask `type(of:)` costs a copy, a runtime call and a
    /// destruction per predicate, most of an eager lookup's time. The layout is Swift's
    /// stable ABI: an opaque existential is three words of inline buffer, then the type's
    /// metadata, then its witness tables; a metadata's first word is its kind (0x200 for a
    /// struct, 0x201 for an enum, 0x202 for an optional), and a value type's metadata is
    /// its dynamic type, what `type(of:)` returns.
    @inlinable
    static func typeID(of existential: UnsafeRawPointer) -> ObjectIdentifier? {
        let metadata = existential.load(
            fromByteOffset: 3 &* MemoryLayout<UnsafeRawPointer>.stride,
            as: UnsafeRawPointer.self
        )
        switch metadata.load(as: UInt.self) {
        case 0x200, 0x201, 0x202: return ObjectIdentifier(unsafeBitCast(metadata, to: Any.Type.self))
        default: return nil
        }
    }

    @usableFromInline
    func slowCaseIndex(of predicate: any Predicate, type: Int) -> Int {
        types[type].caseIndex[Self.hashable(predicate)] ?? -1
    }

    private static func hashable<P: Predicate>(_ predicate: P) -> AnyHashable {
        AnyHashable(predicate)
    }
}

extension PredicateType {
    /// Whether the type's values are one byte wide.
    var isOneByte: Bool {
        guard let first = cases.first?.base as? any Predicate else { return false }
        return Self.size(of: first) == 1
    }

    private static func size<P: Predicate>(of _: P) -> Int { MemoryLayout<P>.size }
}
