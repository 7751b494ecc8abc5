import Synchronization

extension Statechart {
    /// The typed side of a chart: its identifiers, user blocks and subscribers, called by
    /// the non-generic engine through `EngineHooks`.
    ///
    /// `@unchecked Sendable` invariant: `engine` is assigned once, in `Statechart.init`,
    /// before the chart (and so this object) can be shared; afterwards it is only read
    /// (the step observer is a constant, cut off through an atomic: see
    /// ``detachStepObserver()``).
    /// ``plainContexts``, ``stepPayload`` and ``payloadSerial`` are written only in a step,
    /// by the chart's drainer: the engine's queue hands that role from thread to thread with
    /// acquiring and releasing atomics, which order the writes.
    @usableFromInline
    package final class Hooks: EngineHooks, @unchecked Sendable {
        let model: Model
        // The model's tables that steps read, here so that a step reads them from this
        // object's own storage: read through the shared model, a dictionary lookup retained
        // and released the table on every event.
        let eventIndex: [EventID: Int32]
        @usableFromInline let eventIDs: [EventID]
        @usableFromInline let ids: [StateID]
        /// The chart's enter, exit, guard and action blocks, by state or handler, read
        /// unretained (see ``ActionBlock``); the shared model holds them.
        @usableFromInline let enters: [Unmanaged<ActionBlock>?]
        @usableFromInline let exits: [Unmanaged<ActionBlock>?]
        @usableFromInline let guards: [Unmanaged<GuardBlock>?]
        @usableFromInline let actions: [Unmanaged<ActionBlock>?]
        /// The contexts lent to the blocks of steps without a payload: one for no event,
        /// then one per event of the table, each made at its first use (see
        /// ``makeContext(_:for:)``) and kept, so that lending one costs no reference
        /// counting, in a box read unretained.
        ///
        /// The engine owns the boxes (they hold these hooks, which hold only views of them):
        /// a step, the only caller of the blocks, runs on the engine.
        @usableFromInline let plainContexts: UnsafeMutablePointer<Unmanaged<ContextBox>?>
        /// The payload of the step under way, converted to the chart's type once per step
        /// (the step the engine counted as ``payloadSerial``); kept until the next step
        /// with a payload.
        @usableFromInline @exclusivity(unchecked) var stepPayload: Payload?
        /// The engine's `payloadSerial` whose payload ``stepPayload`` holds.
        @usableFromInline @exclusivity(unchecked) var payloadSerial: UInt64 = 0
        @usableFromInline let observers: ObserverRegistry
        package weak var engine: StatechartEngine?
        /// Told every processed event's name and every step's end, and what the chart's
        /// blocks find their SCXML session through; set only by the SCXML interpreter (whose
        /// chart is created with `tracesSteps`), and nil once it has replaced the chart
        /// (``detachStepObserver()``).
        package var stepObserver: (any StatechartStepObserver)? {
            observerDetached.load(ordering: .acquiring) ? nil : observer
        }
        /// Weak: the observer owns the chart.
        private weak let observer: (any StatechartStepObserver)?
        private let observerDetached = Atomic<Bool>(false)

        /// Cuts the chart off from its step observer: the steps it still runs (those queued
        /// before an SCXML interpreter replaced it, and the one running then, from its next
        /// call on) tell the observer nothing, and its blocks find no session.
        package func detachStepObserver() {
            observerDetached.store(true, ordering: .releasing)
        }

        init(
            model: Model,
            observers: ObserverRegistry,
            stepObserver: (any StatechartStepObserver)? = nil
        ) {
            self.model = model
            eventIndex = model.eventIndex
            eventIDs = model.eventIDs
            ids = model.ids
            enters = model.enters
            exits = model.exits
            guards = model.guards
            actions = model.actions
            self.observers = observers
            observer = stepObserver
            plainContexts = .allocate(capacity: eventIDs.count + 1)
            plainContexts.initialize(repeating: nil, count: eventIDs.count + 1)
        }

        deinit {
            plainContexts.deallocate()
        }

        /// Makes the context of slot `slot` of ``plainContexts``, for `engine` to own.
        @usableFromInline
        func makeContext(_ slot: Int, for engine: StatechartEngine) -> Unmanaged<ContextBox> {
            let box = ContextBox(Context(payload: nil, eventIndex: Int32(slot) - 1, hooks: self))
            engine.blockContexts.append(box)
            plainContexts[slot] = .passUnretained(box)
            return .passUnretained(box)
        }

        /// `event` if it names an event of the table, else -1.
        @inlinable @inline(__always)
        func listed(_ event: Int32) -> Int32 {
            event >= 0 && Int(event) < eventIDs.count ? event : -1
        }

        /// The engine's request for `event`: its index in the event table, or its name when
        /// no handler uses it (an empty name is an error).
        package func request(for event: Event) throws(StatechartError) -> StepRequest {
            let (index, name) = try lookUp(event.name)
            return .event(index: index, name: name)
        }

        /// The event table's index for `name` (-1 when no handler uses it), and the name
        /// traces give it when the table does not hold it as is (an empty name is an error).
        func lookUp(_ name: EventID) throws(StatechartError) -> (index: Int32, unlisted: String?) {
            if let index = EventNameIndex.index(of: name, in: model.eventNameIndex, eventIndex) {
                return (index, nil)
            }
            let text = statechartName(name)
            if text.isEmpty {
                throw StatechartError.emptyName(what: "An event", location: "an event sent to '\(model.topology.name)'")
            }
            return (model.matching.eventClass(of: text) ?? -1, text)
        }

        /// Queues `event` from inside a step (or later, from an escaped context). An event
        /// with an empty name is reported to nobody and dropped, as it could never be handled.
        func raise(_ event: Event) {
            guard let request = try? request(for: event) else { return }
            engine?.raise(QueueItem(request: request, payload: event.payload, completion: nil))
        }

        /// The context of a block; `event` is -1 for synthetic events (eventless, delayed
        /// and done transitions) and while starting or stopping.
        func context(_ payload: Payload?, _ event: Int32) -> Context {
            Context(payload: payload, eventIndex: event, hooks: self)
        }

        /// The ``EngineBlockCall`` of this chart's types, made where they are known.
        ///
        /// The engine is not generic, so it calls a chart's blocks through a closure, and
        /// code of the library that is not specialised for the chart's types would build
        /// each block's `Context` and read its block through the runtime's generic metadata
        /// (three cache lookups and a dynamic cast, some 400 ns a block). This function is
        /// inlinable and called from the chart's inlinable initialisers, so the closure it
        /// returns is compiled in the caller's module for its concrete types. The engine
        /// calls it directly, lending it the hooks: one indirect call from the step to the
        /// block's own.
        ///
        /// It also counts no references in a step without a payload: the block is read
        /// through an unretained box whose body is a constant, and lent a context made
        /// ahead (see ``plainContexts``), so calling a block costs what calling the closure
        /// costs. (Counting is an atomic instruction, two per value copied, some 9 ns each
        /// on the machine this was measured on: building a context and loading a closure
        /// from an array per block cost more than the rest of a flat chart's step.)
        @inlinable
        package static func callBlocks() -> EngineBlockCall {
            { hooks, kind, index, engine, event in
                // The engine's own hooks: `Statechart.init` gives an engine this closure
                // and hooks of this type together, and the engine passes only those.
                let hooks = unsafeDowncast(hooks, to: Hooks.self)
                if engine.stepHasPayload { return hooks.callWithPayload(kind, index, engine, event) }
                return hooks.callPlainly(kind, index, engine, event)
            }
        }

        /// Runs block `index` of `kind` in a step without a payload, with the context made
        /// ahead for `event` (see ``plainContexts``).
        @inlinable @inline(__always)
        func callPlainly(_ kind: EngineBlockKind, _ index: Int, _ engine: StatechartEngine, _ event: Int32) -> Bool {
            let slot = Int(listed(event) + 1)
            let box = plainContexts[slot] ?? makeContext(slot, for: engine)
            return box._withUnsafeGuaranteedRef { call(kind, index, $0.context) }
        }

        /// Runs block `index` of `kind` in a step whose event has a payload (plainly when
        /// it is not of the chart's type). Out of line, so that the plain call carries none
        /// of the conversion.
        @inlinable @inline(never)
        func callWithPayload(
            _ kind: EngineBlockKind,
            _ index: Int,
            _ engine: StatechartEngine,
            _ event: Int32
        ) -> Bool {
            guard let payload = payload(of: engine) else { return callPlainly(kind, index, engine, event) }
            return call(kind, index, Context(payload: payload, eventIndex: event, hooks: self))
        }

        /// Runs block `index` of `kind` with `context`; a guard's answer (true for the
        /// other kinds, and where there is no block).
        @inlinable @inline(__always)
        func call(_ kind: EngineBlockKind, _ index: Int, _ context: Context) -> Bool {
            switch kind {
            case .enter: enters[index]?._withUnsafeGuaranteedRef { $0.body(context) }
            case .exit: exits[index]?._withUnsafeGuaranteedRef { $0.body(context) }
            case .action: actions[index]?._withUnsafeGuaranteedRef { $0.body(context) }
            case .guard: return guards[index]?._withUnsafeGuaranteedRef { $0.body(context) } ?? true
            case .entered, .exited, .internalTransition: post(kind, index, context)
            }
            return true
        }

        /// Tells the subscribers of `state` that it was entered, exited or took an internal
        /// transition (`kind`), in a step with `context`. Out of line, so that a block's
        /// call carries none of it.
        @inlinable @inline(never)
        func post(_ kind: EngineBlockKind, _ state: Int, _ context: Context) {
            switch kind {
            case .entered:
                observers.post(kind, at: state, event: nil) { notification(.entered, state, context) }
            case .exited:
                observers.post(kind, at: state, event: nil) { notification(.exited, state, context) }
            case .internalTransition:
                guard let event = context.event else { return }
                observers.post(kind, at: state, event: event) {
                    notification(.internalTransition(event), state, context)
                }
            case .enter, .exit, .action, .guard:
                return
            }
        }

        /// The notification that `kind` happened to `state`, in a step with `context`.
        @inlinable @inline(__always)
        func notification(_ kind: Notification.Kind, _ state: Int, _ context: Context) -> Notification {
            Notification(kind: kind, state: ids[state], path: path(of: state), payload: context.payload)
        }

        /// The path of `state`, such as `c/c2@1/c222`.
        @usableFromInline
        func path(of state: Int) -> String {
            model.topology.states[state].path
        }

        /// The payload of the step `engine` is running, converted once per step.
        @inlinable @inline(__always)
        func payload(of engine: StatechartEngine) -> Payload? {
            if payloadSerial != engine.payloadSerial {
                payloadSerial = engine.payloadSerial
                stepPayload = engine.stepPayload as? Payload
            }
            return stepPayload
        }

        func startTask(of state: Int32, payload: (any Sendable)?, generation: UInt64) -> Task<Void, Never> {
            let work = model.tasks[Int(state)]!
            let input = payload as? Payload
            return Task { [weak self] in
                guard let event = await work(input), !Task.isCancelled, let self,
                    let request = try? self.request(for: event)
                else { return }
                _ = self.engine?.submit { _ in
                    QueueItem(
                        request: request,
                        payload: event.payload,
                        completion: nil,
                        sourceState: state,
                        generation: generation,
                        selfFed: true
                    )
                }
            }
        }

        func junctionPath(_ junction: Int, payload: (any Sendable)?, event: Int32) -> Int? {
            let context = context(payload as? Payload, event)
            return model.junctionGuards[junction].firstIndex { $0.body(context) }
        }

        func runJunctionAction(_ junction: Int, path: Int, payload: (any Sendable)?, event: Int32) {
            model.junctionActions[junction][path]?.body(context(payload as? Payload, event))
        }

        func runInitialAction(of region: Int32, payload: (any Sendable)?, event: Int32) {
            model.initialActions[Int(region)]?.body(context(payload as? Payload, event))
        }

        func runHistoryDefaultAction(of history: Int32, payload: (any Sendable)?, event: Int32) {
            model.historyDefaultActions[Int(history)]?.body(context(payload as? Payload, event))
        }

        func eventStarted(_ name: String, payload: (any Sendable)?, external: Bool) {
            stepObserver?.eventStarted(name, payload: payload, external: external, from: self)
        }

        func stepFinished(_ result: Result<StatechartStepOutcome, StatechartError>) {
            stepObserver?.stepFinished(result, from: self)
        }

        func stateTraced(entered: Bool, name: String) {
            stepObserver?.stateTraced(entered: entered, name: name)
        }
    }
}

