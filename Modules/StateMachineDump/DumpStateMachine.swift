import StateMachineCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A new dump machine: it records the contexts it receives, forgets released machines
/// and answers dump requests. Logging is disabled. Most apps use
/// ``defaultDumpStateMachine``; a separate one isolates a test or a subsystem.
public func makeDumpStateMachine() -> AsyncStateMachine<DumpState, DumpEvent> {
    AsyncStateMachine<DumpState, DumpEvent>(initial: DumpState()) {
        When(state: DumpState.self) {
            On(event: DidObserveTransition.self) { state, event in
                Transition(state: state.recording(event.context))
            }
            On(event: DidObserveDeinit.self) { state, event in
                state[stateMachineId: event.stateMachineId] != nil
            } transition: { state, event in
                Transition(state: state.forgetting(event.stateMachineId))
            }
            On(event: DidRequestDump.self) { state, event in
                Output(sideEffect: { () async -> (any Event<DumpEvent>)? in
                    await event.export(state.stateContexts)
                    return nil
                })
            }
            On(event: DidRequestReset.self) { _, _ in
                Transition(state: DumpState())
            }
        }
    }
    .disableLog()
}

/// The mediator dumped machines send their states to by default.
public let defaultDumpMediator = Mediator<DumpEvent>()

/// The reference implementation's misspelled name of ``defaultDumpMediator``.
@available(*, deprecated, renamed: "defaultDumpMediator")
public var dedaultDumpMediator: Mediator<DumpEvent> { defaultDumpMediator }

/// The dump machine that ``startCollecting(dumpStateMachine:dumpMediator:)`` and
/// ``dump(dumpStateMachine:export:)`` use by default. It lives as long as the process.
public let defaultDumpStateMachine = makeDumpStateMachine()
