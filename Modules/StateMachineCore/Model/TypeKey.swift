/// The identity and readable name of a state or event type, as the table stores it.
@usableFromInline
struct TypeKey: Hashable, Sendable {
    @usableFromInline let id: ObjectIdentifier
    @usableFromInline let name: String

    @usableFromInline
    init(_ type: Any.Type) {
        self.id = ObjectIdentifier(type)
        self.name = String(reflecting: type)
    }

    @usableFromInline
    static func == (lhs: TypeKey, rhs: TypeKey) -> Bool { lhs.id == rhs.id }

    @usableFromInline
    func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

extension Array where Element == TypeKey {
    /// The keys with duplicates removed, first-seen order kept.
    @usableFromInline
    func uniqued() -> [TypeKey] {
        var seen = Set<TypeKey>()
        return filter { seen.insert($0).inserted }
    }
}