extension Statechart {
    /// A context made ahead of a step (see `Hooks.plainContexts`), boxed so that a step lends
    /// it from a constant of a final class, read through an unretained reference, without
    /// copying it.
    @usableFromInline
    package final class ContextBox: Sendable {
        /// The context.
        @usableFromInline let context: Context

        init(_ context: Context) {
            self.context = context
        }
    }

    /// One of a chart's enter, exit or action blocks (or a junction path's, initial
    /// transition's or history default's content), boxed so that a step can read it
    /// through an unretained reference (`Unmanaged`) and call it without counting
    /// references: `body` is a constant of a final class, so it is read in place. The
    /// chart's shared model keeps every box alive, and the hooks, which run the blocks,
    /// keep the model.
    ///
    /// The box is not generic over what it holds: a closure stored where its type is a
    /// generic parameter (an array element, or a field of type `Body`) is stored behind a
    /// reabstraction thunk, made at run time in code not specialised for the chart's
    /// types (the compiler's): 72 bytes a block, and one more indirect call each time it
    /// runs. Here the field's type is the closure's own, so the box holds the closure as
    /// the definition does.
    @usableFromInline
    package final class ActionBlock: Sendable {
        /// The block.
        @usableFromInline let body: Action

        init(_ body: @escaping Action) {
            self.body = body
        }

        /// `action` boxed, without passing it through a generic parameter (see above).
        static func boxing(_ action: Action?) -> ActionBlock? {
            guard let action else { return nil }
            return ActionBlock(action)
        }
    }

