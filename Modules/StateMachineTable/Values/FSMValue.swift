/// A value carried by an event case, or `.any`, a wildcard that equals every value.
///
/// Write events that carry values as cases of `FSMValue`s in an ``EventWithValues``
/// enum; a table row written with `.any` matches the case whatever its value, and the
/// action receives the event with the actual value:
///
/// ```swift
/// enum Event: EventWithValues { case coin(FSMValue<Int>), pass }
/// when(.coin(.any)) | then(.verifyingPayment) | verifyPayment
/// await fsm.handleEvent(.coin(50))
/// ```
///
/// `.any` belongs in tables only. The forwarded operations (arithmetic, comparison,
/// subscripts) stop the program when applied to `.any`, like force-unwrapping `nil`.
public enum FSMValue<T: FSMHashable>: FSMHashable {
    /// A concrete value.
    case some(T)
    /// The wildcard: equal to every value.
    case any

    /// The value, or `nil` for `.any`.
    public var wrappedValue: T? {
        if case .some(let value) = self { value } else { nil }
    }

    /// The value; `.any` here is a programming error, reported with the operation's name.
    @usableFromInline
    func unwrapped(_ operation: String = #function) -> T {
        guard case .some(let value) = self else {
            preconditionFailure("FSMValue.any has no value: \(operation) is invalid on it")
        }
        return value
    }

    /// `.any` equals everything; two values compare their contents.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.some(let left), .some(let right)): left == right
        default: true
        }
    }

    /// Hashes nothing: `.any` equals every value, so every value must hash alike.
    /// Events hash by case name instead (see ``EventWithValues``).
    public func hash(into hasher: inout Hasher) {}
}

extension FSMValue: CustomStringConvertible {
    /// The value's description, or `any`.
    public var description: String {
        switch self {
        case .some(let value): String(describing: value)
        case .any: "any"
        }
    }
}

/// An event enum whose cases carry ``FSMValue``s. It hashes by case name only, so
/// `.coin(.any)` in a table and `.coin(50)` at run time land in the same place and
/// `==` (which treats `.any` as a wildcard) decides.
public protocol EventWithValues: FSMHashable {}

extension EventWithValues {
    /// Hashes the case name, ignoring associated values.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(caseName)
    }

    /// The case name: what `String(describing:)` prints before the first parenthesis.
    var caseName: Substring {
        let text = String(describing: self)
        return text.split(separator: "(", maxSplits: 1, omittingEmptySubsequences: false).first ?? Substring(text)
    }
}
