import FoundationEssentials

extension DurableMachine {
    // MARK: Delivering effects

    func startDeliveries() {
        guard delivery == nil, !deliveries.isEmpty, !isClosed else { return }
        delivery = Task { await self.deliverAll() }
    }

    /// Delivers the outbox in order; each effect is marked delivered after its handler
    /// returned (with its feedback event's step, when it returned one).
    func deliverAll() async {
        while !deliveries.isEmpty, !Task.isCancelled {
            let entry = deliveries.removeFirst()
            let effect = DeliveredEffect(machine: key, key: entry.key, name: entry.name, payload: entry.payload)
            do {
                if let event = try await form.perform(effect) {
                    _ = try await withCheckedThrowingContinuation { waiter in
                        pending.append(Pending(source: .feedback(event, effect: entry.key), waiter: .suspended(waiter)))
                        startDraining()
                    }
                } else {
                    try await store.markDelivered(key, effects: [entry.key])
                }
                deliveryFailures[entry.key] = nil
            } catch {
                deliveryFailures[entry.key] = "\(error)"
            }
        }
        delivery = nil
        resumeIdleWaiters()
    }
}
