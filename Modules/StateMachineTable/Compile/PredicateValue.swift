/// One predicate value with its type kept as data, so rows naming different predicate
/// types can live in one list while the table is compiled.
///
/// A built table keeps every row (diagrams and graph rows read them), so this is as small
/// as it can be: the type and the value itself, inline in the existential (a case-only enum
/// is one byte), 48 bytes; its hashable form and its names are made when asked for, which
/// only building, errors and diagrams do.
struct PredicateValue: Hashable, CustomStringConvertible {
    let type: ObjectIdentifier
    let predicate: any Predicate

    init(_ predicate: any Predicate) {
        type = ObjectIdentifier(Swift.type(of: predicate))
        self.predicate = predicate
    }

    /// The value as the table's case indices look it up.
    var value: AnyHashable { AnyHashable(predicate) }

    /// `Enforcement.weak`, as a user would write it.
    var description: String { "\(Swift.type(of: predicate)).\(predicate)" }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.type == rhs.type && lhs.value == rhs.value }
    func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(value)
    }
}

/// A predicate type used somewhere in a table, with its cases in `allCases` order.
struct PredicateType {
    let id: ObjectIdentifier
    let name: String
    let cases: [AnyHashable]
    let caseIndex: [AnyHashable: Int]

    init(of predicate: any Predicate) {
        id = ObjectIdentifier(Swift.type(of: predicate))
        name = String(describing: Swift.type(of: predicate))
        cases = Self.allCases(of: predicate)
        caseIndex = Dictionary(cases.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    private static func allCases<P: Predicate>(of _: P) -> [AnyHashable] {
        P.allCases.map { AnyHashable($0) }
    }
}
