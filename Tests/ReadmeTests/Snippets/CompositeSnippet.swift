// swift-format-ignore-file
// The README's Composite example, verbatim and compiled with this test target (see
// ReadmeCodeTests), with the parent's and the children's states, events and tables it
// assumes. Edit the README and this file together.
import StateMachineCore

/// The parent's super state.
struct RootState: Sendable {}
/// The parent's events.
enum RootEvent {}
/// The parent before it runs its children.
struct RootIdle: State { var superState: RootState { RootState() } }
/// The parent while its children run.
struct RootRunning: State { var superState: RootState { RootState() } }
/// Stop the children.
struct RootCancellationWasRequested: Event { typealias SuperEvent = RootEvent }
/// The authentication child succeeded.
struct RootAuthenticated: Event { typealias SuperEvent = RootEvent }
/// Every child is done.
struct RootWasSuccessful: Event { typealias SuperEvent = RootEvent }

/// The children's ids.
enum AuthMachine {}
/// The sync child's id.
enum SyncMachine {}
/// The audit child's id.
enum AuditMachine {}

/// The authentication child's super state.
struct AuthState: Sendable {}
/// The authentication child's events.
enum AuthEvent {}
/// Not authenticated yet.
struct AuthIdle: State { var superState: AuthState { AuthState() } }
/// Authenticated, or given up.
struct AuthFinished: State { var superState: AuthState { AuthState() } }
/// Stop authenticating.
struct AuthCancel: Event { typealias SuperEvent = AuthEvent }
/// Authenticated.
struct AuthSucceeded: Event { typealias SuperEvent = AuthEvent }

/// The sync child's super state.
struct SyncState: Sendable {}
/// The sync child's events.
enum SyncEvent {}
/// Not synced yet.
struct SyncIdle: State { var superState: SyncState { SyncState() } }
/// Synced, or given up.
struct SyncFinished: State { var superState: SyncState { SyncState() } }
/// Stop syncing.
struct SyncCancel: Event { typealias SuperEvent = SyncEvent }

/// The audit child's super state.
struct AuditState: Sendable {}
/// The audit child's events.
enum AuditEvent {}
/// Not audited yet.
struct AuditIdle: State { var superState: AuditState { AuditState() } }
/// Audited.
struct AuditDone: State { var superState: AuditState { AuditState() } }
/// Audit now.
struct AuditNow: Event { typealias SuperEvent = AuditEvent }

/// The authentication child.
func makeAuthMachine() -> StateMachine<AuthState, AuthEvent> {
    StateMachine(id: AuthMachine.self, initial: AuthIdle()) {
        When(state: AuthIdle.self) {
            On(events: AuthSucceeded.self, AuthCancel.self) { _, _ in Transition(state: AuthFinished()) }
        }
    }
}

/// The sync child.
func makeSyncMachine() -> StateMachine<SyncState, SyncEvent> {
    StateMachine(id: SyncMachine.self, initial: SyncIdle()) {
        When(state: SyncIdle.self) {
            On(event: SyncCancel.self) { _, _ in Transition(state: SyncFinished()) }
        }
    }
}

/// The audit child.
func makeAuditMachine() -> StateMachine<AuditState, AuditEvent> {
    StateMachine(id: AuditMachine.self, initial: AuditIdle()) {
        When(state: AuditIdle.self) {
            On(event: AuditNow.self) { _, _ in Transition(state: AuditDone()) }
        }
    }
}

/// The parent, running the three children while it is in `RootRunning`.
func makeRootMachine() -> StateMachine<RootState, RootEvent> {
    StateMachine<RootState, RootEvent>(initial: RootIdle()) {
        When(state: RootRunning.self) {
            Composite {
                makeAuthMachine()   // StateMachine<AuthState, AuthEvent>(id: AuthMachine.self, initial: AuthIdle()) { ... }
                makeSyncMachine()   // StateMachine<SyncState, SyncEvent>(id: SyncMachine.self, initial: SyncIdle()) { ... }
                makeAuditMachine()  // StateMachine<AuditState, AuditEvent>(id: AuditMachine.self, initial: AuditIdle()) { ... }
            }
            .on(parentEvent: RootCancellationWasRequested.self) { _, _ in
                Forward(to: AuthMachine.self, event: AuthCancel())
                Forward(to: SyncMachine.self, event: SyncCancel())
            }
            .on(childEvent: AuthSucceeded.self) { _, event in Raise(event: RootAuthenticated()) }
            .join(whenChildStates: AuthFinished.self, SyncFinished.self, AuditDone.self) {
                Raise(event: RootWasSuccessful())
            }
        }
    }
}
