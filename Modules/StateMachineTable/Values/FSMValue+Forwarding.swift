// FSMValue forwards its wrapped type's literals and operations so values read naturally
// in actions. Operations that produce a value return the wrapped type, not FSMValue.

// The mixed comparisons (an FSMValue with a plain value, either way round) are generic
// global functions rather than static members, and not disfavoured. As disfavoured
// static members (so that `optional == nil` kept meaning Optional's `==` beside the
// nil-literal conformance below), they lost to `AnyHashable`'s `==` wherever the operand
// types are inferred together with a closure: Swift Testing's `#expect(value == plain)`
// expands to `__checkBinaryOperation(value, { $0 == $1() }, plain)`, where both sides
// became `AnyHashable` and `FSMValue.some(1)` and `1` compared unequal. Generic globals
// are preferred to that conversion, and still lose to Optional's `== nil`.

/// Compares an ``FSMValue`` with a plain value; `.any` equals every value.
public func == <T>(lhs: FSMValue<T>, rhs: T) -> Bool { lhs == FSMValue.some(rhs) }
/// Compares a plain value with an ``FSMValue``; `.any` equals every value.
public func == <T>(lhs: T, rhs: FSMValue<T>) -> Bool { FSMValue.some(lhs) == rhs }
/// Whether an ``FSMValue`` differs from a plain value; `.any` differs from none.
public func != <T>(lhs: FSMValue<T>, rhs: T) -> Bool { !(lhs == rhs) }
/// Whether a plain value differs from an ``FSMValue``; `.any` differs from none.
public func != <T>(lhs: T, rhs: FSMValue<T>) -> Bool { !(lhs == rhs) }

extension FSMValue: ExpressibleByIntegerLiteral where T: ExpressibleByIntegerLiteral {
    /// `let i: FSMValue<Int> = 1`.
    public init(integerLiteral value: T.IntegerLiteralType) { self = .some(T(integerLiteral: value)) }
}

extension FSMValue: ExpressibleByFloatLiteral where T: ExpressibleByFloatLiteral {
    /// `let d: FSMValue<Double> = 1.5`.
    public init(floatLiteral value: T.FloatLiteralType) { self = .some(T(floatLiteral: value)) }
}

extension FSMValue: ExpressibleByUnicodeScalarLiteral where T: ExpressibleByUnicodeScalarLiteral {
    /// Forwards unicode scalar literals.
    public init(unicodeScalarLiteral value: T.UnicodeScalarLiteralType) { self = .some(T(unicodeScalarLiteral: value)) }
}

extension FSMValue: ExpressibleByExtendedGraphemeClusterLiteral where T: ExpressibleByExtendedGraphemeClusterLiteral {
    /// Forwards character literals.
    public init(extendedGraphemeClusterLiteral value: T.ExtendedGraphemeClusterLiteralType) {
        self = .some(T(extendedGraphemeClusterLiteral: value))
    }
}

extension FSMValue: ExpressibleByStringLiteral where T: ExpressibleByStringLiteral {
    /// `let s: FSMValue<String> = "1"`.
    public init(stringLiteral value: T.StringLiteralType) { self = .some(T(stringLiteral: value)) }
}

extension FSMValue: ExpressibleByNilLiteral where T: ExpressibleByNilLiteral {
    /// `let o: FSMValue<Int?> = nil` is `.some(nil)`, not `.any`.
    public init(nilLiteral: ()) { self = .some(T(nilLiteral: ())) }
}

extension FSMValue: ExpressibleByArrayLiteral where T: RangeReplaceableCollection {
    /// `let a: FSMValue<[Int]> = [1]`.
    public init(arrayLiteral elements: T.Element...) { self = .some(T(elements)) }
}

extension FSMValue: ExpressibleByDictionaryLiteral where T: FSMDictionaryValue {
    /// `let d: FSMValue<[String: Int]> = ["a": 1]`.
    public init(dictionaryLiteral elements: (T.Key, T.Value)...) { self = .some(T(pairs: elements)) }

