extension Statechart {
    /// The typed side of a chart: its identifiers, user blocks and subscribers, called by
    /// the non-generic engine through `EngineHooks`.
    ///
    /// `@unchecked Sendable` invariant: `engine` is assigned once, in `Statechart.init`,
    /// before the chart (and so this object) can be shared; afterwards it is only read.
    @usableFromInline
    package final class Hooks: EngineHooks, @unchecked Sendable {
        let model: Model
        // The model's tables that steps read, here so that a step reads them from this
        // object's own storage: read through the shared model, a dictionary lookup retained
        // and released the table on every event.
        let eventIndex: [EventID: Int32]
        @usableFromInline let eventIDs: [EventID]
        let ids: [StateID]
        @usableFromInline let enters: [Action?]
        @usableFromInline let exits: [Action?]
        @usableFromInline let guards: [Guard?]
        @usableFromInline let actions: [Action?]
        /// Runs the chart's enter, exit, guard and action blocks: code specialised for the
        /// chart's types where it was created (see ``callBlocks()``).
        let callBlock: BlockCall
        let observers: ObserverRegistry
        package weak var engine: StatechartEngine?
        /// Told every processed event's name and every step's end; set only by the SCXML
        /// interpreter (whose chart is created with `tracesSteps`). Weak: the observer owns
        /// the chart.
        package weak var stepObserver: (any StatechartStepObserver)?

        init(
            model: Model,
            observers: ObserverRegistry,
            stepObserver: (any StatechartStepObserver)? = nil,
            callBlock: @escaping BlockCall
        ) {
            self.model = model
            self.callBlock = callBlock
            eventIndex = model.eventIndex
            eventIDs = model.eventIDs
            ids = model.ids
            enters = model.enters
            exits = model.exits
            guards = model.guards
            actions = model.actions
            self.observers = observers
            self.stepObserver = stepObserver
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
            if let index = eventIndex[name] {
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

        /// The context of a block; `event` is nil for synthetic events (eventless, delayed
        /// and done transitions) and while starting or stopping.
        @inlinable
        func context(_ payload: Payload?, _ event: Int32) -> Context {
            Context(
                payload: payload,
                event: event >= 0 && Int(event) < eventIDs.count ? eventIDs[Int(event)] : nil,
                hooks: self
            )
        }

        /// The context of a block run in the step `engine` is running: its payload, typed,
        /// is read from the engine only when the step has one (most have none).
        @inlinable
        func context(of engine: StatechartEngine, _ event: Int32) -> Context {
            context(engine.stepHasPayload ? engine.stepPayload as? Payload : nil, event)
        }

        /// Which of a chart's blocks ``BlockCall`` runs.
        @usableFromInline
        package enum BlockKind: Sendable {
            case enter, exit, action, `guard`
        }

        /// Runs block `index` of `kind` in the step `engine` is running, for `event`; a
        /// guard's answer (true for the other kinds, and where there is no block).
        @usableFromInline
        package typealias BlockCall =
            @Sendable (
                _ hooks: Hooks, _ kind: BlockKind, _ index: Int, _ engine: StatechartEngine, _ event: Int32
            ) -> Bool

        /// The ``BlockCall`` of this chart's types, made where they are known.
        ///
        /// The engine is not generic, so it calls a chart's blocks through these hooks, and
        /// code of the library that is not specialised for the chart's types would build
        /// each block's `Context` and read its block through the runtime's generic metadata
        /// (three cache lookups and a dynamic cast, some 400 ns a block). This function is
        /// inlinable and called from the chart's inlinable initialisers, so the closure it
        /// returns is compiled in the caller's module for its concrete types.
        @inlinable
        package static func callBlocks() -> BlockCall {
            { hooks, kind, index, engine, event in
                let context = hooks.context(of: engine, event)
                switch kind {
                case .enter: hooks.enters[index]?(context)
                case .exit: hooks.exits[index]?(context)
                case .action: hooks.actions[index]?(context)
                case .guard: return hooks.guards[index]?(context) ?? true
                }
                return true
            }
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

        func enter(_ state: Int32, of engine: StatechartEngine, event: Int32) {
            _ = callBlock(self, .enter, Int(state), engine, event)
        }

        func exit(_ state: Int32, of engine: StatechartEngine, event: Int32) {
            _ = callBlock(self, .exit, Int(state), engine, event)
        }

        func passes(guardOf handler: Int, of engine: StatechartEngine, event: Int32) -> Bool {
            callBlock(self, .guard, handler, engine, event)
        }

        func runAction(_ handler: Int, of engine: StatechartEngine, event: Int32) {
            _ = callBlock(self, .action, handler, engine, event)
        }

        func junctionPath(_ junction: Int, payload: (any Sendable)?, event: Int32) -> Int? {
            let context = context(payload as? Payload, event)
            return model.junctionGuards[junction].firstIndex { $0(context) }
        }

        func runJunctionAction(_ junction: Int, path: Int, payload: (any Sendable)?, event: Int32) {
            model.junctionActions[junction][path]?(context(payload as? Payload, event))
        }

        func runInitialAction(of region: Int32, payload: (any Sendable)?, event: Int32) {
            model.initialActions[Int(region)]?(context(payload as? Payload, event))
        }

        func runHistoryDefaultAction(of history: Int32, payload: (any Sendable)?, event: Int32) {
            model.historyDefaultActions[Int(history)]?(context(payload as? Payload, event))
        }

        func eventStarted(_ name: String, payload: (any Sendable)?, external: Bool) {
            stepObserver?.eventStarted(name, payload: payload, external: external)
        }

        func stepFinished(_ result: Result<StatechartStepOutcome, StatechartError>) {
            stepObserver?.stepFinished(result)
        }

        func notify(_ tag: NotificationTag, state: Int32, payload: (any Sendable)?, event: Int32) {
            let kind: Notification.Kind
            switch tag {
            case .entered: kind = .entered
            case .exited: kind = .exited
            case .internalTransition: kind = .internalTransition(eventIDs[Int(event)])
            }
            let notification = Notification(
                kind: kind,
                state: ids[Int(state)],
                path: model.topology.states[Int(state)].path,
                payload: payload as? Payload
            )
            observers.post(notification, at: state)
        }
    }
}

/// Follows a chart's steps (the SCXML interpreter's trace, invocations and failures).
/// Called on the draining thread, inside the chart's step loop.
package protocol StatechartStepObserver: AnyObject, Sendable {
    /// An event is about to be processed: an external one (sent, or a delayed send that
    /// fired) or an internal one (raised, done), with the payload it carries.
    func eventStarted(_ name: String, payload: (any Sendable)?, external: Bool)
    /// A queued request's step (with everything it raised) ended.
    func stepFinished(_ result: Result<StatechartStepOutcome, StatechartError>)
    /// Whether the observer wants ``eventStarted(_:payload:external:)`` at all; fixed for
    /// the observer's life, read once when the chart is created.
    var wantsEventStarts: Bool { get }
    /// Whether the observer wants ``stepFinished(_:)`` after every step, or only after a
    /// failed one; fixed for the observer's life, read once when the chart is created.
    var wantsEveryStepEnd: Bool { get }
}