    /// A handler's or a junction path's guard, boxed as ``ActionBlock`` boxes a block.
    @usableFromInline
    package final class GuardBlock: Sendable {
        /// The guard.
        @usableFromInline let body: Guard

        init(_ body: @escaping Guard) {
            self.body = body
        }

        /// `guard` boxed, without passing it through a generic parameter.
        static func boxing(_ guard: Guard?) -> GuardBlock? {
            guard let `guard` else { return nil }
            return GuardBlock(`guard`)
        }
    }
}

/// Follows a chart's steps (the SCXML interpreter's trace, invocations and failures).
/// Called on the draining thread, inside the chart's step loop.
package protocol StatechartStepObserver: AnyObject, Sendable {
    /// An event is about to be processed: an external one (sent, or a delayed send that
    /// fired) or an internal one (raised, done), with the payload it carries; `hooks` are
    /// those of the chart processing it.
    func eventStarted(_ name: String, payload: (any Sendable)?, external: Bool, from hooks: AnyObject)
    /// A queued request's step (with everything it raised) ended in the chart of `hooks`.
    func stepFinished(_ result: Result<StatechartStepOutcome, StatechartError>, from hooks: AnyObject)
    /// Whether the observer wants ``eventStarted(_:payload:external:from:)`` at all; fixed for
    /// the observer's life, read once when the chart is created.
    var wantsEventStarts: Bool { get }
    /// Whether the observer wants ``stepFinished(_:from:)`` after every step, or only after a
    /// failed one; fixed for the observer's life, read once when the chart is created.
    var wantsEveryStepEnd: Bool { get }
    /// The state named `name` is entered (or exited), before its enter (or exit) block runs:
    /// wherever the chart runs that block, including the final configuration's exit blocks
    /// of ``StatechartOptions/TopLevelFinal/runsExitBlocks``, and not where a state leaves
    /// without it (a `stop` after those ran). Only when ``wantsStateTraces``.
    func stateTraced(entered: Bool, name: String)
    /// Whether the observer wants ``stateTraced(entered:name:)``; fixed for the observer's
    /// life, read once when the chart is created.
    var wantsStateTraces: Bool { get }
}
