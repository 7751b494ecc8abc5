import TestSupport
import Testing

@testable import StateMachineCore

// Parent
struct RootState: Equatable, Sendable { let name: String }
enum RootEvent {}
struct RootIdle: State { var superState: RootState { RootState(name: "idle") } }
struct RootRunning: State {
    var round = 0
    var superState: RootState { RootState(name: "running") }
}
struct RootSucceeded: State { var superState: RootState { RootState(name: "succeeded") } }
struct RootStart: Event { typealias SuperEvent = RootEvent }
struct RootStartChildren: Event { typealias SuperEvent = RootEvent }
struct RootNextRound: Event { typealias SuperEvent = RootEvent }
struct RootStop: Event { typealias SuperEvent = RootEvent }
struct RootNoop: Event { typealias SuperEvent = RootEvent }
struct RootPing: Event { typealias SuperEvent = RootEvent }
struct RootChildReported: Event {
    typealias SuperEvent = RootEvent
    let report: String
}
struct RootWasSuccessful: Event { typealias SuperEvent = RootEvent }

// Children: three machines of different types.
enum AuthMachine {}
enum SyncMachine {}
enum AuditMachine {}

struct AuthState: Sendable {}
enum AuthEvent {}
struct AuthIdle: State { var superState: AuthState { AuthState() } }
struct AuthFinished: State { var superState: AuthState { AuthState() } }
struct AuthStart: Event { typealias SuperEvent = AuthEvent }
struct AuthPing: Event { typealias SuperEvent = AuthEvent }

struct SyncState: Sendable {}
enum SyncEvent {}
struct SyncIdle: State { var superState: SyncState { SyncState() } }
struct SyncWorking: State { var superState: SyncState { SyncState() } }
struct SyncFinished: State { var superState: SyncState { SyncState() } }
struct SyncStart: Event { typealias SuperEvent = SyncEvent }
struct SyncComplete: Event { typealias SuperEvent = SyncEvent }
struct SyncPing: Event { typealias SuperEvent = SyncEvent }

struct AuditState: Sendable {}
enum AuditEvent {}
struct AuditIdle: State { var superState: AuditState { AuditState() } }
struct AuditDone: State { var superState: AuditState { AuditState() } }
struct AuditStart: Event { typealias SuperEvent = AuditEvent }
struct AuditPing: Event { typealias SuperEvent = AuditEvent }

@Suite("Composite", .timeLimit(.minutes(1)))
struct CompositeTests {
    static func auth() -> StateMachine<AuthState, AuthEvent> {
        StateMachine(id: AuthMachine.self, initial: AuthIdle()) {
            When(state: AuthIdle.self) { On(event: AuthStart.self) { _, _ in Transition(state: AuthFinished()) } }
            When(states: AuthIdle.self, AuthFinished.self) {
                On(event: AuthPing.self) { state, _ in Transition(state: state) }
            }
        }
    }

    /// SyncStart -> working; SyncComplete -> finished. `slowOutput`, when given, runs while working.
    static func sync(
        slowOutput: (@Sendable () async -> (any Event<SyncEvent>)?)? = nil
    ) -> StateMachine<SyncState, SyncEvent> {
        let working = StateMachine<SyncState, SyncEvent>(id: SyncMachine.self, initial: SyncIdle()) {
            When(state: SyncWorking.self) { On(event: SyncComplete.self) { _, _ in Transition(state: SyncFinished()) } }
            When(states: SyncIdle.self, SyncWorking.self, SyncFinished.self) {
                On(event: SyncPing.self) { state, _ in Transition(state: state) }
            }
        }
        if let slowOutput {
            return working.when(state: SyncIdle.self, on: SyncStart.self) { _, _ in
                MealyTransition(transition: Transition(state: SyncWorking()), output: Output(sideEffect: slowOutput))
            }
        }
        return working.when(state: SyncIdle.self, on: SyncStart.self) { _, _ in
            MealyTransition(transition: Transition(state: SyncWorking()))
        }
    }

    static func audit() -> StateMachine<AuditState, AuditEvent> {
        StateMachine(id: AuditMachine.self, initial: AuditIdle()) {
            When(state: AuditIdle.self) { On(event: AuditStart.self) { _, _ in Transition(state: AuditDone()) } }
            When(states: AuditIdle.self, AuditDone.self) {
                On(event: AuditPing.self) { state, _ in Transition(state: state) }
            }
        }
    }

