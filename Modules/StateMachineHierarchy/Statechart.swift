/// A UML statechart with TBStateMachine's semantics: nested and parallel states,
/// fork/join/junction pseudo states, external/local/internal transitions ordered by
/// their least common ancestor, and run-to-completion steps fed by one event queue;
/// plus shallow and deep history, final states and done events, eventless and delayed
/// transitions, state-scoped tasks, deferred events and snapshots.
///
/// - `StateID` names states (strings, enums, any `Hashable & Sendable` value); names must
///   be unique within a chart so that paths and targets are unambiguous.
/// - `EventID` names events; `Payload` is the optional data every event carries to the
///   guards, actions, enter and exit blocks of its step.
///
/// ```swift
/// typealias Chart = Statechart<String, String, Int>
/// let chart = try Chart(name: "main") {
///     Chart.State("idle").on("go", to: "busy")
///     Chart.State("busy").on("done", to: "idle")
/// }
/// chart.start()
/// try chart.handle("go")
/// ```
///
/// **Threading.** One queue, owned by the chart, holds events, `start` and `stop`. Whoever
/// finds the queue idle drains it: `handle` and `send` on the caller's thread or task,
/// `schedule` (and events raised inside steps while idle) on a new task. Steps never
/// overlap and run in FIFO order, so every method here may be called from any thread.
public final class Statechart<StateID: Hashable & Sendable, EventID: Hashable & Sendable, Payload: Sendable>: Sendable {
    @usableFromInline package let engine: StatechartEngine
    @usableFromInline package let hooks: Hooks
    /// The chart's event table (the model's), here so that the inlinable `handle` and `send`
    /// look names up in code specialised for `EventID`.
    @usableFromInline let eventIndices: [EventID: Int32]
    /// The same table probed by bytes, for a chart whose events are `String`s (see
    /// `EventNameIndex`); nil for other event types.
    @usableFromInline let eventNameIndex: EventNameIndex?
    /// The declaration the chart was compiled from (kept for diagrams). A copy can be
    /// refined (``Definition/onEnter(at:_:)``, ``Definition/addTransition(from:on:to:kind:action:guard:)-(_,_,String,_,_,_)``,
    /// ...) and compiled into another chart, so that a variant of a chart needs no second copy.
    public let definition: Definition
    var model: Model { hooks.model }
    var topology: Topology { engine.topology }

    /// Compiles `definition`, checking every rule: unique non-empty names, non-empty
    /// regions, existing targets, well-formed forks, joins, junctions and histories.
    /// - Throws: ``StatechartError`` naming the state, event or pseudo state at fault.
    /// `options` picks, per chart, the places where SCXML's rules differ from
    /// TBStateMachine's; the default keeps TBStateMachine's behaviour. `clock` runs the
    /// timers of delayed transitions (a ``ManualStatechartClock`` in tests).
    @inlinable
    public convenience init(
        _ definition: Definition,
        options: StatechartOptions = StatechartOptions(),
        clock: any StatechartClock = .continuous
    ) throws {
        // Inlinable, as is every public initialiser, so that the chart's blocks are called
        // from code specialised for its types (see `Hooks.callBlocks()`).
        try self.init(definition, options: options, clock: clock, callBlock: Hooks.callBlocks())
    }

    /// Compiles `definition`; `callBlock` runs the blocks (``Hooks/callBlocks()``, made where
    /// the chart's types are known).
    @usableFromInline
    convenience init(
        _ definition: Definition,
        options: StatechartOptions,
        clock: any StatechartClock,
        callBlock: @escaping EngineBlockCall
    ) throws {
        try self.init(definition, options: options, clock: clock, stepObserver: nil, callBlock: callBlock)
    }

    /// Compiles `definition`; `stepObserver` follows every step (see `StatechartStepObserver`),
    /// and `callBlock` runs the blocks.
    package init(
        _ definition: Definition,
        options: StatechartOptions,
        clock: any StatechartClock,
        stepObserver: (any StatechartStepObserver)?,
        callBlock: @escaping EngineBlockCall
    ) throws {
        let model = try definition.compiledModel(options: options)
        self.definition = definition
        eventIndices = model.eventIndex
        eventNameIndex = model.eventNameIndex
        let observers = ObserverRegistry(states: model.ids.count)
        hooks = Hooks(model: model, observers: observers, stepObserver: stepObserver)
        engine = StatechartEngine(
            topology: model.topology,
            hooks: hooks,
            blockCall: callBlock,
            subscriptions: observers.count,
            options: options,
            clock: clock,
            sendsEvents: definition.isSCXMLSession,
            tracesSteps: stepObserver != nil,
            reportsEverySteps: stepObserver?.wantsEveryStepEnd ?? true,
            reportsEventStarts: stepObserver?.wantsEventStarts ?? false,
            tracesStates: stepObserver?.wantsStateTraces ?? false
        )
        hooks.engine = engine
    }

