/// Maps the predicates passed to `handleEvent` to (type, case) indices of the table.
@usableFromInline
struct PredicateIndex {
    let types: [PredicateType]
    @usableFromInline let typeIDs: [ObjectIdentifier]

    init(types: [PredicateType]) {
        self.types = types
        typeIDs = types.map(\.id)
    }

    @usableFromInline var count: Int { typeIDs.count }

    /// Writes each passed predicate's case index at its type's position. Types the
    /// table does not use are ignored; for a type passed twice the first value counts.
    @usableFromInline
    func fill(_ cases: UnsafeMutableBufferPointer<Int>, from predicates: [any Predicate]) {
        for predicate in predicates {
            let id = ObjectIdentifier(type(of: predicate))
            guard let type = typeIDs.firstIndex(of: id), cases[type] < 0 else { continue }
            cases[type] = types[type].caseIndex[AnyHashable(predicate)] ?? -1
        }
    }
}
