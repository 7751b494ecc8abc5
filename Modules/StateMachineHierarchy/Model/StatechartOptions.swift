/// Per-chart choices where SCXML's rules differ from TBStateMachine's. The defaults keep
/// TBStateMachine's behaviour (see the article "Semantics and decisions", in the module's
/// documentation: `StateMachineHierarchy.docc/SemanticsAndDecisions.md`).
public struct StatechartOptions: Sendable, Equatable {
    /// The order in which the regions of a parallel state are exited.
    public enum RegionExitOrder: Sendable, Equatable {
        /// Region 0 first, as TBStateMachine does (article "Semantics and decisions":
        /// "Regions exit in index order"). The default.
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
        /// SCXML's selection (W3C SCXML, Appendix D): every active atomic state, in
        /// document order, picks the first enabled handler on its way up to the root;
        /// of two picks whose exit scopes overlap, a pick from a descendant of the other's
        /// source replaces it, else the later one is dropped. Every guard is evaluated
        /// against the configuration before the step, and the picks then run together:
        /// all exits (reverse document order), all actions (in pick order), all entries
        /// (document order). Internal (targetless) transitions exit nothing, so they never
        /// conflict.
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

    /// How an event's name selects handlers.
    public enum EventMatching: Sendable, Equatable {
        /// A handler fires only for the exact event it names. The default.
        case exact
        /// SCXML's event descriptors: a handler for `a.b` also fires for `a.b.c` (its
        /// name followed by `.` and more), and a handler for `*` fires for every event.
        /// Names are compared as text (identifiers through `String(describing:)`);
        /// `a.b.*` and `a.b.` mean `a.b`. Deferral still names exact events.
        case prefix
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

    /// How event names select handlers.
    public var eventMatching: EventMatching

    /// The most microsteps (eventless transitions and done events) one step may take
    /// before it fails with ``StatechartError/eventlessLoop(limit:cycle:)``. At least 1.
    public var maxMicrosteps: Int

    /// The most steps a chart may run in a row on events it queued itself without waiting
    /// (events raised behind the queue, zero-delay sends and timers, its tasks' results)
    /// before an event from outside (or a timer with a delay) comes: past it the chart is
    /// halted with ``StatechartError/selfFeedingLoop(limit:cycle:)``, so that a chart that
    /// keeps feeding itself cannot keep a caller busy or its queue growing forever.
    /// Default 10,000; at least 1.
    public var maxSelfFedSteps: Int = 10_000

    /// Options; the defaults are TBStateMachine's semantics.
    public init(
        regionExitOrder: RegionExitOrder = .indexOrder,
        conflictResolution: ConflictResolution = .everyRegion,
        raisedEventOrder: RaisedEventOrder = .afterQueuedEvents,
        joinSemantics: JoinSemantics = .rememberArrivals,
        eventMatching: EventMatching = .exact,
        maxMicrosteps: Int = 1000
    ) {
        self.regionExitOrder = regionExitOrder
        self.conflictResolution = conflictResolution
        self.raisedEventOrder = raisedEventOrder
        self.joinSemantics = joinSemantics
        self.eventMatching = eventMatching
        self.maxMicrosteps = max(1, maxMicrosteps)
    }

    /// SCXML's semantics: regions exited in reverse document order, SCXML's transition
    /// selection, raised events on an internal queue, simultaneous joins and prefix
    /// event matching. Charts loaded from SCXML documents run with these by default.
    public static var scxml: StatechartOptions {
        StatechartOptions(
            regionExitOrder: .reverseDocumentOrder,
            conflictResolution: .documentOrder,
            raisedEventOrder: .internalQueue,
            joinSemantics: .simultaneous,
            eventMatching: .prefix
        )
    }
}
