extension Statechart {
    /// What every guard, action, enter and exit block receives: the payload of the
    /// run-to-completion step that runs it, and a way to raise further events.
    public struct Context: Sendable {
        /// The payload of the event being handled (or the payload given to `start`/`stop`).
        public let payload: Payload?
        /// The event being handled, as its index in the chart's event table; -1 for none.
        @usableFromInline let eventIndex: Int32
        @usableFromInline package let hooks: Hooks

        /// The name of the event being handled; `nil` while starting or stopping, and for
        /// eventless, delayed and done transitions.
        public var event: EventID? {
            eventIndex >= 0 ? hooks.eventIDs[Int(eventIndex)] : nil
        }

        /// A context for a block of the chart whose hooks are `hooks`, in a step handling
        /// the event at `eventIndex` of the chart's event table (-1, or an index past the
        /// table's listed names, for a step with no event name).
        @inlinable
        package init(payload: Payload?, eventIndex: Int32, hooks: Hooks) {
            self.payload = payload
            self.eventIndex = hooks.listed(eventIndex)
            self.hooks = hooks
        }

        /// Queues `event`. It runs after the current run-to-completion step: behind
        /// anything already queued by default, or first with
        /// ``StatechartOptions/RaisedEventOrder/internalQueue``.
        public func raise(_ event: Event) {
            hooks.raise(event)
        }

        /// Queues the event `name` with `payload`; see ``raise(_:)``.
        public func raise(_ name: EventID, payload: Payload? = nil) {
            raise(Event(name, payload: payload))
        }
    }

    /// A guard: decides, before anything exits, whether a transition may fire.
    /// Guards should not have side effects; they may run for transitions that do not fire.
    public typealias Guard = @Sendable (Context) -> Bool
    /// An enter, exit or transition action.
    public typealias Action = @Sendable (Context) -> Void

    /// An event: a name and an optional typed payload.
    public struct Event: Sendable {
        /// The event's name, which selects the handlers.
        public var name: EventID
        /// The payload delivered to every guard, action, enter and exit block of the step.
        public var payload: Payload?

        /// Creates an event named `name` carrying `payload`.
        public init(_ name: EventID, payload: Payload? = nil) {
            self.name = name
            self.payload = payload
        }
    }

    /// Where a transition goes: a state, or a pseudo state that decides the final targets.
    public enum Target: Sendable {
        /// A state, by its identifier.
        case state(StateID)
        /// A fork declared with ``Statechart/Fork``, by name.
        case fork(String)
        /// A join declared with ``Statechart/Join``, by name.
        case join(String)
        /// A junction declared with ``Statechart/Junction``, by name.
        case junction(String)
        /// A history pseudo state declared with ``Statechart/State/history(_:_:default:)``, by name.
        case history(String)
    }
}
