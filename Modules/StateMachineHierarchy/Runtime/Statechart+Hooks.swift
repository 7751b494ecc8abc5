extension Statechart {
    /// The typed side of a chart: its identifiers, user blocks and subscribers, called by
    /// the non-generic engine through `EngineHooks`.
    ///
    /// `@unchecked Sendable` invariant: `engine` is assigned once, in `Statechart.init`,
    /// before the chart (and so this object) can be shared; afterwards it is only read.
    final class Hooks: EngineHooks, @unchecked Sendable {
        let model: Model
        // The model's tables that steps read, here so that a step reads them from this
        // object's own storage: read through the shared model, a dictionary lookup retained
        // and released the table on every event.
        let eventIndex: [EventID: Int32]
        let eventIDs: [EventID]
        let ids: [StateID]
        let enters: [Action?]
        let exits: [Action?]
        let guards: [Guard?]
        let actions: [Action?]
        let observers: ObserverRegistry
        weak var engine: StatechartEngine?
        /// Told every processed event's name and every step's end; set only by the SCXML
        /// interpreter (whose chart is created with `tracesSteps`). Weak: the observer owns
        /// the chart.
        weak var stepObserver: (any StatechartStepObserver)?

        init(model: Model, observers: ObserverRegistry, stepObserver: (any StatechartStepObserver)? = nil) {
            self.model = model
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
        func request(for event: Event) throws(StatechartError) -> StepRequest {
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
        // The engine calls these through `EngineHooks`, so they run unspecialized, and every
        // `Context` they build looks up its generic metadata in the runtime's cache (about
        // 300 ns a block in `Benchmarks hierarchy --filter scxml-data`). SCXML documents
        // always run as `Statechart<String, String, SCXMLEventFields>`: for them a
        // specialised copy is chosen by a type check instead (the ECMAScript ring: 2.1 µs an
        // event unspecialised, 1.5 µs specialised).
        @_specialize(exported:false,where StateID == String, EventID == String, Payload == SCXMLEventFields)
        private func context(_ payload: (any Sendable)?, _ event: Int32) -> Context {
            Context(
                payload: payload as? Payload,
                event: event >= 0 && Int(event) < eventIDs.count ? eventIDs[Int(event)] : nil,
                hooks: self
            )
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

        @_specialize(exported:false,where StateID == String, EventID == String, Payload == SCXMLEventFields)
        func enter(_ state: Int32, payload: (any Sendable)?, event: Int32) {
            enters[Int(state)]?(context(payload, event))
        }

        @_specialize(exported:false,where StateID == String, EventID == String, Payload == SCXMLEventFields)
        func exit(_ state: Int32, payload: (any Sendable)?, event: Int32) {
            exits[Int(state)]?(context(payload, event))
        }

        @_specialize(exported:false,where StateID == String, EventID == String, Payload == SCXMLEventFields)
        func passes(guardOf handler: Int, payload: (any Sendable)?, event: Int32) -> Bool {
            guards[handler]?(context(payload, event)) ?? true
        }

        @_specialize(exported:false,where StateID == String, EventID == String, Payload == SCXMLEventFields)
        func runAction(of handler: Int, payload: (any Sendable)?, event: Int32) {
            actions[handler]?(context(payload, event))
        }

        func junctionPath(_ junction: Int, payload: (any Sendable)?, event: Int32) -> Int? {
            let context = context(payload, event)
            return model.junctionGuards[junction].firstIndex { $0(context) }
        }

        func runJunctionAction(_ junction: Int, path: Int, payload: (any Sendable)?, event: Int32) {
            model.junctionActions[junction][path]?(context(payload, event))
        }

        func runInitialAction(of region: Int32, payload: (any Sendable)?, event: Int32) {
            model.initialActions[Int(region)]?(context(payload, event))
        }

        func runHistoryDefaultAction(of history: Int32, payload: (any Sendable)?, event: Int32) {
            model.historyDefaultActions[Int(history)]?(context(payload, event))
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
protocol StatechartStepObserver: AnyObject, Sendable {
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
