import StateMachineSupport

/// What an SCXML session keeps besides its configuration: the delayed `<send>`s waiting for
/// their timers, and the send ids generated into `idlocation` slots. Only charts read from
/// SCXML have one (`StatechartEngine.sends`); the executable content of their blocks
/// reaches it through the engine.
///
/// `@unchecked Sendable` invariant: every stored `var` is drainer-confined, read and
/// written only by the chart's current drainer (see `StatechartEngine`); `published` is
/// behind its own lock, and `engine` is set once, before the chart is shared.
final class SCXMLSends: @unchecked Sendable {
    /// Where a due send goes.
    enum Delivery {
        /// To this chart's queue.
        case request(StepRequest)
        /// Out of this chart (`<send target="#_parent">`): called on the timer's turn as the
        /// chart's drainer; the chart takes no step for it.
        case forward(@Sendable () -> Void)
    }

    /// An event sent with a delay, waiting for its timer.
    struct PendingSend {
        /// A number never reused, so a timer whose send is gone (cancelled, fired, halted)
        /// delivers nothing.
        let sequence: UInt64
        let delivery: Delivery
        let name: String
        let id: String?
        let timer: StatechartTimer
        let deadline: Duration
    }

    /// A pending send as a snapshot restores it: the time it had left instead of a timer.
    typealias RestoredSend = (request: StepRequest, name: String, id: String?, remaining: Duration)

    /// The engine whose queue the sends go to (set by the engine's `init`).
    weak var engine: StatechartEngine?
    /// In the order they were made (by sequence), at most `StatechartLimits.maxPendingSends`.
    private var pending: [PendingSend] = []
    private var nextSequence: UInt64 = 0
    /// The `idlocation` slots: the last send id generated into each.
    private var idSlots: [String: String] = [:]
    private var generatedIDCount = 0
    /// What a snapshot reads, as of the last step that changed it.
    private let published = Lock(PublishedSends())

    /// Queues `request` (the event `name`) at the back of the chart's queue, now or after
    /// `delay` on the chart's clock; `id` lets ``cancel(matching:)`` find it. `armed` arms a
    /// timer even for no delay (a restored send that was already due).
    /// - Returns: false, sending nothing, when `StatechartLimits.maxPendingSends` delayed
    ///   sends are pending already.
    @discardableResult
    func schedule(_ request: StepRequest, name: String, delay: Duration, id: String?, armed: Bool = false) -> Bool {
        guard let engine else { return false }
        guard delay > .zero || armed else {
            engine.enqueue(QueueItem(request: request, payload: nil, completion: nil, selfFed: true))
            return true
        }
        return arm(.request(request), name: name, delay: delay, id: id)
    }

    /// Calls `forward` after `delay` on the chart's clock, as a delayed send does (counted
    /// among the pending sends, cancelled like them: by `<cancel>`, and when the chart
    /// finishes, halts or is released); a delayed `<send target="#_parent">`. Forwarded
    /// sends are not part of snapshots (invoked sessions have none).
    /// - Returns: false, forwarding nothing, when `StatechartLimits.maxPendingSends` delayed
    ///   sends are pending already.
    func schedule(
        forwarding forward: @escaping @Sendable () -> Void,
        name: String,
        delay: Duration,
        id: String?
    ) -> Bool {
        arm(.forward(forward), name: name, delay: delay, id: id)
    }

    /// Arms the timer of a delayed send.
    private func arm(_ delivery: Delivery, name: String, delay: Duration, id: String?) -> Bool {
        guard let engine else { return false }
        guard pending.count < StatechartLimits.maxPendingSends else { return false }
        let sequence = nextSequence
        nextSequence += 1
        let timer = engine.clock.schedule(after: delay) { [weak engine] in
            _ = engine?.submit { _ in QueueItem(request: .sendDue(sequence), payload: nil, completion: nil) }
        }
        pending.append(
            PendingSend(
                sequence: sequence,
                delivery: delivery,
                name: name,
                id: id,
                timer: timer,
                deadline: engine.clock.now + delay
            )
        )
        engine.sendsChanged()
        return true
    }

    /// Removes the send whose timer fired and returns its request; nil when it is gone
    /// (cancelled or halted since), or when it was forwarded out of the chart.
    func takeDue(_ sequence: UInt64) -> StepRequest? {
        guard let position = pending.firstIndex(where: { $0.sequence == sequence }) else { return nil }
        engine?.sendsChanged()
        switch pending.remove(at: position).delivery {
        case .request(let request):
            return request
        case .forward(let forward):
            forward()
            return nil
        }
    }

    /// The event name of the pending send `sequence`, for traces.
    func name(of sequence: UInt64) -> String? {
        pending.first { $0.sequence == sequence }?.name
    }

    /// Cancels the pending sends `matching` accepts (by their id).
    func cancel(matching: (String?) -> Bool) {
        pending.removeAll { send in
            guard matching(send.id) else { return false }
            send.timer.cancel()
            engine?.sendsChanged()
            return true
        }
    }

    /// Cancels every pending send (the chart stopped, halted, finished or was released).
    func cancelAll() {
        cancel { _ in true }
    }

    /// A new send id stored in the `idlocation` slot `slot`.
    func generateID(into slot: String) -> String {
        generatedIDCount += 1
        let id = "send.\(generatedIDCount)"
        idSlots[slot] = id
        engine?.sendsChanged()
        return id
    }

    /// Stores `id` in the `idlocation` slot `slot` (an invocation's generated id).
    func store(_ id: String, inSlot slot: String) {
        idSlots[slot] = id
        engine?.sendsChanged()
    }

    /// The send id last stored in `slot`.
    func id(inSlot slot: String) -> String? { idSlots[slot] }

    /// Takes a snapshot's sends and slots; the sends' timers restart with what they had left.
    func restore(_ sends: [RestoredSend], idSlots: [String: String], generatedIDCount: Int) {
        self.idSlots = idSlots
        self.generatedIDCount = generatedIDCount
        for send in sends {
            schedule(send.request, name: send.name, delay: send.remaining, id: send.id, armed: true)
        }
    }

    /// Publishes the sends and slots for snapshots (inside the configuration's write).
    func publish() {
        let sends = PublishedSends(
            sends: pending.compactMap { send in
                guard case .request = send.delivery else { return nil }
                return (send.name, send.id, send.deadline)
            },
            sendIDSlots: idSlots,
            generatedSendIDCount: generatedIDCount
        )
        published.withLock { $0 = sends }
    }

    /// What ``publish()`` published last.
    func read() -> PublishedSends {
        published.withLock { $0 }
    }
}
