/// How a transition treats the states between its source and its target.
///
/// The kinds follow TBStateMachine (and UML). Vocabulary warning: UML's *local* is what
/// SCXML calls `type="internal"`; UML's *internal* is SCXML's targetless transition.
public enum StatechartTransitionKind: String, Sendable, Hashable, CaseIterable {
    /// Exits the source's subtree below the least common ancestor region, then enters
    /// down to the target. A self-transition exits and re-enters the state.
    case external
    /// When the source contains the target (or the target contains the source), the
    /// containing state is neither exited nor re-entered. Without such an ancestry it
    /// behaves as ``external``.
    case local
    /// Runs only the action; nothing is exited or entered. The target must be the source.
    case `internal`
}
