/// A state of a feature.
///
/// Every concrete state is its own type; the set of states of one feature is the set of
/// types that share a `SuperState`. `superState` derives the aggregate value that users of
/// the machine (a view, a test) care about, so they never need to `switch` over states.
///
/// ```swift
/// struct DataIsLoading: State {
///     let id: String
///     var superState: FeatureState { FeatureState(isLoaded: false, isError: false) }
/// }
/// ```
public protocol State<SuperState>: Sendable, CustomStringConvertible {
    /// The aggregate type that identifies the set of states and that each state derives.
    associatedtype SuperState
    /// The aggregate value derived from this state.
    var superState: SuperState { get }
}

extension State {
    /// The type name of the state; override it to show associated values in logs and dumps.
    public var description: String { String(describing: Self.self) }
}
