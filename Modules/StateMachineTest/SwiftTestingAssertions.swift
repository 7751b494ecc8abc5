import StateMachineCore
import Testing

/// Runs the machine and checks, with `assert`, every state it goes through (Swift
/// Testing: failures are recorded as issues at each assertion's source location).
///
/// ```swift
/// @Test func loading() async {
///     await expect(asyncStateMachine: machine) { assertions in
///         await assertions.assert(state: DataIsIdle())
///         assertions.send(DidRequestLoading(id: 1701))
///         await assertions.assert(state: DataIsLoading())
///     }
/// }
/// ```
public func expect<SuperState, SuperEvent>(
    asyncStateMachine: AsyncStateMachine<SuperState, SuperEvent>,
    timeout: Duration? = nil,
    shouldFinishAfterAssertions: Bool = true,
    fail: FailFunction? = nil,
    assert: (Assertions<SuperState, SuperEvent>) async -> Void
) async {
    await Assertions.run(
        machine: asyncStateMachine,
        timeout: timeout ?? .seconds(2),
        shouldFinishAfterAssertions: shouldFinishAfterAssertions,
        reporter: fail.map(FailureReporter.custom) ?? .swiftTesting,
        assert: assert
    )
}

/// Checks in the machine's table, without running it, that `state` on `event` transitions
/// to `expected` (Swift Testing).
public func expectTransition<SuperState, SuperEvent, S: State & Equatable>(
    asyncStateMachine: AsyncStateMachine<SuperState, SuperEvent>,
    when state: some State<SuperState>,
    on event: some Event<SuperEvent>,
    transitionsTo expected: S,
    fail: FailFunction? = nil,
    fileID: String = #fileID,
    file: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) async where S.SuperState == SuperState {
    await Assertions.checkTransition(
        machine: asyncStateMachine,
        when: state,
        on: event,
        reporter: fail.map(FailureReporter.custom) ?? .swiftTesting,
        location: AssertionLocation(fileID: fileID, file: file, line: line, column: column),
        failure: Assertions.expectedTransition(when: state, on: event, to: expected)
    )
}

/// Checks in the machine's table, without running it, that `state` on `event` causes no
/// transition (Swift Testing).
public func expectNoTransition<SuperState, SuperEvent>(
    asyncStateMachine: AsyncStateMachine<SuperState, SuperEvent>,
    when state: some State<SuperState>,
    on event: some Event<SuperEvent>,
    fail: FailFunction? = nil,
    fileID: String = #fileID,
    file: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) async {
    await Assertions.checkTransition(
        machine: asyncStateMachine,
        when: state,
        on: event,
        reporter: fail.map(FailureReporter.custom) ?? .swiftTesting,
        location: AssertionLocation(fileID: fileID, file: file, line: line, column: column),
        failure: Assertions.expectedNoTransition(when: state, on: event)
    )
}
