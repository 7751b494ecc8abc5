/// How the submitter of a queued request learns its outcome.
enum StepCompletion: Sendable {
    /// The synchronous caller that drains the queue itself reads the outcome from the drain loop.
    case inline
    case callback(@Sendable (Result<StatechartStepOutcome, StatechartError>) -> Void)
    case continuation(CheckedContinuation<StatechartStepOutcome, any Error>)

    func deliver(_ result: Result<StatechartStepOutcome, StatechartError>) {
        switch self {
        case .inline: break
        case .callback(let body): body(result)
        case .continuation(let continuation): continuation.resume(with: result.mapError { $0 as any Error })
        }
    }

    var isInline: Bool { if case .inline = self { true } else { false } }
}

/// What a queued request asks for. Starting and stopping are queued like events so that
/// they, too, run between run-to-completion steps, never inside one.
enum StepRequest: Sendable {
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
struct QueueItem: Sendable {
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

    /// Whether this is an event (or timeout) rather than a start or stop request.
    var isEvent: Bool {
        switch request {
        case .start, .stop, .halt: false
        case .event, .timeout, .sendDue: true
        }
    }
}

/// What a snapshot reads besides the configuration, as of the same completed step.
struct PublishedExtras: Sendable {
    var historyRecords: [[Int32]] = []
    var joinProgress: [[Bool]] = []
    var timerDeadlines: [Duration?] = []
    var sends = PublishedSends()
}

/// The delayed sends and send ids (SCXML) as of the last step that changed them: strings,
/// so published under the pump's lock rather than as words (see `SnapshotWords`).
struct PublishedSends: Sendable {
    /// Pending delayed sends in the order they were made: event name, send id, deadline.
    var sends: [(name: String, id: String?, deadline: Duration)] = []
    var sendIDSlots: [String: String] = [:]
    var generatedSendIDCount = 0
}

/// Where the plain-number parts of a snapshot are among `PublishedConfiguration`'s words,
/// so that a step publishes them with a few atomic stores and no lock.
struct SnapshotWords {
    /// Per history: a word that is 1 when it has a record, then one word per region it
    /// remembers (the state recorded for it).
    let historyStart: [Int]
    /// Per join: one word per source, 1 when that source has arrived.
    let joinStart: [Int]
    /// Per delayed transition: a word that is 1 while its timer is pending, then its
    /// deadline in attoseconds, high half then low half.
    let timerStart: [Int]
    let count: Int

    init(topology: Topology) {
        var count = 0
        historyStart = topology.histories.map { history in
            defer { count += 1 + history.regions.count }
            return count
        }
        joinStart = topology.joins.map { join in
            defer { count += join.sourceCount }
            return count
        }
        timerStart = topology.timers.map { _ in
            defer { count += 3 }
            return count
        }
        self.count = count
    }
}

/// The state shared between submitters and the drainer, guarded by `StatechartEngine.pump`
/// (the configuration itself is published through `PublishedConfiguration`).
struct Pump: ~Copyable {
    var items: [QueueItem] = []
    var head = 0
    var sends = PublishedSends()
    var debugSink: StatechartDebugSink?

    mutating func append(_ item: QueueItem) {
        items.append(item)
    }

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

    func pendingEventNames(_ topology: Topology) -> [String] {
        items[head...].compactMap { item in
            guard case .event(let index, let name) = item.request else { return nil }
            return name ?? (index >= 0 ? topology.eventNames[Int(index)] : "?")
        }
    }
}
