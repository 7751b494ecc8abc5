import Observation
import StateMachineTable

// MARK: Turnstile: the SMC manual's turnstile as a StateMachineTable transition table.

/// A coin-operated turnstile, written as a `StateMachineTable` transition table (the
/// example of the SMC manual):
///
/// ```
/// Locked   { Coin Unlocked unlock;   Pass Locked   alarm }
/// Unlocked { Coin Unlocked thankyou; Pass Locked   lock  }
/// ```
///
/// A coin unlocks it; walking through locks it again; walking through while it is locked
/// sounds the alarm; a coin while it is unlocked is thanked for (and kept). The actions
/// count the coins and the alarms and remember the last action, which is what the
/// CaseStudies screen shows. `@Observable`, so a view that reads it re-renders on change.
@MainActor
@Observable
public final class Turnstile: SyntaxBuilder {
    /// Whether the arm turns.
    public enum State: String, Sendable {
        /// The arm is locked: a coin unlocks it, walking through sounds the alarm.
        case locked
        /// The arm turns once: walking through locks it again.
        case unlocked
    }

    /// What a visitor does.
    public enum Event: String, Sendable {
        /// Inserts a coin.
        case coin
        /// Walks through the arm.
        case pass
    }

    @ObservationIgnored private let table = FSM<State, Event>(initialState: .locked)
    /// The current state of the table.
    public private(set) var state: State = .locked
    /// The name of the last action the table ran (`unlock`, `alarm`, `thank you`, `lock`),
    /// or `none yet`.
    public private(set) var lastAction = "none yet"
    /// The coins inserted so far, whether they unlocked the arm or were thanked for.
    public private(set) var coins = 0
    /// How many times someone walked through the locked arm.
    public private(set) var alarms = 0

    /// A locked turnstile. Throws the table's `SwiftFSMError` if the table does not build
    /// (it does: the error path is the library's, kept for the screen to show).
    public init() throws {
        try table.buildTable {
            define(.locked) {
                // Named, so that the diagram's arrows say what each row does.
                when(.coin) | then(.unlocked) | AnyAction(unlock).named("unlock")*
                when(.pass) | then(.locked) | AnyAction(alarm).named("alarm")*
            }
            define(.unlocked) {
                when(.coin) | then(.unlocked) | AnyAction(thankYou).named("thankyou")*
                when(.pass) | then(.locked) | AnyAction(lock).named("lock")*
            }
        }
    }

    /// The transition table itself, for what reads a table without running it: its state
    /// graph (`StateMachineGraph`), its diagrams (`mermaid()`, `dot()`), and a fresh table
    /// for each generated test path (`try Turnstile().transitionTable`). Send events
    /// through ``handle(_:)``, which keeps ``state`` current.
    public var transitionTable: FSM<State, Event> { table }

    /// Runs `event` through the table (its action included) and updates ``state``.
    public func handle(_ event: Event) async {
        await table.handleEvent(event)
        state = table.state
    }

    private func unlock() {
        coins += 1
        lastAction = "unlock"
    }

    private func alarm() {
        alarms += 1
        lastAction = "alarm"
    }

    private func thankYou() {
        coins += 1
        lastAction = "thank you"
    }

    private func lock() {
        lastAction = "lock"
    }
}
