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

    /// Where events raised by ``Statechart/Context/raise(_:)`` during a step go.
    public enum RaisedEventOrder: Sendable, Equatable {
        /// At the back of the chart's one queue, behind events already queued, as
        /// TBStateMachine's `scheduleEvent:` does. The default.
        case afterQueuedEvents
        /// SCXML's internal queue: processed right after the step that raised them, in
        /// order, before any queued external event (and before the next external step).
        case internalQueue
    }

    /// When a join fires.
    public enum JoinSemantics: Sendable, Equatable {
        /// TBStateMachine's: each source's handler records its arrival (and consumes its
        /// event); the join fires when the last source arrives, whatever event brought the
        /// others. Leaving the join's parallel state drops a partial join. The default.
        case rememberArrivals
        /// UML's and SCXML's (`cond="In('a') and In('b')"`): a source's handler fires the
        /// join only when every source is active at that moment; otherwise it does not
        /// fire, nothing is remembered, and the event goes on to the next handlers.
        case simultaneous
    }

    /// How the regions of a parallel state are exited, by transitions and by `stop`.
    /// Regions are always entered in index order.
    public var regionExitOrder: RegionExitOrder

    /// How transitions taken by several regions for one event are reconciled.
    public var conflictResolution: ConflictResolution

    /// Where events raised during a step are queued.
    public var raisedEventOrder: RaisedEventOrder

    /// What a partial join does.
    public var joinSemantics: JoinSemantics

    /// The most microsteps (eventless transitions and done events) one step may take
    /// before it fails with ``StatechartError/eventlessLoop(limit:cycle:)``. At least 1.
    public var maxMicrosteps: Int

    /// Options; the defaults are TBStateMachine's semantics.
    public init(
        regionExitOrder: RegionExitOrder = .indexOrder,
        conflictResolution: ConflictResolution = .everyRegion,
        raisedEventOrder: RaisedEventOrder = .afterQueuedEvents,
        joinSemantics: JoinSemantics = .rememberArrivals,
        maxMicrosteps: Int = 1000
    ) {
        self.regionExitOrder = regionExitOrder
        self.conflictResolution = conflictResolution
        self.raisedEventOrder = raisedEventOrder
        self.joinSemantics = joinSemantics
        self.maxMicrosteps = max(1, maxMicrosteps)
    }

    /// SCXML's semantics: regions exited in reverse document order, document-order
    /// conflict resolution, raised events on an internal queue, simultaneous joins.
    public static var scxml: StatechartOptions {
        StatechartOptions(
            regionExitOrder: .reverseDocumentOrder,
            conflictResolution: .documentOrder,
            raisedEventOrder: .internalQueue,
            joinSemantics: .simultaneous
        )
    }
}
