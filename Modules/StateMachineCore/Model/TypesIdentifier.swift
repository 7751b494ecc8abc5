/// The key of the Mealy table: the identity of a concrete state type and of a concrete
/// event type.
///
/// Matching is by exact type: two different types never share a key, and there is no
/// subtyping or wildcard. Internal: the route table's inlinable lookups are specialised in
/// the user's module, so it is `@usableFromInline` rather than public.
@usableFromInline
struct TypesIdentifier: Hashable, Sendable {
    @usableFromInline let lhs: ObjectIdentifier
    @usableFromInline let rhs: ObjectIdentifier

    /// A key made of two type identities.
    @inlinable
    init(lhsIdentifier: ObjectIdentifier, rhsIdentifier: ObjectIdentifier) {
        self.lhs = lhsIdentifier
        self.rhs = rhsIdentifier
    }

    /// The key of two types.
    @inlinable
    init(lhsType: Any.Type, rhsType: Any.Type) {
        self.init(lhsIdentifier: ObjectIdentifier(lhsType), rhsIdentifier: ObjectIdentifier(rhsType))
    }
}
