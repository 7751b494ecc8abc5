import StateMachineCore

/// Hands the recorded contexts (the latest state of every live, dumped machine, in the
/// order the machines were first seen) to `export`, and returns at once.
///
/// ```swift
/// StateMachineDump.dump { stateContexts in
///     for context in stateContexts { print(context) }
/// }
/// ```
///
/// The dump is a consistent snapshot: it reflects every update the dump machine
/// processed before the request. Updates travel asynchronously from each machine's
/// lifecycle callbacks, so a transition committed a moment ago may not be in it yet.
public func dump(
    dumpStateMachine: AsyncStateMachine<DumpState, DumpEvent> = defaultDumpStateMachine,
    export: @escaping @Sendable ([StateContext]) async -> Void
) {
    dumpStateMachine.send(event: DidRequestDump(export: export))
}

/// ``dump(dumpStateMachine:export:)``, then waits until `export` has returned.
public func dumpAndWait(
    dumpStateMachine: AsyncStateMachine<DumpState, DumpEvent> = defaultDumpStateMachine,
    export: @escaping @Sendable ([StateContext]) async -> Void
) async {
    await dumpStateMachine.sendAndWait(event: DidRequestDump(export: export))
}
