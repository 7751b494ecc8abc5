import StateMachineCore
import XCTest

/// Runs the machine and checks, with `assert`, every state it goes through (XCTest).
///
/// - Parameters:
///   - asyncStateMachine: the machine under test, observed through its sequence of states.
///   - timeout: how long each `assert(state:)` waits for the next state (default 2 s).
///   - shouldFinishAfterAssertions: finish the machine (and await its outputs) afterwards.
///   - fail: the failure function; `XCTFail` by default. Inject a spy to test assertions.
///   - assert: the flow: the states expected, in order, and the events sent between them.
public func XCTAssert<SuperState, SuperEvent>(
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
        reporter: fail.map(FailureReporter.custom) ?? .xcTest,
        assert: assert
    )
}

/// Checks in the machine's table, without running it, that `state` on `event` transitions
/// to `expected` (XCTest).
public func XCTAssertTransition<SuperState, SuperEvent, S: State & Equatable>(
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
        reporter: fail.map(FailureReporter.custom) ?? .xcTest,
        location: AssertionLocation(fileID: fileID, file: file, line: line, column: column),
        failure: Assertions.expectedTransition(when: state, on: event, to: expected)
    )
}

/// Checks in the machine's table, without running it, that `state` on `event` causes no
/// transition (XCTest).
public func XCTAssertNoTransition<SuperState, SuperEvent>(
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
        reporter: fail.map(FailureReporter.custom) ?? .xcTest,
        location: AssertionLocation(fileID: fileID, file: file, line: line, column: column),
        failure: Assertions.expectedNoTransition(when: state, on: event)
    )
}
