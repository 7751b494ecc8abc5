import StateMachineSupport
import Synchronization

/// How the submitter of a queued request learns its outcome.
package enum StepCompletion: Sendable {
    /// The synchronous caller that drains the queue itself reads the outcome from the drain loop.
    case inline
    case callback(@Sendable (Result<StatechartStepOutcome, StatechartError>) -> Void)
    case continuation(CheckedContinuation<StatechartStepOutcome, any Error>)

    /// Hands `result` to the submitter.
    func deliver(_ result: Result<StatechartStepOutcome, StatechartError>) {
        switch self {
        case .inline: break
        case .callback(let body): body(result)
        case .continuation(let continuation): continuation.resume(with: result.mapError { $0 as any Error })
        }
    }

    /// Whether the submitter reads the outcome from the drain loop.
    var isInline: Bool { if case .inline = self { true } else { false } }
}

/// What a queued request asks for. Starting and stopping are queued like events so that
/// they, too, run between run-to-completion steps, never inside one.
package enum StepRequest: Sendable {
    case start
    case stop
    /// Stop without running exit blocks (see `StatechartEngine.halt()`).
    case halt
    /// An event by its index in the chart's event table (-1 for a name no handler uses),
    /// with its own name when that differs from the table's (an unknown name, or a name
    /// that prefix matching sent to another event's handlers), for traces and the debugger.
    case event(index: Int32, name: String?)
    /// The timer of a delayed transition (an index into `Topology.timers`) fired.
    case timeout(Int32)
    /// The timer of a delayed send (by its sequence number) fired.
    case sendDue(UInt64)
}

/// One entry of the chart's event queue. Not generic: the payload travels type-erased and
/// is cast back only when a user block runs.
package struct QueueItem: Sendable {
    var request: StepRequest
    var payload: (any Sendable)?
    var completion: StepCompletion?
    /// For a state-scoped task's result: the state whose task sent it, or -1. The event is
    /// dropped unless that state is still in the `generation` it was entered in. For a
    /// timeout, `generation` is the one of the timer's state.
    var sourceState: Int32 = -1
    var generation: UInt64 = 0
    /// The chart queued it itself without waiting: a raised event, a zero-delay send or
    /// timer, a task's result. Such steps in a row are bounded (`maxSelfFedSteps`).
    var selfFed = false

    /// Memberwise, for the whole package: the SCXML layer queues sends and invocations.
    package init(
        request: StepRequest,
        payload: (any Sendable)?,
        completion: StepCompletion?,
        sourceState: Int32 = -1,
        generation: UInt64 = 0,
        selfFed: Bool = false
    ) {
        self.request = request
        self.payload = payload
        self.completion = completion
        self.sourceState = sourceState
        self.generation = generation
        self.selfFed = selfFed
    }

    /// Whether this is an event (or timeout) rather than a start or stop request.
    var isEvent: Bool {
        switch request {
        case .start, .stop, .halt: false
        case .event, .timeout, .sendDue: true
        }
    }
}

/// What submitters and the drainer share, guarded by ``EventQueue``'s lock: the queued
/// items and the debug sink (the configuration itself is published through
/// `PublishedConfiguration`).
struct Pump: ~Copyable {
    var items: [QueueItem] = []
    var head = 0
    var debugSink: StatechartDebugSink?

    /// Appends `item` at the back.
    mutating func append(_ item: QueueItem) {
        items.append(item)
    }

    /// Removes and returns the front item; compacts the array now and then, so popping
    /// stays O(1) amortised.
    mutating func popFirst() -> QueueItem? {
        guard head < items.count else {
            if head > 0 {
                items.removeAll(keepingCapacity: true)
                head = 0
            }
            return nil
        }
        let item = items[head]
        head += 1
        if head >= 64 && head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
        return item
    }

    /// Removes the queued events (not start/stop requests) and returns them.
    mutating func removePendingEvents() -> [QueueItem] {
        let pending = items[head...]
        let dropped = pending.filter(\.isEvent)
        items = pending.filter { !$0.isEvent }
        head = 0
        return dropped
    }

    /// The names of the queued events (not requests), for the debugger.
    func pendingEventNames(_ topology: Topology) -> [String] {
        items[head...].compactMap { item in
            guard case .event(let index, let name) = item.request else { return nil }
            return name ?? (index >= 0 ? topology.eventNames[Int(index)] : "?")
        }
    }
}

