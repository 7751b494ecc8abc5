/// Everything that can go wrong while building or running a ``Statechart``.
///
/// Each case names the state, event, pseudo state or path involved, and
/// ``description`` turns it into one readable sentence.
public enum StatechartError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A state, region, pseudo state or event has an empty name.
    /// `what` says which kind of element it was and `location` where it was declared.
    case emptyName(what: String, location: String)
    /// Two states share one name; paths must be unambiguous, so names are unique per chart.
    case duplicateState(name: String, firstPath: String, secondPath: String)
    /// Two pseudo states share one name.
    case duplicatePseudoState(name: String)
    /// A region (the root, a composite state or one region of a parallel state) has no
    /// states, so it has no initial state to enter.
    case noInitialState(region: String)
    /// The explicit initial state of a region is not one of its states.
    case unknownInitialState(region: String, state: String)
    /// A transition or pseudo state refers to a state that is not in the chart.
    case unknownState(name: String, referencedBy: String)
    /// A transition refers to a fork, join or junction that was never declared.
    case unknownPseudoState(name: String, referencedBy: String)
    /// An internal transition whose target is not its source.
    case internalTransitionTargetMismatch(event: String, source: String, target: String)
    /// A fork or join is configured inconsistently (empty state lists, a region that is not
    /// a parallel state, states outside the region, two fork targets in one region...).
    case invalidCompoundTransition(pseudoState: String, reason: String)
    /// A junction path cannot be used (see `reason`).
    case invalidJunction(junction: String, reason: String)
    /// No outgoing path of a junction had a passing guard when `event` reached it.
    case noOutgoingJunctionPath(junction: String, event: String)
    /// A path could not be parsed or resolved; `component` is the part that failed.
    case invalidPath(path: String, component: String, reason: String)
    /// More than one transition matches a name given to attach a guard or an action.
    case ambiguousTransition(name: String, sources: [String])
    /// No transition has the name given to attach a guard or an action.
    case unknownTransition(name: String)
    /// The JSON document is not valid JSON, or breaks the statechart schema.
    case invalidJSON(StatechartJSONError)
    /// A transition of `source` cannot be used as declared (see `reason`): a final state
    /// with transitions, a done handler for a simple state...
    case invalidTransition(source: String, reason: String)
    /// A history pseudo state is declared where it cannot work (see `reason`).
    case invalidHistory(history: String, reason: String)
    /// Eventless transitions and done events kept firing for `limit` microsteps in one
    /// step; `cycle` names the transitions that repeat.
    case eventlessLoop(limit: Int, cycle: [String])
    /// A snapshot does not fit the chart it is restored into (see `reason`).
    case invalidSnapshot(reason: String)
    /// States nest deeper than ``StatechartLimits/maxNestingDepth``; `path` is the first
    /// state past the limit.
    case nestingTooDeep(path: String, limit: Int)
    /// The chart ran `limit` steps in a row on events it queued itself (zero-delay sends,
    /// raised events, zero-delay timers, its tasks' results) with no event from outside,
    /// and was halted; `cycle` names the events that repeat.
    case selfFeedingLoop(limit: Int, cycle: [String])

    /// A readable sentence naming what is wrong and where.
    public var description: String {
        switch self {
        case .emptyName(let what, let location):
            return "\(what) needs a non-empty name (at \(location))."
        case .duplicateState(let name, let firstPath, let secondPath):
            return "State name '\(name)' is used twice: at '\(firstPath)' and at '\(secondPath)'."
        case .duplicatePseudoState(let name):
            return "Pseudo state name '\(name)' is used twice."
        case .noInitialState(let region):
            return "Region '\(region)' has no states, so it has no initial state."
        case .unknownInitialState(let region, let state):
            return "Initial state '\(state)' is not a state of region '\(region)'."
        case .unknownState(let name, let referencedBy):
            return "Unknown state '\(name)' referenced by \(referencedBy)."
        case .unknownPseudoState(let name, let referencedBy):
            return "Unknown pseudo state '\(name)' referenced by \(referencedBy)."
        case .internalTransitionTargetMismatch(let event, let source, let target):
            return "Internal transition on event '\(event)' from '\(source)' must target its source, not '\(target)'."
        case .invalidCompoundTransition(let pseudoState, let reason):
            return "Ambiguous compound transition attributes for pseudo state '\(pseudoState)': \(reason)."
        case .invalidJunction(let junction, let reason):
            return "Invalid junction '\(junction)': \(reason)."
        case .noOutgoingJunctionPath(let junction, let event):
            return "No outgoing path of junction '\(junction)' has a passing guard for event '\(event)'."
        case .invalidPath(let path, let component, let reason):
            return "Invalid path '\(path)' at component '\(component)': \(reason)."
        case .ambiguousTransition(let name, let sources):
            return
                "Transition name '\(name)' is ambiguous: it is declared on \(sources.map { "'\($0)'" }.joined(separator: ", ")); pass a source path."
        case .unknownTransition(let name):
            return "No transition is named '\(name)'."
        case .invalidJSON(let error):
            return error.description
        case .invalidTransition(let source, let reason):
            return "Invalid transition of '\(source)': \(reason)."
        case .invalidHistory(let history, let reason):
            return "Invalid history '\(history)': \(reason)."
        case .eventlessLoop(let limit, let cycle):
            return
                "Eventless transitions did not settle within \(limit) microsteps; they cycle through \(cycle.map { "'\($0)'" }.joined(separator: ", "))."
        case .invalidSnapshot(let reason):
            return "The snapshot cannot be restored: \(reason)."
        case .nestingTooDeep(let path, let limit):
            return "States nest more than \(limit) deep (at '\(path.suffix(80))')."
        case .selfFeedingLoop(let limit, let cycle):
            return
                "The chart ran \(limit) steps in a row on events it queued itself and was stopped; they cycle through \(cycle.map { "'\($0)'" }.joined(separator: ", "))."
        }
    }
}
