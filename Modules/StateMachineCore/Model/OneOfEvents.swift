/// A set of event types of one machine, for routes shared by several events.
///
/// Duplicates are removed and the first-seen order is kept. Two sets are equal when they
/// hold the same types, whatever their order.
public struct OneOfEvents<SuperEvent>: Sendable, Equatable {
    let keys: [TypeKey]

    /// A set of the given event types.
    public init(_ events: any Event<SuperEvent>.Type...) {
        self.init(events)
    }

    /// A set of the event types of a sequence.
    public init<Types: Sequence>(_ events: Types) where Types.Element == any Event<SuperEvent>.Type {
        self.keys = events.map { TypeKey($0) }.uniqued()
    }

    /// A set declared with a builder: `OneOfEvents { DidFailToLoad.self; DidRequestReloading.self }`.
    public init(@OneOfEventsBuilder<SuperEvent> builder: () -> [EventSetType<SuperEvent>]) {
        self.keys = builder().map(\.key).uniqued()
    }

    /// Equal when both sets hold the same types.
    public static func == (lhs: Self, rhs: Self) -> Bool { Set(lhs.keys) == Set(rhs.keys) }
}

/// Builds a list of event types: each line is an event metatype or an ``EventSetType`` token.
@resultBuilder
public enum OneOfEventsBuilder<SuperEvent> {
    /// An event metatype.
    public static func buildExpression<E: Event>(_ type: E.Type) -> [EventSetType<SuperEvent>]
    where E.SuperEvent == SuperEvent {
        [EventSetType(type)]
    }

    /// An event set token.
    public static func buildExpression(_ token: EventSetType<SuperEvent>) -> [EventSetType<SuperEvent>] {
        [token]
    }

    /// The lines of the block, in order.
    public static func buildBlock(_ components: [EventSetType<SuperEvent>]...) -> [EventSetType<SuperEvent>] {
        components.flatMap { $0 }
    }
}
