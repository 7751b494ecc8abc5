/// Why a state graph, or paths from it, could not be made.
public enum StateGraphError: Error, Equatable, CustomStringConvertible {
    /// `stateGraph(events:)` got an empty event alphabet: nothing could be explored.
    case emptyAlphabet(machine: String)
    /// A bound (`maxDepth`, `maxNodes`, `maxLength`) was not a positive number.
    case invalidBound(name: String, value: Int)
    /// A Core state is not `Hashable` and no `key:` was given to compare states by.
    case unhashableState(typeName: String)
    /// A table was explored before `buildTable` built it.
    case tableNotBuilt
    /// A statechart could not be copied from a configuration, or a step failed while
    /// exploring (`event` from `configuration`).
    case chartFailed(configuration: String, event: String, reason: String)

    /// The problem, naming what and where.
    public var description: String {
        switch self {
        case .emptyAlphabet(let machine):
            "The event alphabet for \(machine) is empty: give at least one event to explore the machine with."
        case .invalidBound(let name, let value):
            "\(name) must be at least 1, not \(value)."
        case .unhashableState(let typeName):
            "The state \(typeName) is not Hashable: make it Hashable, or pass key: to say how to compare states."
        case .tableNotBuilt:
            "The table is not built: call buildTable before exploring it."
        case .chartFailed(let configuration, let event, let reason):
            "Exploring the chart failed on '\(event)' from [\(configuration)]: \(reason)"
        }
    }
}
