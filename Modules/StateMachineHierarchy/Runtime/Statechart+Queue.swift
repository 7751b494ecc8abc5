import Synchronization

extension Statechart {
    /// How the submitter of a queued item learns its outcome.
    enum Completion: Sendable {
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
    }

    /// One entry of the root's event queue. Starting and stopping are queued like events
    /// so that they, too, run between run-to-completion steps, never inside one.
    enum Item: Sendable {
        case start(Payload?, Completion?)
        case stop(Payload?, Completion?)
        case event(Event, Completion?)

        var completion: Completion? {
            switch self {
            case .start(_, let completion), .stop(_, let completion), .event(_, let completion): completion
            }
        }

        var isEvent: Bool { if case .event = self { true } else { false } }
    }

    /// The state shared between submitters and the drainer, guarded by `Runtime.pump`.
    struct Pump: ~Copyable {
        var items: [Item] = []
        var head = 0
        /// True while some thread or task owns the right to run steps. Only the owner touches
        /// the runtime's configuration, so steps never overlap.
        var draining = false
        /// The active state of every region (-1 when inactive) as of the last completed step,
        /// for readers outside the drainer.
        var snapshot: [Int32]
        var started = false
        var debugSink: StatechartDebugSink?

        init(regionCount: Int) {
            snapshot = [Int32](repeating: -1, count: regionCount)
        }

        var pendingCount: Int { items.count - head }

        mutating func append(_ item: Item) {
            items.append(item)
        }

        mutating func popFirst() -> Item? {
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
        mutating func removePendingEvents() -> [Item] {
            let pending = items[head...]
            let dropped = pending.filter(\.isEvent)
            items = pending.filter { !$0.isEvent }
            head = 0
            return dropped
        }

        func pendingEventNames() -> [String] {
            items[head...].compactMap { if case .event(let event, _) = $0 { statechartName(event.name) } else { nil } }
        }
    }
}
