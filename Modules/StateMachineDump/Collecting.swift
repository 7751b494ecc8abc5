import StateMachineCore
import StateMachineSupport

/// A collecting session: the dump machine receives from the mediator, and a task drains
/// its states (a machine buffers its states until they are consumed).
private struct CollectingSession: Sendable {
    let dumpStateMachine: AsyncStateMachine<DumpState, DumpEvent>
    let dumpMediator: Mediator<DumpEvent>
    let drain: Task<Void, Never>

    func end() {
        dumpMediator.unregisterReceiver(id: dumpStateMachine.id)
        drain.cancel()
        dumpStateMachine.send(event: DidRequestReset())
    }
}

private let session = Lock<CollectingSession?>(nil)

/// Starts recording the states of every machine that called
/// ``StateMachineCore/AsyncStateMachine/activateDump(trackDeinit:dumpMediator:)`` with
/// `dumpMediator`: from now on their new states (and releases) reach `dumpStateMachine`.
///
/// Start collecting before the machines start: a machine's initial state is sent once,
/// when it starts, so a machine that started earlier appears at its next transition.
/// Calling it again ends the current session first (as ``stopCollecting()`` does).
public func startCollecting(
    dumpStateMachine: AsyncStateMachine<DumpState, DumpEvent> = defaultDumpStateMachine,
    dumpMediator: Mediator<DumpEvent> = defaultDumpMediator
) {
    session.withLock { current in
        let previous = current
        previous?.end()
        dumpStateMachine.connectAsReceiver(to: dumpMediator)
        let drain = Task {
            // The previous drain must release its iterator first: observation is unicast.
            await previous?.drain.value
            for await _ in dumpStateMachine {}
        }
        current = CollectingSession(dumpStateMachine: dumpStateMachine, dumpMediator: dumpMediator, drain: drain)
    }
}

/// Stops recording and forgets what was recorded: a dump made afterwards is empty (a
/// stale record would show released machines as alive). Does nothing when not collecting.
public func stopCollecting() {
    let previous = session.withLock { current in
        defer { current = nil }
        return current
    }
    previous?.end()
}

/// Whether a collecting session is running.
public var isCollecting: Bool { session.withLock { $0 != nil } }