    /// Declares and compiles a chart in one go; see ``Definition/init(name:initial:_:)``
    /// and, for `options` and `clock`, ``init(_:options:clock:)``.
    @inlinable
    public convenience init(
        name: String,
        initial: StateID? = nil,
        options: StatechartOptions = StatechartOptions(),
        clock: any StatechartClock = .continuous,
        @StatesBuilder _ states: () -> [Element]
    ) throws {
        try self.init(Definition(name: name, initial: initial, states), options: options, clock: clock)
    }

    /// The options the chart was created with.
    public var options: StatechartOptions { engine.options }

    /// The root region's name.
    public var name: String { topology.name }

    // MARK: Lifecycle

    /// Enters the initial states, deeply (TBStateMachine's `setUp:`); `payload` reaches
    /// their enter blocks. Does nothing if the chart is already running. Runs on the
    /// caller's thread unless a step is in progress, in which case it is queued.
    public func start(payload: Payload? = nil) {
        _ = engine.submit { QueueItem(request: .start, payload: payload, completion: $0 ? .inline : nil) }
    }

    /// Drops every queued event and exits the active states, children before parents and
    /// regions in index order (TBStateMachine's `tearDown:`). Dropped events' waiters get
    /// ``StatechartStepOutcome/discarded``. Runs on the caller's thread unless a step is
    /// in progress, in which case it runs right after that step.
    public func stop(payload: Payload? = nil) {
        engine.submitStop(payload: payload)
    }

    /// Whether the chart has been started and not stopped, as of the last completed step.
    public var isRunning: Bool { engine.isRunning }

    /// Whether a final state of the root region is active (the chart has completed), as of
    /// the last completed step. Events are still accepted, but a final state handles none.
    public var isFinished: Bool { engine.isFinished }

    // MARK: Events

    /// Handles `event` synchronously, for single-threaded use: when no step is in progress
    /// it runs this event's step (and anything it raises) on the caller's thread and
    /// returns its outcome. Called during a step (from an action, or while another thread
    /// drains), it queues the event behind the current step and returns ``StatechartStepOutcome/queued``.
    /// - Throws: ``StatechartError`` if the step fails (no junction path passes) or the
    ///   event's name is empty.
    @discardableResult
    public func handle(_ event: Event) throws -> StatechartStepOutcome {
        let resolved = try resolve(event.name)
        return try handle(resolved, payload: event.payload)
    }

    /// Handles the event `name` with `payload`; see ``handle(_:)``.
    ///
    /// Cost: one lookup of `name` in the chart's event table (a hash of `name`; of its UTF-8
    /// bytes for `String` names, a few nanoseconds for a short one), then the step. Resolve
    /// a name once with ``resolve(_:)`` to skip the lookup on every call.
    @inlinable
    @discardableResult
    public func handle(_ name: EventID, payload: Payload? = nil) throws -> StatechartStepOutcome {
        if let index = listedIndex(of: name) {
            if let outcome = try runIfIdle(index, payload: payload) { return outcome }
            return try handleQueued(event: index, name: nil, payload: payload)
        }
        return try handle(Event(name, payload: payload))
    }

    /// Handles an event resolved with ``resolve(_:)``, with `payload`; see ``handle(_:)``.
    ///
    /// The fastest way in: an idle chart runs the step on the caller's thread without a
    /// queue entry, a lookup or an allocation (a plain chart allocates nothing per event).
    @inlinable
    @discardableResult
    public func handle(_ event: ResolvedEvent, payload: Payload? = nil) throws -> StatechartStepOutcome {
        guard event.chart == ObjectIdentifier(engine) else { return try handle(foreign: event, payload: payload) }
        if let outcome = try runIfIdle(event, payload: payload) { return outcome }
        return try handleQueued(event: event.index, name: event.unlisted, payload: payload)
    }

