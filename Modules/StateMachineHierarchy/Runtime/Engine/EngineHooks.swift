/// Which of a chart's blocks an ``EngineBlockCall`` runs: a state's enter or exit block, a
/// handler's action or guard, or the subscribers of a state entered, exited, or taking an
/// internal transition.
@usableFromInline
package enum EngineBlockKind: Sendable {
    case enter, exit, action, `guard`, entered, exited, internalTransition
}

/// Runs block `index` of `kind` (a state's or a handler's) of the chart whose hooks are
/// `hooks`, in the step `engine` is running, for `event`; a guard's answer (true for the
/// other kinds, and where there is no block). An engine is given this closure and its
/// hooks together, so the closure may take `hooks` to be of the type it was made for.
///
/// The engine calls the chart's enter, exit, guard and action blocks and its subscribers
/// through this closure, made for the chart's types where they are known (see
/// `Statechart.Hooks.callBlocks()`): one indirect call from the step to code specialised
/// for the chart, without a protocol witness or a method of the generic hooks between
/// them. It captures nothing, and the engine lends it the hooks from a constant of its own
/// (`StatechartEngine.blockHooks`), so calling it counts no references. The engine calls it
/// only when there is something to run (the topology records which states and handlers
/// have blocks), so a step through plain states stays in non-generic code.
@usableFromInline
package typealias EngineBlockCall =
    @Sendable (
        _ hooks: AnyObject, _ kind: EngineBlockKind, _ index: Int, _ engine: StatechartEngine,
        _ event: Int32
    ) -> Bool

/// What the non-generic engine calls back into, besides the blocks and subscribers that
/// ``EngineBlockCall`` runs: junction paths, tasks, SCXML's content and step observer,
/// typed with the chart's identifiers and payload.
protocol EngineHooks: ManualClockTimerTarget {
    /// The engine, held weakly: nil once the chart is gone.
    var engine: StatechartEngine? { get }
    /// The first outgoing path of `junction` whose guard passes.
    func junctionPath(_ junction: Int, payload: (any Sendable)?, event: Int32) -> Int?
    /// Runs the action of outgoing path `path` of `junction`.
    func runJunctionAction(_ junction: Int, path: Int, payload: (any Sendable)?, event: Int32)
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
