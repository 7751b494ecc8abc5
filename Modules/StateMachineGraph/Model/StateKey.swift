/// What exploration compares states by, compared as `AnyHashable` compares (values of
/// different types are different).
package struct StateKey: Hashable, @unchecked Sendable {
    // @unchecked Sendable: `AnyHashable` is not `Sendable`, but every initialiser takes a
    // `Sendable` value (a key, a `Sendable` state, a table state or a chart's state ids), and
    // the box is never mutated, so sharing a key shares only a `Sendable` value.
    private let value: AnyHashable

    /// A key for `value`.
    package init(_ value: any Hashable & Sendable) {
        self.value = AnyHashable(value)
    }

    /// The key of `value` itself, when its type is `Hashable` (the value is `Sendable`).
    package init?(hashing value: any Sendable) {
        guard let hashable = value as? any Hashable else { return nil }
        self.value = AnyHashable(hashable)
    }
}
