/// The key of the Mealy table: the identity of a concrete state type and of a concrete
/// event type.
///
/// Matching is by exact type: two different types never share a key, and there is no
/// subtyping or wildcard.
public struct TypesIdentifier: Hashable, Sendable {
    @usableFromInline let lhs: ObjectIdentifier
    @usableFromInline let rhs: ObjectIdentifier

    /// A key made of two type identities.
    @inlinable
    public init(lhsIdentifier: ObjectIdentifier, rhsIdentifier: ObjectIdentifier) {
        self.lhs = lhsIdentifier
        self.rhs = rhsIdentifier
    }

    /// The key of the dynamic types of two values.
    @inlinable
    public init(lhsValue: Any, rhsValue: Any) {
        self.init(lhsType: type(of: lhsValue), rhsType: type(of: rhsValue))
    }

    /// The key of two types.
    @inlinable
    public init(lhsType: Any.Type, rhsType: Any.Type) {
        self.init(lhsIdentifier: ObjectIdentifier(lhsType), rhsIdentifier: ObjectIdentifier(rhsType))
    }
}
