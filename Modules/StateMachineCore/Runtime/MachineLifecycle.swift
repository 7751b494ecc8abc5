/// The lifecycle of a ``MachineCore``: which phase the machine is in and whether a drainer
/// holds the drainer role, as one value with every state named and every move one method.
///
/// The transitions are pure: each takes no lock, runs nothing, and returns what the core must
/// do, which the core does once it has released its lock (starting a drainer task, emitting
/// the initial state, opening a latch). This is swift-async-algorithms' split of `merge`:
/// `MergeStateMachine` holds the transitions, `MergeStorage` (here `MachineCore`, which keeps
/// this value in its `Shared` under its `Lock`) holds the lock and runs the effects.
///
/// The phases follow each other in one direction:
///
/// | phase | accepts commands | the initial state |
/// | --- | --- | --- |
/// | ``idle(isDraining:)`` | yes | neither queued nor emitted |
/// | ``started(isDraining:)`` | yes | queued or emitted |
/// | ``closed`` | no: `finish` is queued behind the accepted commands | queued or emitted |
/// | ``terminated`` | no: shut down, waiters resume | emitted |
///
/// Whoever claims the drainer role (`isDraining` from false to true) starts the drainer, or,
/// in `start()`, emits the initial state itself; the role is given back only when the queue
/// is empty. Once the machine is closed nobody claims the role again: the drainer that holds
/// it runs to the shutdown, so the last two phases do not record it.
///
/// The end of observation is not a phase: a composite ends its child's observation before it
/// starts the child, which then accepts commands as any machine does, so that flag stays with
/// the observation buffer (`MachineCore.Shared.isObservationFinished`).
@usableFromInline
enum MachineLifecycle: Sendable, Equatable {
    /// Accepting commands; the initial state is neither queued nor emitted yet (a signal may
    /// be queued: it needs no initial state).
    case idle(isDraining: Bool)
    /// Accepting commands; the initial state is queued or emitted.
    case started(isDraining: Bool)
    /// No longer accepting commands: `finish` is queued; the drainer processes what was
    /// accepted before it, then shuts the machine down (outputs cancelled and awaited,
    /// observation ended, lifecycle callbacks delivered).
    case closed
    /// Shut down: whoever waits for termination resumes.
    case terminated

    /// A new machine's lifecycle.
    @inlinable
    init() {
        self = .idle(isDraining: false)
    }

    /// What the core does with a command it was offered (an event, a signal, `finish`).
    @usableFromInline
    enum CommandAction: Equatable, Sendable {
        /// The machine accepts no more commands: drop it (and open its latch, if it has one).
        case reject
        /// Queue the command, after a `.start` when `startFirst`, and start a drainer task when
        /// `startDrainer` (the caller has just claimed the drainer role).
        case queue(startFirst: Bool, startDrainer: Bool)
    }

    /// What the core does when asked to start.
    @usableFromInline
    enum StartAction: Equatable, Sendable {
        /// The machine has started already: nothing to do.
        case none
        /// The caller now holds the drainer role: it emits the initial state itself, then
        /// gives the role back (``drainerFoundQueueEmpty()``) or, when commands arrived
        /// meanwhile, starts a drainer task.
        case emitInitialState
        /// A drainer is running: queue `.start` for it.
        case queueStart
    }

    /// An event is offered: accepted while the machine is open, which starts it (the initial
    /// state is queued first) if it had not started.
    @inlinable
    mutating func acceptEvent() -> CommandAction {
        switch self {
        case .idle(let isDraining):
            self = .started(isDraining: true)
            return .queue(startFirst: true, startDrainer: !isDraining)
        case .started(let isDraining):
            self = .started(isDraining: true)
            return .queue(startFirst: false, startDrainer: !isDraining)
        case .closed, .terminated:
            return .reject
        }
    }

    /// A signal (a latch to open once everything queued before it is processed) is offered:
    /// accepted while the machine is open, without starting it.
    @inlinable
    mutating func acceptSignal() -> CommandAction {
        switch self {
        case .idle(let isDraining):
            self = .idle(isDraining: true)
            return .queue(startFirst: false, startDrainer: !isDraining)
        case .started(let isDraining):
            self = .started(isDraining: true)
            return .queue(startFirst: false, startDrainer: !isDraining)
        case .closed, .terminated:
            return .reject
        }
    }

    /// The machine is asked to start (an observer began iterating it).
    @inlinable
    mutating func start() -> StartAction {
        switch self {
        case .idle(let isDraining):
            self = .started(isDraining: true)
            return isDraining ? .queueStart : .emitInitialState
        case .started, .closed, .terminated:
            return .none
        }
    }

    /// The machine is asked to finish: it closes, `finish` queued behind everything accepted
    /// (and behind the initial state, if it had not started). Rejected once closed.
    @inlinable
    mutating func finish() -> CommandAction {
        switch self {
        case .idle(let isDraining):
            self = .closed
            return .queue(startFirst: true, startDrainer: !isDraining)
        case .started(let isDraining):
            self = .closed
            return .queue(startFirst: false, startDrainer: !isDraining)
        case .closed, .terminated:
            return .reject
        }
    }

    /// The holder of the drainer role found the queue empty and gives the role back, so that
    /// the next command starts a drainer. Once closed the role is never claimed again, so
    /// nothing changes.
    @inlinable
    mutating func drainerFoundQueueEmpty() {
        switch self {
        case .idle: self = .idle(isDraining: false)
        case .started: self = .started(isDraining: false)
        case .closed, .terminated: break
        }
    }

    /// The shutdown is complete.
    @inlinable
    mutating func didTerminate() {
        self = .terminated
    }

    /// Whether the initial state is queued or emitted (false only while ``idle(isDraining:)``).
    @inlinable
    var isStarted: Bool {
        if case .idle = self { return false }
        return true
    }

    /// Whether the machine has shut down.
    @inlinable
    var isTerminated: Bool {
        if case .terminated = self { return true }
        return false
    }
}
