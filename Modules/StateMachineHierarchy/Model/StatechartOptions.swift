/// Per-chart choices where SCXML's rules differ from TBStateMachine's. The defaults keep
/// TBStateMachine's behaviour (see `hierarchy.md`, "Our decisions").
public struct StatechartOptions: Sendable, Equatable {
    /// The order in which the regions of a parallel state are exited.
    public enum RegionExitOrder: Sendable, Equatable {
        /// Region 0 first, as TBStateMachine does (hazard H2). The default.
        case indexOrder
        /// The last region first, as SCXML and most UML tools do (reverse document order).
        case reverseDocumentOrder
    }

    /// How the regions of a parallel state are exited, by transitions and by `stop`.
    /// Regions are always entered in index order.
    public var regionExitOrder: RegionExitOrder

    /// Options; the defaults are TBStateMachine's semantics.
    public init(regionExitOrder: RegionExitOrder = .indexOrder) {
        self.regionExitOrder = regionExitOrder
    }
}