    static func parent(sync: StateMachine<SyncState, SyncEvent> = sync()) -> AsyncStateMachine<RootState, RootEvent> {
        AsyncStateMachine<RootState, RootEvent>(initial: RootIdle()) {
            When(state: RootIdle.self) {
                On(event: RootStart.self) { _, _ in Transition(state: RootRunning()) }
            }
            When(state: RootRunning.self) {
                Composite {
                    auth()
                    sync
                    audit()
                }
                .on(parentEvent: RootStartChildren.self) { _, _ in
                    Forward(to: AuthMachine.self, event: AuthStart())
                    Forward(to: SyncMachine.self, event: SyncStart())
                    Forward(to: AuditMachine.self, event: AuditStart())
                    Forward(to: AuthMachine.self, event: SyncStart())  // not an AuthEvent: dropped
                }
                .on(parentEvent: RootPing.self) { _, _ in
                    Forward(to: AuthMachine.self, event: AuthPing())
                    Forward(to: SyncMachine.self, event: SyncPing())
                    Forward(to: AuditMachine.self, event: AuditPing())
                }
                .on(childEvent: AuthPing.self) { _, _ in Raise(event: RootChildReported(report: "auth ping")) }
                .on(childEvent: SyncPing.self) { _, _ in Raise(event: RootChildReported(report: "sync ping")) }
                .on(childEvent: AuditPing.self) { _, _ in Raise(event: RootChildReported(report: "audit ping")) }
                .on(parentEvent: RootNextRound.self) { _, _ in
                    Forward(to: SyncMachine.self, event: SyncComplete())
                }
                .on(childEvent: AuthStart.self) { state, _ in
                    Raise(event: RootChildReported(report: "auth finished in round \(state.round)"))
                }
                .on(childEvent: SyncStart.self, from: SyncMachine.self) { _, _ in
                    Raise(event: RootChildReported(report: "sync working"))
                }
                .join(whenChildStates: AuthFinished.self, SyncFinished.self, AuditDone.self) {
                    Raise(event: RootWasSuccessful())
                }

                On(event: RootChildReported.self) { state, _ in Transition(state: state) }
                On(event: RootNextRound.self) { state, _ in Transition(state: RootRunning(round: state.round + 1)) }
                On(event: RootWasSuccessful.self) { _, _ in Transition(state: RootSucceeded()) }
                On(event: RootStop.self) { _, _ in Transition(state: RootIdle()) }
            }
            When(state: RootSucceeded.self) {
                On(event: RootStart.self) { _, _ in Transition(state: RootRunning()) }
                // Callbacks of different children run concurrently: one child's report may be
                // queued after the join another child's callback raised.
                On(event: RootChildReported.self) { state, _ in Transition(state: state) }
            }
            When(states: RootIdle.self, RootSucceeded.self) {
                On(event: RootNoop.self) { state, _ in Transition(state: state) }
            }
        }.disableLog()
    }

    /// Collects the parent's transitions as readable lines.
    static func record(_ machine: AsyncStateMachine<RootState, RootEvent>) -> Recorder<String> {
        let lines = Recorder<String>()
        machine.onTransition { _, _, event, new in
            if let report = event as? RootChildReported {
                lines.append(report.report)
            } else {
                lines.append("\(type(of: event)) -> \(type(of: new))")
            }
        }
        return lines
    }

    @Test("forward, raise and a three-child join take the parent to its final state")
    func forwardRaiseJoin() async {
        let machine = Self.parent()
        let lines = Self.record(machine)
        let succeeded = Signal()
        machine.onTransition { _, _, _, new in if new is RootSucceeded { succeeded.raise() } }
        machine.send(event: RootStart())
        machine.send(event: RootStartChildren())
        machine.send(event: RootNextRound())  // same state type: children stay, sync completes
        await within { await succeeded.wait() }
        await machine.finishAndWait()
        let all = lines.all
        // Child callbacks are asynchronous: the parent may already be in a later round.
        #expect(all.contains { $0.hasPrefix("auth finished in round") })
        #expect(all.contains("sync working"))
        #expect(all.first == "RootStart -> RootRunning")
        #expect(all.last { !$0.hasPrefix("auth") && !$0.hasPrefix("sync") } == "RootWasSuccessful -> RootSucceeded")
        #expect(all.filter { $0.hasPrefix("RootWasSuccessful") }.count == 1)
    }

