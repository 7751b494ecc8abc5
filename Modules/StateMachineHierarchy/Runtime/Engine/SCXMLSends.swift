import StateMachineSupport

/// What an SCXML session keeps besides its configuration and data: the delayed `<send>`s
/// waiting for their timers, and how many send ids it generated. Only charts read from
/// SCXML have one (`StatechartEngine.sends`); the executable content of their blocks
/// reaches it through the engine.
///
/// `@unchecked Sendable` invariant: every stored `var` is drainer-confined, read and
/// written only by the chart's current drainer (see `StatechartEngine`); `published` is
/// behind its own lock, and `engine` is set once, before the chart is shared.
package final class SCXMLSends: @unchecked Sendable {
    /// An event sent with a delay, waiting for its timer.
    struct PendingSend {
        /// A number never reused, so a timer whose send is gone (cancelled, fired, halted)
        /// delivers nothing.
        let sequence: UInt64
        let request: StepRequest
        /// The event's payload (`_event`'s fields).
        let payload: (any Sendable)?
        let name: String
        let id: String?
        /// For a send to another session: delivers the event there instead of queueing it
        /// here when the timer fires.
        let forward: (@Sendable () -> Void)?
        let timer: StatechartTimer
        let deadline: Duration
    }

    /// A pending send as a snapshot restores it: the time it had left instead of a timer.
    typealias RestoredSend = (
        request: StepRequest, payload: (any Sendable)?, name: String, id: String?, remaining: Duration
    )

    /// The engine whose queue the sends go to (set by the engine's `init`).
    weak var engine: StatechartEngine?
    /// In the order they were made (by sequence), at most `StatechartLimits.maxPendingSends`.
    private var pending: [PendingSend] = []
    private var nextSequence: UInt64 = 0
    private var generatedIDCount = 0
    /// What a snapshot reads, as of the last step that changed it.
    private let published = Lock(PublishedSends())

    /// Queues `request` (the event `name`, with `payload`) at the back of the chart's
    /// queue, now or after `delay` on the chart's clock; `id` lets ``cancel(matching:)``
    /// find it. With `forward`, the timer calls it instead (a delayed send to another
    /// session). `armed` arms a timer even for no delay (a restored send that was due).
    /// - Returns: false, sending nothing, when `StatechartLimits.maxPendingSends` delayed
    ///   sends are pending already.
    @discardableResult
    package func schedule(
        _ request: StepRequest,
        payload: (any Sendable)? = nil,
        name: String,
        delay: Duration,
        id: String?,
        forward: (@Sendable () -> Void)? = nil,
        armed: Bool = false
    ) -> Bool {
        guard let engine else { return false }
        guard delay > .zero || armed else {
            if let forward {
                forward()
            } else {
                engine.enqueue(QueueItem(request: request, payload: payload, completion: nil, selfFed: true))
            }
            return true
        }
        guard pending.count < StatechartLimits.maxPendingSends else { return false }
        let sequence = nextSequence
        nextSequence += 1
        let timer = engine.clock.schedule(after: delay) { [weak engine] in
            _ = engine?.submit { _ in QueueItem(request: .sendDue(sequence), payload: nil, completion: nil) }
        }
        pending.append(
            PendingSend(
                sequence: sequence,
                request: request,
                payload: payload,
                name: name,
                id: id,
                forward: forward,
                timer: timer,
                deadline: engine.clock.now + delay
            )
        )
        engine.sendsChanged()
        return true
    }

    /// Removes the send whose timer fired and returns its request and payload; nil when it
    /// is gone (cancelled or halted since) or was delivered to another session.
    func takeDue(_ sequence: UInt64) -> (request: StepRequest, payload: (any Sendable)?)? {
        guard let position = pending.firstIndex(where: { $0.sequence == sequence }) else { return nil }
        engine?.sendsChanged()
        let send = pending.remove(at: position)
        if let forward = send.forward {
            forward()
            return nil
        }
        return (send.request, send.payload)
    }

    /// The event name of the pending send `sequence`, for traces.
    func name(of sequence: UInt64) -> String? {
        pending.first { $0.sequence == sequence }?.name
    }

    /// Cancels the pending sends `matching` accepts (by their id).
    package func cancel(matching: (String?) -> Bool) {
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

    /// A new send id, unique in the session (for `idlocation`).
    package func generateID() -> String {
        generatedIDCount += 1
        engine?.sendsChanged()
        return "send.\(generatedIDCount)"
    }

    /// Takes a snapshot's sends; their timers restart with what they had left.
    func restore(_ sends: [RestoredSend], generatedIDCount: Int) {
        self.generatedIDCount = generatedIDCount
        for send in sends {
            schedule(
                send.request,
                payload: send.payload,
                name: send.name,
                delay: send.remaining,
                id: send.id,
                armed: true
            )
        }
    }

    /// Publishes the sends for snapshots (inside the configuration's write). Sends to other
    /// sessions are left out: a restored session has no link to them.
    func publish() {
        let sends = PublishedSends(
            sends: pending.filter { $0.forward == nil }.map {
                ($0.name, $0.id, ($0.payload as? SCXMLEventFields)?.data, $0.deadline)
            },
            generatedSendIDCount: generatedIDCount
        )
        published.withLock { $0 = sends }
    }

    /// What ``publish()`` published last.
    func read() -> PublishedSends {
        published.withLock { $0 }
    }
}
