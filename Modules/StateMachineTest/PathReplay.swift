import StateMachineCore
import StateMachineGraph
import StateMachineHierarchy
import StateMachineTable

/// Checks one generated path as a runner replays it: the state the fresh machine starts
/// in, then the state after each step, against the path's nodes and the user's invariant.
/// The first failure is reported, naming the path, its events and the step; the runner then
/// moves on to the next path.
struct PathChecker<StateValue: Sendable, EventValue: Sendable> {
    let path: StatePath<StateValue, EventValue>
    let number: Int
    let count: Int
    let reporter: FailureReporter
    let location: AssertionLocation

    /// Whether the fresh machine starts in the path's start node and satisfies the
    /// invariant there; reports the failure otherwise. `reached` nil means `problem`.
    func checkStart(
        _ reached: StateValue?,
        invariant: (StateValue) -> Bool,
        problem: @autoclosure () -> String = "no state arrived"
    ) -> Bool {
        guard let reached else { return fail("the fresh machine gave no initial state: \(problem())") }
        guard path.matches(reached, path.start) else {
            return fail("the fresh machine starts in \(path.naming(reached)), not \(path.start.name)")
        }
        guard invariant(reached) else {
            return fail("the invariant does not hold in the initial state \(path.start.name)")
        }
        return true
    }

    /// Whether step `index` led to its target node and the invariant holds there; reports
    /// the failure otherwise. `reached` nil means `problem` (no state, no transition).
    func checkStep(
        _ index: Int,
        reached: StateValue?,
        invariant: (StateValue) -> Bool,
        problem: @autoclosure () -> String
    ) -> Bool {
        let step = path.steps[index]
        let what = "step \(index + 1) (\(step.label))"
        guard let reached else { return fail("\(what) should lead to \(step.target.name), but \(problem())") }
        guard path.matches(reached, step.target) else {
            return fail("\(what) led to \(path.naming(reached)), expected \(step.target.name)")
        }
        guard invariant(reached) else {
            return fail("the invariant does not hold after \(what) in \(step.target.name)")
        }
        return true
    }

    /// Reports `problem` for the whole path (the machine could not be made).
    func fail(_ problem: String) -> Bool {
        let events = path.steps.map(\.label).joined(separator: ", ")
        reporter.record(
            "Generated path \(number) of \(count) failed: \(problem).\n  path: \(path)\n  events: [\(events)]",
            location
        )
        return false
    }
}

/// The three replays, one per kind of machine, shared by the XCTest and Swift Testing
/// runners.
enum PathReplay {
    /// How long a Core replay waits at least for a new machine's initial state.
    static let initialStateTimeout = Duration.seconds(30)

    /// Replays each path on a new `AsyncStateMachine` of `stateMachine`, through the
    /// assertion DSL (its feed of states and its timeout).
    static func replay<SuperState, SuperEvent>(
        _ paths: [StatePath<any State<SuperState>, any Event<SuperEvent>>],
        on stateMachine: StateMachine<SuperState, SuperEvent>,
        invariant: (any State<SuperState>) -> Bool,
        timeout: Duration,
        coverage: TransitionCoverage?,
        reporter: FailureReporter,
        location: AssertionLocation
    ) async {
        for (index, path) in paths.enumerated() {
            let checker = PathChecker(
                path: path,
                number: index + 1,
                count: paths.count,
                reporter: reporter,
                location: location
            )
            let machine = AsyncStateMachine(stateMachine: stateMachine)
            coverage?.observe(machine)
            await Assertions.run(
                machine: machine,
                timeout: timeout,
                shouldFinishAfterAssertions: true,
                reporter: reporter
            ) { assertions in
                // A new machine always publishes its initial state once observed: only a
                // starved executor delays it, so it gets the longer bound.
                let initialTimeout = max(timeout, PathReplay.initialStateTimeout)
                guard
                    checker.checkStart(
                        await assertions.nextState(timeout: initialTimeout),
                        invariant: invariant,
                        problem: "none within \(initialTimeout)"
                    )
                else {
                    return
                }
                for (stepIndex, step) in path.steps.enumerated() {
                    assertions.send(event: step.event)
                    let reached = await assertions.nextState()
                    guard
                        checker.checkStep(
                            stepIndex,
                            reached: reached,
                            invariant: invariant,
                            problem: "no state arrived within \(timeout)"
                        )
                    else { return }
                }
            }
        }
    }

    /// Replays each path on a new table from `makeTable`, sending each step's event with
    /// its predicates.
    static func replay<State, Event>(
        _ paths: [StatePath<State, TableInput<Event>>],
        on makeTable: () throws -> FSM<State, Event>,
        invariant: (State) -> Bool,
        coverage: TransitionCoverage?,
        reporter: FailureReporter,
        location: AssertionLocation,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        for (index, path) in paths.enumerated() {
            let checker = PathChecker(
                path: path,
                number: index + 1,
                count: paths.count,
                reporter: reporter,
                location: location
            )
            let table: FSM<State, Event>
            do {
                table = try makeTable()
            } catch {
                _ = checker.fail("making the table threw \(error)")
                continue
            }
            guard checker.checkStart(table.state, invariant: invariant) else { continue }
            for (stepIndex, step) in path.steps.enumerated() {
                let before = table.state
                let fired = await table.handleEventReportingFired(step.event.event, predicates: step.event.predicates)
                if fired { coverage?.record(source: "\(before)", event: step.label, target: "\(table.state)") }
                guard
                    checker.checkStep(
                        stepIndex,
                        reached: fired ? table.state : nil,
                        invariant: invariant,
                        problem: "no row fired"
                    )
                else { break }
            }
        }
    }

    /// Replays each path on a new chart from `makeChart` (started if `makeChart` did not
    /// start it), handling each step's event.
    static func replay<StateID, EventID, Payload>(
        _ paths: [StatePath<[StateID], EventID>],
        on makeChart: () throws -> Statechart<StateID, EventID, Payload>,
        invariant: ([StateID]) -> Bool,
        coverage: TransitionCoverage?,
        reporter: FailureReporter,
        location: AssertionLocation
    ) {
        for (index, path) in paths.enumerated() {
            let checker = PathChecker(
                path: path,
                number: index + 1,
                count: paths.count,
                reporter: reporter,
                location: location
            )
            let chart: Statechart<StateID, EventID, Payload>
            do {
                chart = try makeChart()
            } catch {
                _ = checker.fail("making the chart threw \(error)")
                continue
            }
            if !chart.isRunning { chart.start() }
            guard checker.checkStart(chart.activeStates, invariant: invariant) else { continue }
            for (stepIndex, step) in path.steps.enumerated() {
                let outcome: StatechartStepOutcome
                do {
                    outcome = try coverage?.handle(step.event, on: chart) ?? chart.handle(step.event)
                } catch {
                    _ = checker.checkStep(
                        stepIndex,
                        reached: nil,
                        invariant: invariant,
                        problem: "the step threw \(error)"
                    )
                    break
                }
                let reached = outcome == .handled ? chart.activeStates : nil
                guard
                    checker.checkStep(
                        stepIndex,
                        reached: reached,
                        invariant: invariant,
                        problem: "the chart answered \(outcome)"
                    )
                else { break }
            }
        }
    }
}
