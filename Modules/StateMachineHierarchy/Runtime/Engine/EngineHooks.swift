/// What the non-generic engine calls back into: the user's blocks and the subscribers,
/// which are typed with the chart's identifiers and payload.
///
/// The engine calls a hook only when there is something to run (the topology records which
/// states and handlers have blocks), so a step through plain states stays in non-generic code.
protocol EngineHooks: ManualClockTimerTarget {
    /// The engine, held weakly: nil once the chart is gone.
    var engine: StatechartEngine? { get }
    /// Runs the enter block of `state` in the running step of `engine` (its payload is the
    /// engine's `stepPayload`, read only when there is one).
    func enter(_ state: Int32, of engine: StatechartEngine, event: Int32)
    /// Runs the exit block of `state` in the running step of `engine`.
    func exit(_ state: Int32, of engine: StatechartEngine, event: Int32)
    /// Whether the guard of `handler` passes (true when it has none), in the running step
    /// of `engine`.
    func passes(guardOf handler: Int, of engine: StatechartEngine, event: Int32) -> Bool
    /// Runs the action of `handler` in the running step of `engine`.
    func runAction(_ handler: Int, of engine: StatechartEngine, event: Int32)
    /// The first outgoing path of `junction` whose guard passes.
    func junctionPath(_ junction: Int, payload: (any Sendable)?, event: Int32) -> Int?
    /// Runs the action of outgoing path `path` of `junction`.
    func runJunctionAction(_ junction: Int, path: Int, payload: (any Sendable)?, event: Int32)
    /// Posts the notification `tag` of `state` to its subscribers, in the running step of
    /// `engine`.
    func notify(_ tag: NotificationTag, state: Int32, of engine: StatechartEngine, event: Int32)
    /// Starts the state-scoped task of `state`; its result event is queued for the
    /// engine only while `state` is still in `generation`.
    func startTask(of state: Int32, payload: (any Sendable)?, generation: UInt64) -> Task<Void, Never>
    /// Runs the executable content of `region`'s initial transition (SCXML).
    func runInitialAction(of region: Int32, payload: (any Sendable)?, event: Int32)
    /// Runs the executable content of `history`'s default transition (SCXML).
    func runHistoryDefaultAction(of history: Int32, payload: (any Sendable)?, event: Int32)
    /// With `tracesSteps`: an event (by its own name) is about to be processed; external
    /// ones come from the queue, internal ones were raised or are done events.
    func eventStarted(_ name: String, payload: (any Sendable)?, external: Bool)
    /// With `tracesSteps`: a queued request's step ended, and its configuration is published.
    func stepFinished(_ result: Result<StatechartStepOutcome, StatechartError>)
    /// With `tracesStates`: the state named `name` is entered (or exited), before its enter
    /// (or exit) block runs.
    func stateTraced(entered: Bool, name: String)
}

extension EngineHooks {
    /// A delayed transition's timer armed on a manual clock fell due: queued for the
    /// engine, if the chart still exists.
    func timerFired(_ timer: Int32, generation: UInt64, selfFed: Bool) {
        engine?.timerFired(timer, generation: generation, selfFed: selfFed)
    }
}
