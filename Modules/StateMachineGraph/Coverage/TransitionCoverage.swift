import StateMachineCore
import StateMachineHierarchy
import StateMachineSupport
import StateMachineTable

/// An opt-in record of the transitions machines took during a test run, to list the
/// transitions of a state graph that no test took.
///
/// Share one recorder across the tests of a machine (a `static let`), attach it where
/// each test makes its machine, and at the end ask it for what was left untested:
///
/// ```swift
/// let coverage = TransitionCoverage()
/// coverage.observe(machine)               // Core: every transition the machine commits
/// ...
/// print(coverage.report(untestedIn: graph))
/// ```
///
/// Transitions are told apart by their readable names, as the graph prints them
/// (`source -(event)-> target`), so a recorder serves any number of machines and graphs.
/// Recording is safe from any thread and from concurrent tests (the package's lock).
///
/// How transitions reach it, per kind:
/// - Core: ``observe(_:)`` registers the machine's `onTransition` hook; the hook is
///   delivered after the transition, and every delivery is over once the machine has
///   finished (`finishAndWait()`, which the assertion DSL calls at the end of a test).
/// - Table: an `FSM` has no transition hook, so send through ``handle(_:predicates:on:isolation:)``,
///   which records the states before and after.
/// - Statechart: likewise ``handle(_:on:)``, which records the configurations before and
///   after a handled step.
/// The path runners of `StateMachineTest` take a recorder too, and record every step they
/// replay.
public final class TransitionCoverage: Sendable {
    /// The transitions taken, in the order first taken, as `source -(event)-> target`.
    private let taken = Lock<(order: [String], seen: Set<String>)>(([], []))

    /// An empty recorder.
    public init() {}

    /// Records that a machine went from `source` to `target` on `event` (readable names,
    /// as graphs print them).
    public func record(source: String, event: String, target: String) {
        let line = "\(source) -(\(event))-> \(target)"
        taken.withLock { taken in
            if taken.seen.insert(line).inserted { taken.order.append(line) }
        }
    }

    /// The transitions recorded so far, in the order first taken, as
    /// `source -(event)-> target`.
    public var recorded: [String] { taken.withLock { $0.order } }

    /// The edges of `graph` that no recorded transition took, in the graph's order.
    public func untested<StateValue, EventValue>(
        in graph: StateGraph<StateValue, EventValue>
    ) -> [StateGraph<StateValue, EventValue>.Edge] {
        let seen = taken.withLock { $0.seen }
        return graph.edges.filter { edge in
            !seen.contains("\(graph.nodes[edge.source].name) -(\(edge.label))-> \(graph.nodes[edge.target].name)")
        }
    }

    /// A report for `graph`: how many of its transitions were taken, then one line per
    /// transition no test took.
    ///
    /// ```
    /// 5 of 6 transitions of FSM<State, Event> taken; untested:
    ///   unlocked -(coin)-> unlocked
    /// ```
    public func report<StateValue, EventValue>(untestedIn graph: StateGraph<StateValue, EventValue>) -> String {
        let untested = untested(in: graph)
        let header = "\(graph.edges.count - untested.count) of \(graph.edges.count) transitions of \(graph.name) taken"
        guard !untested.isEmpty else { return header + "; none untested" }
        return ([header + "; untested:"] + untested.map { "  " + graph.line(for: $0) }).joined(separator: "\n")
    }
}

extension TransitionCoverage {
    /// Records every transition `machine` commits from now on, through its
    /// `onTransition` hook (names as ``StateMachineCore/StateMachine/stateGraph(events:maxDepth:maxNodes:key:)``
    /// gives them). The hook runs after each transition; once the machine has finished,
    /// every transition it took is recorded.
    public func observe<SuperState, SuperEvent>(_ machine: AsyncStateMachine<SuperState, SuperEvent>) {
        machine.onTransition { [self] _, state, event, newState in
            record(source: describe(state), event: describe(event), target: describe(newState))
        }
    }

    /// Handles `event` with `predicates` on `table` (as `FSM.handleEvent` does) and records
    /// the transition, from the state before to the state after, when a row fired. Pass
    /// the predicates the row names, so that the event reads as the graph's edge does.
    public func handle<State, Event>(
        _ event: Event,
        predicates: [any Predicate] = [],
        on table: FSM<State, Event>,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        let input = TableInput(event, predicates: predicates)
        let before = table.state
        let fired = await table.handleEventReportingFired(event, predicates: predicates)
        if fired {
            record(source: "\(before)", event: input.description, target: "\(table.state)")
        }
    }

    /// Handles the event `name` on `chart` (as `Statechart.handle` does) and records the
    /// transition between the configurations before and after when the step handled it.
    @discardableResult
    public func handle<StateID, EventID, Payload>(
        _ name: EventID,
        on chart: Statechart<StateID, EventID, Payload>
    ) throws -> StatechartStepOutcome {
        let before = chart.activeStates
        let outcome = try chart.handle(name)
        if outcome == .handled {
            record(
                source: Statechart<StateID, EventID, Payload>.configurationName(before),
                event: "\(name)",
                target: Statechart<StateID, EventID, Payload>.configurationName(chart.activeStates)
            )
        }
        return outcome
    }
}
