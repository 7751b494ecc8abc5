/// When a state's entry and exit actions run.
public enum StateActionsPolicy: Sendable {
    /// Entry and exit actions run on every transition, even from a state to itself (SMC's rule).
    case executeAlways
    /// Entry and exit actions run only when the state actually changes (the default).
    case executeOnChangeOnly
}
