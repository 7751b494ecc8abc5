/// A transition ready to fire: everything resolved to indices and typed actions.
/// A class, so `handleEvent` takes one reference instead of copying its arrays.
@usableFromInline
final class CompiledTransition<Event: FSMHashable> {
    @usableFromInline let next: Int
    /// What firing runs, in order: the transition's actions, then (on a state change,
    /// or always under `.executeAlways`) the exit actions of the state it leaves and the
    /// entry actions of the state it enters. Resolved once, when the table is built.
    @usableFromInline let firing: [ActionBody<Event>]
    /// Whether every action in ``firing`` is synchronous, so firing needs no `await`.
    @usableFromInline let isSync: Bool
    @usableFromInline let conditions: [() -> Bool]

    init(next: Int, firing: [ActionBody<Event>], conditions: [() -> Bool]) {
        self.next = next
        self.firing = firing
        self.conditions = conditions
        isSync = firing.allSatisfy(\.isSync)
    }

    /// Whether every `condition { }` of the row holds now.
    @inlinable
    func conditionsHold() -> Bool {
        for condition in conditions where !condition() { return false }
        return true
    }
}
