/// A value that selects between transitions at `handleEvent` time, beside the event.
///
/// Conforming types are usually case-only enums: `CaseIterable` lets the table expand an
/// unconstrained row over every case of a predicate type used elsewhere in the table.
///
/// ```swift
/// enum Enforcement: Predicate { case weak, strong }
/// ```
public protocol Predicate: FSMHashable, CaseIterable {}
