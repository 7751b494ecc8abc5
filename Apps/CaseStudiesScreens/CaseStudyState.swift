import StateMachineCore

/// The state of a case study whose machine is not an `AsyncStateMachine` (the Turnstile's
/// table, the Player's statechart), as the `dump` command lists it.
struct CaseStudyState: State, Equatable {
    /// The case study (`Turnstile`).
    let machine: String
    /// Its state or active configuration (`locked`; `active, playing, normal`).
    let configuration: String

    var superState: CaseStudyState { self }

    var description: String { "\(machine) (\(configuration))" }
}
