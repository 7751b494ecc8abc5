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

    /// What happens when several regions of a parallel state handle the same event.
    public enum ConflictResolution: Sendable, Equatable {
        /// Every region takes its transition, in index order, as TBStateMachine does: a
        /// later region's transition that leaves the parallel state also exits the
        /// states an earlier region just entered. The default.
        case everyRegion
        /// SCXML's rule: within one step, a transition whose exit scope overlaps that of
        /// a transition already taken (in document order) is dropped; the event still
        /// counts as handled. Transitions confined to their own region never conflict,
        /// and internal (targetless) transitions exit nothing, so they never conflict.
        case documentOrder
    }

    /// How the regions of a parallel state are exited, by transitions and by `stop`.
    /// Regions are always entered in index order.
    public var regionExitOrder: RegionExitOrder

    /// How transitions taken by several regions for one event are reconciled.
    public var conflictResolution: ConflictResolution

    /// Options; the defaults are TBStateMachine's semantics.
    public init(regionExitOrder: RegionExitOrder = .indexOrder, conflictResolution: ConflictResolution = .everyRegion) {
        self.regionExitOrder = regionExitOrder
        self.conflictResolution = conflictResolution
    }
}
