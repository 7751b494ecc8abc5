/// What became of one event (or of a `start`/`stop` request) in its run-to-completion step.
public enum StatechartStepOutcome: Sendable, Hashable {
    /// A handler's guard passed and its transition ran (a partial join also counts).
    case handled
    /// The chart was running but no active state had a handler whose guard passed.
    case unhandled
    /// The event was dropped: the chart was not started, or it was stopped while the
    /// event was still queued.
    case discarded
    /// A synchronous ``Statechart/handle(_:)`` call found another step in progress
    /// (for example, it was called from an action); the event is queued behind it.
    case queued
    /// No active state handled the event but an active state defers it: it is kept and
    /// replayed once no active state defers it (see ``Statechart/State/deferring(_:)``).
    case deferred
}
