/// The predicates one `handleEvent` call passes, in order, as the table's lookup reads them:
/// each one's type and case index. Every form of `handleEvent` goes through the same lookup
/// (``CompiledTable/transitionIndex(from:on:predicates:)``), generic over this protocol and
/// inlined, so that the fixed-arity forms specialise in the caller's module: a predicate's type
/// is then a constant and its case one byte read, with no existential and no array.
@usableFromInline
protocol PassedPredicates {
    /// How many predicates were passed.
    var count: Int { get }
    /// The dynamic type of predicate `position`, the identity the table's types are matched by.
    func typeID(at position: Int) -> ObjectIdentifier
    /// The case index of predicate `position` in the table's type `type` (which is its type),
    /// or -1 for a value no case of the type has.
    func caseIndex(at position: Int, type: Int, in index: PredicateIndex) -> Int
    /// The predicates as an array, for the debug log of unhandled events.
    var array: [any Predicate] { get }
}

/// The predicates of the variadic and array forms of `handleEvent`, read in place from the
/// array's storage (see ``PredicateIndex/typeID(of:)``).
@usableFromInline
struct PredicateBuffer: PassedPredicates {
    @usableFromInline let buffer: UnsafeBufferPointer<any Predicate>

    @inlinable
    init(_ buffer: UnsafeBufferPointer<any Predicate>) {
        self.buffer = buffer
    }

    @inlinable var count: Int { buffer.count }

    @inlinable @inline(__always)
    func typeID(at position: Int) -> ObjectIdentifier {
        PredicateIndex.typeID(of: UnsafeRawPointer(buffer.baseAddress! + position))
            ?? ObjectIdentifier(type(of: buffer[position]))
    }

    @inlinable @inline(__always)
    func caseIndex(at position: Int, type: Int, in index: PredicateIndex) -> Int {
        if index.isOneByte[type] {
            // The value's byte in place, as `PredicateIndex.inlineByte(of:)` reads it, without
            // copying the existential out of the array.
            let byte = UnsafeRawPointer(buffer.baseAddress! + position).load(as: UInt8.self)
            let found = index.case(ofByte: byte, type: type)
            if found >= 0 { return found }
        }
        return index.slowCaseIndex(of: buffer[position], type: type)
    }

    @usableFromInline var array: [any Predicate] { Array(buffer) }
}

/// No predicates: `handleEvent(_:)`.
@usableFromInline
struct NoPredicates: PassedPredicates {
    @inlinable init() {}
    @inlinable var count: Int { 0 }
    @inlinable func typeID(at position: Int) -> ObjectIdentifier { preconditionFailure("no predicates") }
    @inlinable func caseIndex(at position: Int, type: Int, in index: PredicateIndex) -> Int {
        preconditionFailure("no predicates")
    }
    @usableFromInline var array: [any Predicate] { [] }
}

/// One to three predicates of types known where a fixed-arity form of `handleEvent` is
/// inlined (see ``FSM/handleSynchronously(_:values:_:_:_:)``): unused slots hold
/// ``NoPredicate`` and are not counted.
@usableFromInline
struct PredicateValues<A: Predicate, B: Predicate, C: Predicate>: PassedPredicates {
    @usableFromInline let a: A
    @usableFromInline let b: B
    @usableFromInline let c: C

    @inlinable
    init(_ a: A, _ b: B, _ c: C) {
        self.a = a
        self.b = b
        self.c = c
    }

    /// A constant of the specialised code (the slots' types say it), so that the lookup's
    /// loop over the predicates unrolls.
    @inlinable var count: Int { NoPredicate.count(A.self, B.self, C.self) }

    @inlinable @inline(__always)
    func typeID(at position: Int) -> ObjectIdentifier {
        switch position {
        case 0: ObjectIdentifier(type(of: a))
        case 1: ObjectIdentifier(type(of: b))
        default: ObjectIdentifier(type(of: c))
        }
    }

    @inlinable @inline(__always)
    func caseIndex(at position: Int, type: Int, in index: PredicateIndex) -> Int {
        switch position {
        case 0: index.caseIndex(of: a, type: type)
        case 1: index.caseIndex(of: b, type: type)
        default: index.caseIndex(of: c, type: type)
        }
    }

    @usableFromInline var array: [any Predicate] { Array(([a, b, c] as [any Predicate]).prefix(count)) }
}

/// The filler of ``PredicateValues``' unused slots; never read.
@usableFromInline
enum NoPredicate: Predicate {
    case none

    /// How many of three slots of these types hold predicates: the unused ones, last, hold
    /// `NoPredicate`.
    @inlinable @inline(__always)
    static func count<A, B, C>(_: A.Type, _: B.Type, _: C.Type) -> Int {
        B.self == NoPredicate.self ? 1 : C.self == NoPredicate.self ? 2 : 3
    }
}

extension PredicateBuffer {
    /// Calls `body` with the values of the fixed-arity forms (see ``PredicateValues``) erased
    /// to `any Predicate`, in a buffer on the stack (a tuple of one element type is laid out
    /// as an array of it): no array is allocated.
    @inlinable @inline(__always)
    static func with<A: Predicate, B: Predicate, C: Predicate, Result>(
        _ a: A,
        _ b: B,
        _ c: C,
        _ body: (PredicateBuffer) -> Result
    ) -> Result {
        let count = NoPredicate.count(A.self, B.self, C.self)
        var values: (any Predicate, any Predicate, any Predicate) = (a, b, c)
        return withUnsafePointer(to: &values) { tuple in
            tuple.withMemoryRebound(to: (any Predicate).self, capacity: 3) {
                body(PredicateBuffer(UnsafeBufferPointer(start: $0, count: count)))
            }
        }
    }
}
