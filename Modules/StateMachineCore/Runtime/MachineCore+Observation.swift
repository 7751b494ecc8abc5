import StateMachineSupport

/// The buffer between the command loop and the machine's single observer.
///
/// Every committed state is buffered, unbounded, until it is consumed, so an observer that
/// starts late still sees every state in order. One iterator at a time holds the lease;
/// the lease ends when its iterator is released, returns nil, or its task is cancelled,
/// and the next iterator carries on where the previous one stopped.
extension MachineCore {
    @usableFromInline
    enum Poll {
        case state(AnyState?)
        case suspend
    }

    /// Hands the states committed so far to the observer: one lock, at most one wake-up.
    /// `lastKnownState` catches up at the same time.
    ///
    /// At the end of a pass a suspended observer is always woken. Within a long pass
    /// (`midPass`, every 256 transitions) it is woken at most once per millisecond: waking
    /// a thread costs tens of microseconds, so a burst hands its states over in few large
    /// batches, and a suspended observer still hears from a long pass every millisecond.
    @inlinable
    func publishPendingStates(midPass: Bool = false) {
        guard !pendingStates.isEmpty || (!midPass && isObserverBehind) else { return }
        let current = currentState
        let now: ContinuousClock.Instant? = midPass ? .now : nil
        let mayWake = now.map { $0 >= lastMidPassWake.advanced(by: midPassWakeInterval) } ?? true
        let wake = shared.withLock { shared -> (UnsafeContinuation<AnyState?, Never>, AnyState)? in
            shared.lastKnownState = current
            guard !shared.isObservationFinished else { return nil }
            shared.states.append(contentsOf: pendingStates)
            // States published without waking the observer may already wait in the buffer:
            // the observer resumes with the oldest.
            guard mayWake, let observer = shared.observer, let lease = shared.leaseHolder,
                case .state(let state?) = Self.poll(&shared, lease: lease)
            else { return nil }
            shared.observer = nil
            return (observer, state)
        }
        pendingStates.removeAll(keepingCapacity: true)
        isObserverBehind = wake == nil && !mayWake
        if let (observer, state) = wake {
            if let now { lastMidPassWake = now }
            observer.resume(returning: state)
        }
    }

    /// Brings `lastKnownState` up to date before the drainer lets another task see the
    /// machine's progress between two publications (see ``open(_:)``).
    @inlinable
    func publishLastKnownState() {
        let current = currentState
        shared.withLock { $0.lastKnownState = current }
    }

    /// Ends observation: buffered states stay readable, then `next` returns nil.
    @usableFromInline
    func finishObservation() {
        let observer = shared.withLock { shared -> UnsafeContinuation<AnyState?, Never>? in
            shared.isObservationFinished = true
            defer { shared.observer = nil }
            return shared.observer
        }
        observer?.resume(returning: nil)
    }

    /// Takes the lease, or returns nil when another iterator holds it.
    @usableFromInline
    func acquireLease() -> Int? {
        shared.withLock { shared in
            guard shared.leaseHolder == nil else { return nil }
            defer { shared.nextLease += 1 }
            shared.leaseHolder = shared.nextLease
            return shared.nextLease
        }
    }

    /// Ends a lease; a pending `nextState` of that lease returns nil. `unconsumed` (states
    /// the lease took but did not hand out) go back to the front of the buffer.
    @usableFromInline
    func releaseLease(_ lease: Int, returning unconsumed: ArraySlice<AnyState> = []) {
        let observer = shared.withLock { shared -> UnsafeContinuation<AnyState?, Never>? in
            guard shared.leaseHolder == lease else { return nil }
            if !unconsumed.isEmpty {
                shared.states.replaceSubrange(shared.statesHead..<shared.statesHead, with: unconsumed)
            }
            shared.leaseHolder = nil
            defer { shared.observer = nil }
            return shared.observer
        }
        observer?.resume(returning: nil)
    }

    /// Moves every buffered state into `taken` for the holder of `lease`; false when there
    /// was none (or the lease has ended).
    @inlinable
    func takeStates(lease: Int, into taken: inout [AnyState]) -> Bool {
        shared.withLock { shared in
            guard shared.leaseHolder == lease, shared.statesHead < shared.states.count else { return false }
            if shared.statesHead == 0 {
                swap(&taken, &shared.states)
            } else {
                taken.append(contentsOf: shared.states[shared.statesHead...])
                shared.states.removeAll(keepingCapacity: true)
            }
            shared.statesHead = 0
            return true
        }
    }

    @inlinable
    static func poll(_ shared: inout Shared, lease: Int) -> Poll {
        guard shared.leaseHolder == lease else { return .state(nil) }
        if shared.statesHead < shared.states.count {
            let state = shared.states[shared.statesHead]
            shared.statesHead += 1
            if shared.statesHead == shared.states.count {
                shared.states.removeAll(keepingCapacity: true)
                shared.statesHead = 0
            } else if shared.statesHead >= 1024 && shared.statesHead * 2 >= shared.states.count {
                shared.states.removeFirst(shared.statesHead)
                shared.statesHead = 0
            }
            return .state(state)
        }
        if shared.isObservationFinished {
            shared.leaseHolder = nil
            return .state(nil)
        }
        return .suspend
    }

    /// The next state for the holder of `lease`, or nil when observation is finished and
    /// drained, the lease has ended, or the calling task is cancelled (which ends the lease).
    @inlinable
    nonisolated(nonsending) func nextState(lease: Int) async -> AnyState? {
        if Task.isCancelled {
            releaseLease(lease)
            return nil
        }
        if case .state(let state) = shared.withLock({ Self.poll(&$0, lease: lease) }) { return state }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<AnyState?, Never>) in
                let poll = shared.withLock { shared -> Poll in
                    let poll = Self.poll(&shared, lease: lease)
                    if case .suspend = poll { shared.observer = continuation }
                    return poll
                }
                if case .state(let state) = poll { continuation.resume(returning: state) }
            }
        } onCancel: {
            releaseLease(lease)
        }
    }
}
