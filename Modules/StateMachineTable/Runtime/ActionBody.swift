/// An action with its event type resolved: what `handleEvent` calls, with no casts.
@usableFromInline
enum ActionBody<Event: FSMHashable> {
    case sync(() -> Void)
    case syncWithEvent((Event) -> Void)
    case async(@isolated(any) () async -> Void)
    case asyncWithEvent(@isolated(any) (Event) async -> Void)

    /// Types an ``AnyAction`` for this table's `Event`, or returns `nil` when it was made
    /// for another event type.
    init?(_ action: AnyAction) {
        switch action.base {
        case .sync(let body): self = .sync(body)
        case .async(let body): self = .async(body)
        case .withEvent(let body, _, isAsync: false):
            guard let typed = body as? (Event) -> Void else { return nil }
            self = .syncWithEvent(typed)
        case .withEvent(let body, _, isAsync: true):
            guard let typed = body as? @isolated(any) (Event) async -> Void else { return nil }
            self = .asyncWithEvent(typed)
        }
    }
}

extension ActionBody {
    var isSync: Bool {
        switch self {
        case .sync, .syncWithEvent: true
        case .async, .asyncWithEvent: false
        }
    }
}
