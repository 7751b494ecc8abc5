/// An event a feature can receive.
///
/// Every concrete event is its own type; `SuperEvent` is a phantom tag (usually an empty
/// enum) that identifies the set of events of one feature.
///
/// ```swift
/// enum FeatureEvent {}
/// struct DidRequestLoading: Event {
///     typealias SuperEvent = FeatureEvent
///     let id: String
/// }
/// ```
public protocol Event<SuperEvent>: Sendable, CustomStringConvertible {
    /// The tag type that identifies the set of events.
    associatedtype SuperEvent
}

extension Event {
    /// The type name of the event; override it to show associated values in logs.
    public var description: String { String(describing: Self.self) }
}