    /// Handles `event`, resolved by another chart, by its name. Out of line, so that
    /// `handle` of this chart's own resolved events carries none of the name's lookup.
    @inlinable @inline(never)
    func handle(foreign event: ResolvedEvent, payload: Payload?) throws -> StatechartStepOutcome {
        try handle(Event(event.name, payload: payload))
    }

    /// The index of `name` in the chart's event table, nil when no handler uses it: for
    /// `String` names by their bytes first (see `EventNameIndex`), then by the dictionary,
    /// which also finds a name spelled with other but canonically equivalent code points.
    @inlinable @inline(__always)
    func listedIndex(of name: EventID) -> Int32? {
        EventNameIndex.index(of: name, in: eventNameIndex, eventIndices)
    }

    /// The engine's fast path (see `StatechartEngine.runIfIdle`) for an event of the table,
    /// through its cheapest entry when there is no payload.
    @inlinable @inline(__always)
    func runIfIdle(_ index: Int32, payload: Payload?) throws(StatechartError) -> StatechartStepOutcome? {
        if payload == nil { return try engine.runIfIdle(event: index) }
        return try engine.runIfIdle(event: index, name: nil, payload: payload)
    }

    /// The engine's fast path for a resolved event: its cheapest entry when the event has
    /// neither a payload nor a name of its own (`unlisted` is read only when it has one).
    @inlinable @inline(__always)
    func runIfIdle(_ event: ResolvedEvent, payload: Payload?) throws(StatechartError) -> StatechartStepOutcome? {
        if event.isListed { return try runIfIdle(event.index, payload: payload) }
        return try engine.runIfIdle(event: event.index, name: event.unlisted, payload: payload)
    }

    /// The slow path of `handle`: another step is in progress, so the event is queued, and
    /// run here if the queue turns idle first.
    @usableFromInline
    func handleQueued(event index: Int32, name: String?, payload: (any Sendable)?) throws -> StatechartStepOutcome {
        let request = StepRequest.event(index: index, name: name)
        guard
            let result = engine.submit({ QueueItem(request: request, payload: payload, completion: $0 ? .inline : nil) }
            )
        else {
            return .queued
        }
        return try result.get()
    }

    /// Queues `event` and waits until its run-to-completion step has finished.
    ///
    /// Events from concurrent senders are processed one at a time in the order they were
    /// queued. When the queue is idle the step runs in the calling task, without
    /// suspending. Cancelling the waiting task does not withdraw the event.
    /// - Returns: whether a handler fired, or ``StatechartStepOutcome/discarded`` if the
    ///   chart was not running or was stopped first.
    @discardableResult
    public func send(_ event: Event) async throws -> StatechartStepOutcome {
        let resolved = try resolve(event.name)
        return try await send(resolved, payload: event.payload)
    }

    /// Sends the event `name` with `payload`; see ``send(_:)``.
    @inlinable
    @discardableResult
    public func send(_ name: EventID, payload: Payload? = nil) async throws -> StatechartStepOutcome {
        if let index = listedIndex(of: name) {
            if let outcome = try runIfIdle(index, payload: payload) { return outcome }
            return try await sendQueued(event: index, name: nil, payload: payload)
        }
        return try await send(Event(name, payload: payload))
    }

    /// Sends an event resolved with ``resolve(_:)``, with `payload`; see ``send(_:)``.
    @inlinable @inline(__always)
    @discardableResult
    public func send(_ event: ResolvedEvent, payload: Payload? = nil) async throws -> StatechartStepOutcome {
        // Always inlined: an idle chart's step then runs in the caller's own async frame,
        // with no call frame of its own to allocate and leave.
        if event.chart == ObjectIdentifier(engine), let outcome = try runIfIdle(event, payload: payload) {
            return outcome
        }
        return try await sendSlowly(event, payload: payload)
    }

    /// The rest of ``send(_:payload:)-(Statechart<StateID,EventID,Payload>.ResolvedEvent,_)``:
    /// another chart's event is sent by name; this chart's, while it is busy, is queued.
    @usableFromInline
    func sendSlowly(_ event: ResolvedEvent, payload: Payload?) async throws -> StatechartStepOutcome {
        guard event.chart == ObjectIdentifier(engine) else {
            return try await send(Event(event.name, payload: payload))
        }
        return try await sendQueued(event: event.index, name: event.unlisted, payload: payload)
    }

