/// Why an exploration stopped before it had seen every reachable state: which bound, its
/// value, and how many transitions were left out because they lead past it.
///
/// An explored graph keeps every transition between the states it holds (the states within
/// the bound); a transition to a state beyond the bound is dropped and counted here.
public struct StateGraphTruncation: Sendable, Equatable, CustomStringConvertible {
    /// A bound of an exploration.
    public enum Bound: Sendable, Equatable {
        /// `maxDepth`: states more than that many events from the initial one.
        case maxDepth
        /// `maxNodes`: states beyond that many.
        case maxNodes
    }

    /// The bound that stopped exploration (the first one reached).
    public let bound: Bound
    /// The bound's value.
    public let limit: Int
    /// How many transitions lead to states the graph left out.
    public let droppedEdges: Int

    /// A truncation by `bound` at `limit`, with `droppedEdges` transitions left out.
    public init(bound: Bound, limit: Int, droppedEdges: Int) {
        self.bound = bound
        self.limit = limit
        self.droppedEdges = droppedEdges
    }

    /// `maxDepth 3 reached: 2 transitions lead to states not explored`.
    public var description: String {
        let name = bound == .maxDepth ? "maxDepth" : "maxNodes"
        let transitions = droppedEdges == 1 ? "1 transition leads" : "\(droppedEdges) transitions lead"
        return "\(name) \(limit) reached: \(transitions) to states not explored"
    }
}