    /// The wrapped dictionary's value for `key`.
    public subscript(key: T.Key) -> T.Value? { unwrapped().value(for: key) }
}

/// The dictionaries an ``FSMValue`` can be written as a literal of (`Dictionary`).
public protocol FSMDictionaryValue {
    /// The key type.
    associatedtype Key: Hashable
    /// The value type.
    associatedtype Value
    /// Makes the dictionary from literal pairs; a repeated key keeps its last value.
    init(pairs: [(Key, Value)])
    /// The value for `key`.
    func value(for key: Key) -> Value?
}

extension Dictionary: FSMDictionaryValue {
    /// Makes the dictionary from literal pairs; a repeated key keeps its last value.
    public init(pairs: [(Key, Value)]) { self.init(pairs, uniquingKeysWith: { _, last in last }) }
    /// The value for `key`.
    public func value(for key: Key) -> Value? { self[key] }
}

extension FSMValue: Comparable where T: Comparable {
    /// Orders the wrapped values.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.unwrapped() < rhs.unwrapped() }
}

// Mixed orderings: generic globals, like the mixed `==` above and for the same reason.

/// Orders an ``FSMValue`` against a plain value.
public func < <T: Comparable>(lhs: FSMValue<T>, rhs: T) -> Bool { lhs.unwrapped() < rhs }
/// Orders a plain value against an ``FSMValue``.
public func < <T: Comparable>(lhs: T, rhs: FSMValue<T>) -> Bool { lhs < rhs.unwrapped() }
/// Orders an ``FSMValue`` against a plain value.
public func > <T: Comparable>(lhs: FSMValue<T>, rhs: T) -> Bool { lhs.unwrapped() > rhs }
/// Orders a plain value against an ``FSMValue``.
public func > <T: Comparable>(lhs: T, rhs: FSMValue<T>) -> Bool { lhs > rhs.unwrapped() }

// Only `value + plain` forms exist: `plain + value` forms would make every `x + 1` in a
// program that imports this module also consider `1` as an FSMValue, which slows the
// type checker down for everyone.
extension FSMValue: AdditiveArithmetic where T: AdditiveArithmetic {
    /// The wrapped type's zero.
    public static var zero: Self { .some(.zero) }
    /// Adds the wrapped values.
    public static func + (lhs: Self, rhs: Self) -> Self { .some(lhs.unwrapped() + rhs.unwrapped()) }
    /// Subtracts the wrapped values.
    public static func - (lhs: Self, rhs: Self) -> Self { .some(lhs.unwrapped() - rhs.unwrapped()) }
    /// Adds a plain value, returning a plain value.
    public static func + (lhs: Self, rhs: T) -> T { lhs.unwrapped() + rhs }
    /// Subtracts a plain value, returning a plain value.
    public static func - (lhs: Self, rhs: T) -> T { lhs.unwrapped() - rhs }
}

extension FSMValue where T: RangeReplaceableCollection {
    /// Concatenates with a plain value (`s + "1"`), returning a plain value.
    public static func + (lhs: Self, rhs: T) -> T { lhs.unwrapped() + rhs }
}

extension FSMValue: Sequence where T: RandomAccessCollection {
    /// Iterates the wrapped collection.
    public func makeIterator() -> T.Iterator { unwrapped().makeIterator() }
}

extension FSMValue: Collection, BidirectionalCollection, RandomAccessCollection where T: RandomAccessCollection {
    /// The wrapped collection's start.
    public var startIndex: T.Index { unwrapped().startIndex }
    /// The wrapped collection's end.
    public var endIndex: T.Index { unwrapped().endIndex }
    /// The wrapped collection's element at `position`.
    public subscript(position: T.Index) -> T.Element { unwrapped()[position] }
    /// The index after `i` in the wrapped collection.
    public func index(after i: T.Index) -> T.Index { unwrapped().index(after: i) }
    /// The index before `i` in the wrapped collection.
    public func index(before i: T.Index) -> T.Index { unwrapped().index(before: i) }
}
