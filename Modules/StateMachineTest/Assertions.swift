import StateMachineCore
import StateMachineGraph

/// The assertion DSL handed to `XCTAssert(asyncStateMachine:)` and
/// `expect(asyncStateMachine:)`: send events, then assert every state the machine goes
/// through, in order.
///
/// ```swift
/// await XCTAssert(asyncStateMachine: machine) { assertions in
///     await assertions.assert(state: DataIsIdle())
///     assertions.send(DidRequestLoading(id: 1701))
///     await assertions.assert(state: DataIsLoading())
///     await assertions.assertNoTransition()
/// }
/// ```
///
/// A failure says which state was expected, which one arrived (or that none did within
/// the timeout) and after which event.
public final class Assertions<SuperState, SuperEvent> {
    let machine: AsyncStateMachine<SuperState, SuperEvent>
    let timeout: Duration
    let reporter: FailureReporter
    let feed: StateFeed<SuperState>
    private var lastEvent: String?

    init(
        machine: AsyncStateMachine<SuperState, SuperEvent>,
        timeout: Duration,
        reporter: FailureReporter,
        feed: StateFeed<SuperState>
    ) {
        self.machine = machine
        self.timeout = timeout
        self.reporter = reporter
        self.feed = feed
    }

    /// Sends `event` to the machine without waiting.
    public func send(event: any Event<SuperEvent>) {
        lastEvent = describe(event)
        machine.send(event: event)
    }

    /// Sends `event` to the machine without waiting (the seed README's unlabeled spelling).
    public func send(_ event: any Event<SuperEvent>) {
        send(event: event)
    }

    /// Sends `event` and waits until it is processed and its output has ended.
    public func sendAndWait(event: any Event<SuperEvent>) async {
        lastEvent = describe(event)
        await machine.sendAndWait(event: event)
    }

    /// Sends `event` and waits until it is processed and its output has ended.
    public func sendAndWait(_ event: any Event<SuperEvent>) async {
        await sendAndWait(event: event)
    }

    /// Asserts that the next state the machine produces equals `expected`, within the
    /// assertion timeout.
    ///
    /// - Parameters:
    ///   - expected: the state the machine must produce next.
    ///   - fail: a failure function to use instead of the test framework's (a spy).
    ///   - fileID: the file of the call, for the failure report.
    ///   - file: the path of the file of the call, for the failure report.
    ///   - line: the line of the call, for the failure report.
    ///   - column: the column of the call, for the failure report.
    public func assert<S: State & Equatable>(
        state expected: S,
        fail: FailFunction? = nil,
        fileID: String = #fileID,
        file: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async where S.SuperState == SuperState {
        let location = AssertionLocation(fileID: fileID, file: file, line: line, column: column)
        let reporter = fail.map(FailureReporter.custom) ?? self.reporter
        guard let received = await feed.next(timeout: timeout) else {
            reporter.record(
                "Expected state \(describe(expected)) \(afterLastEvent), but no state arrived within \(timeout).",
                location
            )
            return
        }
        guard let actual = received as? S, actual == expected else {
            reporter.record(
                "Expected state \(describe(expected)) \(afterLastEvent), but received \(describe(received)).",
                location
            )
            return
        }
    }

    /// Asserts that the machine produces no state within `timeout`.
    public func assertNoTransition(
        timeout: Duration = .milliseconds(250),
        fail: FailFunction? = nil,
        fileID: String = #fileID,
        file: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let location = AssertionLocation(fileID: fileID, file: file, line: line, column: column)
        let reporter = fail.map(FailureReporter.custom) ?? self.reporter
        if let received = await feed.next(timeout: timeout) {
            reporter.record("Expected no transition \(afterLastEvent), but received \(describe(received)).", location)
        }
    }

    /// The next state the machine produces within `timeout` (the assertion timeout by
    /// default), or nil: the path runners' read of the feed.
    func nextState(timeout: Duration? = nil) async -> (any State<SuperState>)? {
        await feed.next(timeout: timeout ?? self.timeout)
    }

    private var afterLastEvent: String {
        lastEvent.map { "after event \($0)" } ?? "before any event"
    }
}

extension Assertions {
    /// Runs `assert` against a machine whose states are pumped into the feed, then
    /// finishes the machine (or stops observing it).
    static func run(
        machine: AsyncStateMachine<SuperState, SuperEvent>,
        timeout: Duration,
        shouldFinishAfterAssertions: Bool,
        reporter: FailureReporter,
        assert: (Assertions) async -> Void
    ) async {
        let feed = StateFeed<SuperState>()
        let pump = Task {
            for await state in machine { feed.push(state) }
            feed.finish()
        }
        await assert(Assertions(machine: machine, timeout: timeout, reporter: reporter, feed: feed))
        if shouldFinishAfterAssertions {
            await machine.finishAndWait()
            await pump.value
        } else {
            pump.cancel()
            await pump.value
        }
    }

    /// Resolves (state, event) in the machine's table without running it (outputs are not
    /// started) and reports what `failure` says about the resulting new state.
    static func checkTransition(
        machine: AsyncStateMachine<SuperState, SuperEvent>,
        when state: some State<SuperState>,
        on event: any Event<SuperEvent>,
        reporter: FailureReporter,
        location: AssertionLocation,
        failure: ((any State<SuperState>)?) -> String?
    ) async {
        let newState = await machine.stateMachine.transition(state: state, event: event)?.transition?.state()
        if let message = failure(newState) { reporter.record(message, location) }
    }

    static func expectedTransition<S: State & Equatable>(
        when state: some State<SuperState>,
        on event: any Event<SuperEvent>,
        to expected: S
    ) -> ((any State<SuperState>)?) -> String? where S.SuperState == SuperState {
        { newState in
            guard let newState else {
                return
                    "Expected \(describe(state)) on \(describe(event)) to transition to \(describe(expected)), but there is no transition."
            }
            if (newState as? S) == expected { return nil }
            return
                "Expected \(describe(state)) on \(describe(event)) to transition to \(describe(expected)), but it transitions to \(describe(newState))."
        }
    }

    static func expectedNoTransition(
        when state: some State<SuperState>,
        on event: any Event<SuperEvent>
    ) -> ((any State<SuperState>)?) -> String? {
        { newState in
            newState.map {
                "Expected no transition when \(describe(state)) on \(describe(event)), but it transitions to \(describe($0))."
            }
        }
    }
}
