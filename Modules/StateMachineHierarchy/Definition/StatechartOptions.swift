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

    /// Which states a transition exits and enters around its source and targets.
    public enum TransitionDomain: Sendable, Equatable {
        /// TBStateMachine's: the transition stays inside the least common region of its
        /// source and targets, which may be a region of a parallel state (`x --> x` in one
        /// region exits and enters `x` alone); a transition to a history pseudo state counts
        /// as one to the history's owner, so from inside the owner it exits and re-enters
        /// the owner. The default.
        case leastCommonRegion
        /// SCXML's (W3C, `getTransitionDomain`): the transition stays inside its least
        /// common *compound* ancestor, so a region of a parallel state widens to the
        /// parallel state (`x --> x` exits and enters the parallel state and every region);
        /// a history target counts as the state it leads to, so from inside the history's
        /// owner the owner stays.
        case leastCommonCompoundAncestor
    }

    /// When a parallel state completes and raises its done event.
    public enum ParallelCompletion: Sendable, Equatable {
        /// When the state active in each of its regions is a final state, as a composite
        /// state completes (TBStateMachine's rule for regions). The default.
        case finalStateInEveryRegion
        /// SCXML's (W3C, `isInFinalState`): when the state active in each region is a final
        /// state or is itself in a final state, at any depth (a compound state whose
        /// active child is final; a parallel state all of whose regions are).
        case everyRegionInFinalState
    }

    /// What a chart runs when a final state of its root region is entered (and the chart
    /// finishes: ``Statechart/isFinished``).
    public enum TopLevelFinal: Sendable, Equatable {
        /// Nothing more: the step goes on settling as any other, and the final
        /// configuration stays active until ``Statechart/stop(payload:)`` exits it (its
        /// exit blocks run then). TBStateMachine has no top-level final state to follow,
        /// so the chart keeps what it entered, as the rest of its steps do. The default.
        case keepsConfiguration
        /// SCXML's (W3C, `exitInterpreter`): the microstep that enters the final state is
        /// the last one of the step (the internal events still queued are dropped), and
        /// then the exit blocks of the final configuration run, innermost first, regions
        /// in ``regionExitOrder``, each state leaving the configuration once its block has
        /// run (SCXML's `In()` in a later block no longer sees it). Then the final
        /// configuration is put back, readable as before; observers are not told of exits;
        /// what the blocks raise goes nowhere; a later `stop` tells the observers of the
        /// exits without running the blocks again. Whether anyone
        /// observes the chart (a trace, a debug sink, observers) changes none of this.
        /// Every SCXML session does this, whatever its options say.
        case runsExitBlocks
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

    /// Which states a transition exits and enters.
    public var transitionDomain: TransitionDomain

    /// When a parallel state completes.
    public var parallelCompletion: ParallelCompletion

    /// What reaching a final state of the root region runs.
    public var topLevelFinal: TopLevelFinal = .keepsConfiguration

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
        maxMicrosteps: Int = 1000,
        transitionDomain: TransitionDomain = .leastCommonRegion,
        parallelCompletion: ParallelCompletion = .finalStateInEveryRegion,
        topLevelFinal: TopLevelFinal = .keepsConfiguration
    ) {
        self.regionExitOrder = regionExitOrder
        self.conflictResolution = conflictResolution
        self.raisedEventOrder = raisedEventOrder
        self.joinSemantics = joinSemantics
        self.eventMatching = eventMatching
        self.maxMicrosteps = max(1, maxMicrosteps)
        self.transitionDomain = transitionDomain
        self.parallelCompletion = parallelCompletion
        self.topLevelFinal = topLevelFinal
    }

    /// SCXML's semantics: regions exited in reverse document order, SCXML's transition
    /// selection, raised events on an internal queue, simultaneous joins, prefix event
    /// matching, SCXML's transition domains and parallel completion, and the final
    /// configuration's exit blocks run at a top-level final. Charts loaded from
    /// SCXML documents run with these by default; a chart written in Swift or JSON with
    /// these steps as the same chart read from SCXML.
    public static var scxml: StatechartOptions {
        StatechartOptions(
            regionExitOrder: .reverseDocumentOrder,
            conflictResolution: .documentOrder,
            raisedEventOrder: .internalQueue,
            joinSemantics: .simultaneous,
            eventMatching: .prefix,
            transitionDomain: .leastCommonCompoundAncestor,
            parallelCompletion: .everyRegionInFinalState,
            topLevelFinal: .runsExitBlocks
        )
    }
}
