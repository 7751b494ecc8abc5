/// One action of a transition, entry or exit list, whatever its signature.
///
/// Four signatures are accepted: `() -> Void`, `(Event) -> Void` and their `async`
/// forms. Synchronous actions are called directly in the caller's isolation; async
/// actions are stored as `@isolated(any)` so an actor-isolated method keeps its actor.
/// The event type of an event-taking action is checked once, when the table is built,
/// so `handleEvent` never casts.
///
/// Mix signatures with `&` (`unlock & thankyou`) and make a one-element list with the
/// postfix `*` (`lock*`).
public struct AnyAction {
    @usableFromInline
    enum Base {
        case sync(() -> Void)
        case async(@isolated(any) () async -> Void)
        /// An `(Event) -> Void` or `@isolated(any) (Event) async -> Void`, typed when the table is built.
        case withEvent(Any, eventType: Any.Type, isAsync: Bool)
    }

    let base: Base
    /// The name shown in diagrams, if the user gave one.
    public private(set) var name: String?

    /// Wraps a synchronous action that ignores the event.
    public init(_ action: @escaping () -> Void) {
        base = .sync(action)
    }

    /// Wraps an asynchronous action that ignores the event.
    public init(_ action: @escaping @isolated(any) () async -> Void) {
        base = .async(action)
    }

    /// Wraps a synchronous action that receives the event being handled.
    public init<Event: FSMHashable>(_ action: @escaping (Event) -> Void) {
        base = .withEvent(action, eventType: Event.self, isAsync: false)
    }

    /// Wraps an asynchronous action that receives the event being handled.
    public init<Event: FSMHashable>(_ action: @escaping @isolated(any) (Event) async -> Void) {
        base = .withEvent(action, eventType: Event.self, isAsync: true)
    }

    /// The same action, labelled `name` in ``FSM/dot()`` and ``FSM/mermaid()``
    /// (Swift cannot recover a closure's name at run time).
    public func named(_ name: String) -> AnyAction {
        var copy = self
        copy.name = name
        return copy
    }
}