    /// The slow path of `send`: queues the event and waits for its step.
    @usableFromInline
    func sendQueued(event index: Int32, name: String?, payload: (any Sendable)?) async throws -> StatechartStepOutcome {
        let request = StepRequest.event(index: index, name: name)
        return try await withCheckedThrowingContinuation { continuation in
            if let result = engine.submit({ _ in
                QueueItem(request: request, payload: payload, completion: .continuation(continuation))
            }) {
                continuation.resume(with: result.mapError { $0 as any Error })
            }
        }
    }

    /// Queues `event` without waiting (TBStateMachine's `scheduleEvent:`). If the queue is
    /// idle a new task drains it. `completion`, if given, runs right after the event's step,
    /// on the thread that ran it, with the outcome or the step's error.
    public func schedule(
        _ event: Event,
        completion: (@Sendable (Result<StatechartStepOutcome, StatechartError>) -> Void)? = nil
    ) {
        let request: StepRequest
        do {
            request = try hooks.request(for: event)
        } catch {
            completion?(.failure(error))
            return
        }
        engine.enqueue(
            QueueItem(request: request, payload: event.payload, completion: completion.map { .callback($0) })
        )
    }

    /// Queues the event `name` with `payload`; see ``schedule(_:completion:)``.
    public func schedule(
        _ name: EventID,
        payload: Payload? = nil,
        completion: (@Sendable (Result<StatechartStepOutcome, StatechartError>) -> Void)? = nil
    ) {
        schedule(Event(name, payload: payload), completion: completion)
    }

    // MARK: Configuration

    /// The active states, in document order, as of the last completed step.
    public var activeStates: [StateID] {
        let snapshot = engine.publishedConfiguration()
        var active: [StateID] = []
        collect(region: 0, snapshot: snapshot, into: &active)
        return active
    }

    func collect(region: Int32, snapshot: [Int32], into active: inout [StateID]) {
        let state = snapshot[Int(region)]
        guard state >= 0 else { return }
        active.append(model.ids[Int(state)])
        for inner in topology.states[Int(state)].regions {
            collect(region: inner, snapshot: snapshot, into: &active)
        }
    }

    /// Whether `state` is active, as of the last completed step.
    public func isActive(_ state: StateID) -> Bool {
        guard let index = model.stateIndex[state] else { return false }
        let parent = topology.states[Int(index)].parent
        return engine.publishedState(ofRegion: parent) == index
    }

    /// The active child of the composite state at `path`, or of region `region` of the
    /// parallel state at `path`; nil when that region is not active.
    /// - Throws: ``StatechartError/invalidPath(path:component:reason:)`` for a bad path or region.
    public func activeChild(of path: String, region: Int = 0) throws -> StateID? {
        let index = try stateIndex(atPath: path)
        let regions = topology.states[Int(index)].regions
        guard region >= 0, region < regions.count else {
            throw StatechartError.invalidPath(
                path: path,
                component: "@\(region)",
                reason: "'\(topology.states[Int(index)].name)' has \(regions.count) regions"
            )
        }
        let active = engine.publishedState(ofRegion: regions[region])
        return active >= 0 ? model.ids[Int(active)] : nil
    }

    /// The identifier of the state at `path`, such as `b/b2/b21` or `c/c2@1/c222`.
    /// - Throws: ``StatechartError/invalidPath(path:component:reason:)`` naming the component
    ///   that is unknown, lacks its `@index`, or has an index out of range.
    public func state(at path: String) throws -> StateID {
        model.ids[Int(try stateIndex(atPath: path))]
    }

    /// The path of `state`, or nil if it is not in this chart.
    public func path(of state: StateID) -> String? {
        model.stateIndex[state].map { topology.states[Int($0)].path }
    }

    func stateIndex(atPath text: String) throws -> Int32 {
        try StatechartPath.walk(text, over: topology)
    }
}

/// The compiled tree as a path walks it: regions and states are their indices.
extension Topology: StatechartPathTree {
    var rootRegion: Int32 { 0 }

    var rootRegionName: String { regions[0].name }

    func state(named name: String, in region: Int32) -> Int32? {
        regions[Int(region)].states.first { states[Int($0)].name == name }
    }

    func content(of state: Int32) -> StatechartPathContent<Int32> {
        let node = states[Int(state)]
        switch node.kind {
        case .simple: return .simple
        case .composite: return .composite(node.regions[0])
        case .parallel: return .parallel(node.regions)
        }
    }
}