    @Test("the join never fires when one child does not reach its join state")
    func joinNeedsEveryChild() async {
        let machine = Self.parent()
        let lines = Self.record(machine)
        let pinged = Signal()
        let pings = Recorder<String>()
        machine.onTransition { _, _, event, _ in
            // Handlers of one transition run concurrently: keep this one's own record.
            guard let report = (event as? RootChildReported)?.report, report.hasSuffix("ping") else { return }
            pings.append(report)
            if pings.count == 3 { pinged.raise() }
        }
        await machine.sendAndWait(event: RootStart())
        machine.send(event: RootStartChildren())  // auth and audit finish, sync only starts working
        machine.send(event: RootPing())
        // Each child's callbacks run in order, so once every child's ping is reported, the
        // callbacks that evaluated the join after their earlier transitions have finished,
        // and a join they raised was queued in the parent before the ping reports.
        await within { await pinged.wait() }
        await machine.finishAndWait()
        #expect(!lines.all.contains { $0.hasPrefix("RootWasSuccessful") })
        #expect(lines.all.contains("sync working"))
    }

    @Test("nothing is routed to the children once the parent has left the owning state")
    func noRoutingOutsideOwningState() async {
        let machine = Self.parent()
        let lines = Self.record(machine)
        await machine.sendAndWait(event: RootStart())
        await machine.sendAndWait(event: RootStop())
        await machine.sendAndWait(event: RootStartChildren())  // parent is idle: no composite
        await machine.sendAndWait(event: RootNoop(), until: .transitionCommitted)
        await machine.finishAndWait()
        #expect(lines.all == ["RootStart -> RootRunning", "RootStop -> RootIdle", "RootNoop -> RootIdle"])
    }

    @Test("each activation starts fresh children and may join again")
    func freshChildrenPerActivation() async {
        let machine = Self.parent()
        let lines = Self.record(machine)
        // Fresh children: auth finishes again in each activation (an auth child left finished
        // would ignore AuthStart). Its report may reach the parent after the join, in RootSucceeded.
        let succeeded = [Signal(), Signal()]
        let authReported = [Signal(), Signal()]
        let successes = Recorder<Int>()
        let authReports = Recorder<Int>()
        machine.onTransition { _, _, event, new in
            // Handlers of one transition run concurrently: this one keeps its own counts.
            if new is RootSucceeded, event is RootWasSuccessful {
                successes.append(0)
                for index in 0..<min(successes.count, 2) { succeeded[index].raise() }
            }
            if (event as? RootChildReported)?.report.hasPrefix("auth finished") == true {
                authReports.append(0)
                for index in 0..<min(authReports.count, 2) { authReported[index].raise() }
            }
        }
        for round in 0..<2 {
            machine.send(event: RootStart())
            machine.send(event: RootStartChildren())
            machine.send(event: RootNextRound())
            await within { await succeeded[round].wait() }
            await within { await authReported[round].wait() }
        }
        await machine.finishAndWait()
        #expect(authReports.count == 2)
        #expect(lines.all.filter { $0.hasPrefix("auth finished in round") }.count == 2)
        #expect(lines.all.filter { $0.hasPrefix("RootWasSuccessful") }.count == 2)
    }

    @Test("leaving the owning state cancels a running child output and waits for it")
    func deactivationCancelsChildOutputs() async {
        let started = Signal()
        let sawCancellation = Signal()
        let machine = Self.parent(
            sync: Self.sync {
                started.raise()
                await withTaskCancellationHandler {
                    await Signal().wait()
                } onCancel: {
                    sawCancellation.raise()
                }
                return SyncComplete()
            }
        )
        await machine.sendAndWait(event: RootStart())
        machine.send(event: RootStartChildren())
        await within { await started.wait() }
        await machine.sendAndWait(event: RootStop(), until: .transitionCommitted)
        #expect(sawCancellation.isRaised, "the child's output was still running after the parent left the state")
        await machine.finishAndWait()
    }

    @Test("a composite child without an id is reported when the definition is built and never started")
    func childWithoutID() {
        let reports = diagnostics
        let definition = StateMachine<RootState, RootEvent>(initial: RootIdle()) {
            When(state: RootRunning.self) {
                Composite {
                    StateMachine<AuthState, AuthEvent>(initial: AuthIdle())
                    Self.sync()
                }
                .join(whenChildStates: AuthFinished.self) { Raise(event: RootWasSuccessful()) }
            }
        }
        #expect(definition.definitionErrors.count == 2)
        #expect(
            definition.definitionErrors.first?.contains("child #1 (StateMachine<AuthState, AuthEvent>) has no id")
                == true
        )
        #expect(definition.definitionErrors.last?.contains("names 1 state types for 2 children") == true)
        // Other tests in the process may report too: keep this definition's reports.
        #expect(reports.all.filter { $0.contains("When(state: RootRunning)") } == definition.definitionErrors)
        #expect(definition.composites.isEmpty)
    }
}