/// A chart's event queue and its drainer protocol: whoever submits an event to an idle chart
/// runs the step on its own thread and becomes the *drainer*, the one thread or task that
/// runs steps until the queue is empty; submitters that find a drainer at work only queue.
///
/// `state` holds the drainer role (bit 0) and the number of items in the pump (the other
/// bits, counted in twos). Items are appended and popped, and the count changed, only under
/// the pump's lock; the role is taken and given up by compare-and-swap on the word. So an
/// idle chart's event is claimed (0 -> 1) and released (1 -> 0) with one compare-and-swap
/// each and no lock, and a release fails exactly when something was queued meanwhile, which
/// the drainer then pops and runs. Acquiring and releasing orderings on the role pass the
/// drainer-confined state of the engine from one drainer to the next.
struct EventQueue: ~Copyable, Sendable {
    private let state = Atomic<Int>(0)
    private let pump = Lock(Pump())
    /// Whether the pump's debug sink is set, readable without the lock.
    private let hasSink = Atomic<Bool>(false)

    /// Takes the drainer role if the chart is idle and nothing is queued.
    @inline(__always)
    func claimIfIdle() -> Bool {
        state.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
    }

    /// Gives up the drainer role unless items are queued; false when the caller must pop
    /// and run them.
    @inline(__always)
    func releaseIfIdle() -> Bool {
        state.compareExchange(expected: 1, desired: 0, ordering: .releasing).exchanged
    }

    /// Counts one more queued item and takes the drainer role if nobody holds it; true when
    /// the caller now drains. Called under the pump's lock, with the item appended.
    private func countQueuedItem() -> Bool {
        var old = state.load(ordering: .relaxed)
        while true {
            let (exchanged, seen) = state.compareExchange(
                expected: old,
                desired: (old + 2) | 1,
                ordering: .acquiringAndReleasing
            )
            if exchanged { return old & 1 == 0 }
            old = seen
        }
    }

    /// Queues `item`; true when the caller took the drainer role and must drain.
    func append(_ item: QueueItem) -> Bool {
        pump.withLock { pump in
            pump.append(item)
            return countQueuedItem()
        }
    }

    /// Queues the item `makeItem` builds, telling it whether the caller will drain (so it
    /// can choose the completion); true when the caller took the drainer role.
    func append(making makeItem: (_ drainsHere: Bool) -> QueueItem) -> Bool {
        pump.withLock { pump in
            let drains = countQueuedItem()
            pump.append(makeItem(drains))
            return drains
        }
    }

    /// The next item, and the debug sink to run it with. Drainer only, once
    /// ``releaseIfIdle()`` said an item is queued.
    func popFirst() -> (item: QueueItem, sink: StatechartDebugSink?) {
        let next = pump.withLock { pump -> (QueueItem, StatechartDebugSink?)? in
            guard let item = pump.popFirst() else { return nil }
            state.subtract(2, ordering: .relaxed)
            return (item, pump.debugSink)
        }
        // The count says an item is queued, and only the drainer pops.
        guard let next else { preconditionFailure("the queue's count and its items disagree") }
        return next
    }

    /// Removes the queued events (not start, stop or halt requests) and then, if given,
    /// queues the request `makeItem` builds; returns the removed events, for their waiters,
    /// and whether the caller took the drainer role.
    func removeEvents(
        thenAppend makeItem: ((_ drainsHere: Bool) -> QueueItem)? = nil
    ) -> (dropped: [QueueItem], drainsHere: Bool) {
        pump.withLock { pump in
            let dropped = pump.removePendingEvents()
            state.subtract(2 * dropped.count, ordering: .relaxed)
            guard let makeItem else { return (dropped, false) }
            let drains = countQueuedItem()
            pump.append(makeItem(drains))
            return (dropped, drains)
        }
    }

    /// Whether a debug sink is set (one relaxed load: the fast path's test).
    @inline(__always)
    var hasDebugSink: Bool { hasSink.load(ordering: .relaxed) }

    /// The debug sink the next steps write to.
    var debugSink: StatechartDebugSink? { pump.withLock { $0.debugSink } }

    /// Sets or removes the debug sink.
    func setDebugSink(_ sink: StatechartDebugSink?) {
        pump.withLock { pump in
            pump.debugSink = sink
            hasSink.store(sink != nil, ordering: .relaxed)
        }
    }

    /// The names of the queued events, for the debugger.
    func pendingEventNames(_ topology: Topology) -> [String] {
        pump.withLock { $0.pendingEventNames(topology) }
    }
}
