/// What the table requires of a state or event type: hashable, so the table can be
/// indexed by it, and sendable, so a built table can describe itself anywhere.
public typealias FSMHashable = Hashable & Sendable
