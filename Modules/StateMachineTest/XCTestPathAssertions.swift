import StateMachineCore
import StateMachineGraph
import StateMachineHierarchy
import StateMachineTable
import XCTest

/// Replays each generated path of a Core machine on a new `AsyncStateMachine` of
/// `stateMachine`, through the assertion DSL, and checks that every step leads to the
/// path's next state and that `invariant` holds in every state (XCTest: fails the test with `XCTFail`).
///
/// A failure names the path (its number, its walk and its events) and the step that
/// broke it; each path is checked to its first failure, then the next path runs. States
/// are compared as the graph's exploration compared them (the state, or its `key:`).
/// Outputs run as they do in the app; a path is replayed only with the events it names.
///
/// - Parameters:
///   - paths: the paths to replay (`graph.transitionCover()`, `graph.shortestPaths()`...).
///   - stateMachine: the definition; every path runs on a new machine of it.
///   - invariant: what must hold in every state reached (default: nothing).
///   - timeout: how long to wait for the state each event leads to (default 10 s: a
///     replay that passes never waits for it, and long paths run beside other tests); a
///     new machine's initial state is awaited at least 30 s.
///   - coverage: a recorder that observes each machine (`TransitionCoverage`, from `StateMachineGraph`).
///   - fail: a failure function to use instead of the test framework's (a spy).
///   - fileID: the file of the call, for the failure report.
///   - file: the path of the file of the call, for the failure report.
///   - line: the line of the call, for the failure report.
///   - column: the column of the call, for the failure report.
public func XCTAssertPaths<SuperState, SuperEvent>(
    _ paths: [StatePath<any State<SuperState>, any Event<SuperEvent>>],
    replayingOn stateMachine: StateMachine<SuperState, SuperEvent>,
    invariant: (any State<SuperState>) -> Bool = { _ in true },
    timeout: Duration = .seconds(10),
    coverage: TransitionCoverage? = nil,
    fail: FailFunction? = nil,
    fileID: String = #fileID,
    file: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) async {
    await PathReplay.replay(
        paths,
        on: stateMachine,
        invariant: invariant,
        timeout: timeout,
        coverage: coverage,
        reporter: fail.map(FailureReporter.custom) ?? .xcTest,
        location: AssertionLocation(fileID: fileID, file: file, line: line, column: column)
    )
}

/// Replays each generated path of a table on a new `FSM` from `makeTable`, sending each
/// step's event with its predicates, and checks that a row fires, that it leads to the
/// path's next state and that `invariant` holds in every state (XCTest: fails the test with `XCTFail`).
///
/// A failure names the path (its number, its walk and its events) and the step that
/// broke it; each path is checked to its first failure, then the next path runs. The
/// table's actions run, as they do in the app.
///
/// - Parameters:
///   - paths: the paths to replay (`graph.transitionCover()`, `graph.shortestPaths()`...).
///   - makeTable: makes a new, built table in its initial state; called once per path.
///   - invariant: what must hold in every state reached (default: nothing).
///   - coverage: a recorder of every transition replayed (`TransitionCoverage`, from `StateMachineGraph`).
///   - fail: a failure function to use instead of the test framework's (a spy).
///   - fileID: the file of the call, for the failure report.
///   - file: the path of the file of the call, for the failure report.
///   - line: the line of the call, for the failure report.
///   - column: the column of the call, for the failure report.
///   - isolation: where the tables run (the caller's isolation).
public func XCTAssertPaths<State, Event>(
    _ paths: [StatePath<State, TableInput<Event>>],
    replayingOn makeTable: () throws -> FSM<State, Event>,
    invariant: (State) -> Bool = { _ in true },
    coverage: TransitionCoverage? = nil,
    fail: FailFunction? = nil,
    fileID: String = #fileID,
    file: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
) async {
    await PathReplay.replay(
        paths,
        on: makeTable,
        invariant: invariant,
        coverage: coverage,
        reporter: fail.map(FailureReporter.custom) ?? .xcTest,
        location: AssertionLocation(fileID: fileID, file: file, line: line, column: column)
    )
}

/// Replays each generated path of a statechart on a new chart from `makeChart` (started
/// if it is not), handling each step's event, and checks that the chart handles it, that
/// it leads to the path's next configuration and that `invariant` holds in every
/// configuration (XCTest: fails the test with `XCTFail`).
///
/// A failure names the path (its number, its walk and its events) and the step that
/// broke it; each path is checked to its first failure, then the next path runs.
///
/// - Parameters:
///   - paths: the paths to replay (`graph.transitionCover()`, `graph.shortestPaths()`...).
///   - makeChart: makes a new chart; called once per path.
///   - invariant: what must hold in every configuration reached, given its active states
///     (default: nothing).
///   - coverage: a recorder of every step replayed (`TransitionCoverage`, from `StateMachineGraph`).
///   - fail: a failure function to use instead of the test framework's (a spy).
///   - fileID: the file of the call, for the failure report.
///   - file: the path of the file of the call, for the failure report.
///   - line: the line of the call, for the failure report.
///   - column: the column of the call, for the failure report.
public func XCTAssertPaths<StateID, EventID, Payload>(
    _ paths: [StatePath<[StateID], EventID>],
    replayingOn makeChart: () throws -> Statechart<StateID, EventID, Payload>,
    invariant: ([StateID]) -> Bool = { _ in true },
    coverage: TransitionCoverage? = nil,
    fail: FailFunction? = nil,
    fileID: String = #fileID,
    file: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    PathReplay.replay(
        paths,
        on: makeChart,
        invariant: invariant,
        coverage: coverage,
        reporter: fail.map(FailureReporter.custom) ?? .xcTest,
        location: AssertionLocation(fileID: fileID, file: file, line: line, column: column)
    )
}
