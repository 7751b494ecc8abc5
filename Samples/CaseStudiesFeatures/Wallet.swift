import StateMachineCore

// MARK: Wallet: one machine shared by several views.

/// The wallet: a single state type, its own super state. Money is kept in whole cents, so
/// that a balance is always exact (no binary fraction of a cent accumulates).
public struct WalletState: State, Hashable {
    /// The credits in the wallet, in cents.
    public let cents: Int
    /// The credits in the wallet, in dollars (`cents / 100`).
    public var credits: Double { Double(cents) / 100 }
    /// A wallet holding `cents`.
    public init(cents: Int) { self.cents = cents }
    /// A wallet holding `credits` dollars, rounded to the nearest cent.
    public init(credits: Double) { self.cents = wholeCents(credits) }
    /// The state itself: this machine's states are the UI state.
    public var superState: WalletState { self }
    /// `WalletState (credits: 12.50)`: dollars and cents.
    public var description: String { "WalletState (credits: \(dollarsAndCents(cents)))" }
}

/// `credits` dollars in whole cents, rounded to the nearest (0 for a value that is not a
/// finite amount an `Int` holds).
func wholeCents(_ credits: Double) -> Int {
    Int(exactly: (credits * 100).rounded()) ?? 0
}

/// `1057.50`, `-0.05`: a cent amount as dollars with two decimals.
func dollarsAndCents(_ cents: Int) -> String {
    let magnitude = cents.magnitude
    let fraction = magnitude % 100
    return (cents < 0 ? "-" : "") + "\(magnitude / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
}

/// The events of the wallet.
public enum WalletEvent {}

/// Add `credits` to the wallet.
public struct DidRequestToAddCredits: Event {
    /// Sent to the wallet machine, whose events are `WalletEvent`s.
    public typealias SuperEvent = WalletEvent
    /// The credits to add, in cents.
    public let cents: Int
    /// The credits to add, in dollars.
    public var credits: Double { Double(cents) / 100 }
    /// Makes this event: add `credits` dollars (rounded to the nearest cent) to the wallet.
    public init(credits: Double) { self.cents = wholeCents(credits) }
    /// Makes this event: add `cents` to the wallet.
    public init(cents: Int) { self.cents = cents }
    /// `DidRequestToAddCredits(credits: 10.00)`.
    public var description: String { "DidRequestToAddCredits(credits: \(dollarsAndCents(cents)))" }
}

/// Remove `credits` from the wallet (refused when there are fewer).
public struct DidRequestToRemoveCredits: Event {
    /// Sent to the wallet machine, whose events are `WalletEvent`s.
    public typealias SuperEvent = WalletEvent
    /// The credits to remove, in cents.
    public let cents: Int
    /// The credits to remove, in dollars.
    public var credits: Double { Double(cents) / 100 }
    /// Makes this event: remove `credits` dollars (rounded to the nearest cent) from the
    /// wallet (refused when there are fewer).
    public init(credits: Double) { self.cents = wholeCents(credits) }
    /// Makes this event: remove `cents` from the wallet (refused when there are fewer).
    public init(cents: Int) { self.cents = cents }
    /// `DidRequestToRemoveCredits(credits: 10.00)`.
    public var description: String { "DidRequestToRemoveCredits(credits: \(dollarsAndCents(cents)))" }
}

/// The wallet machine, starting at `initial` (an empty wallet unless given: the
/// CaseStudies app's `--state` starts it at the credits it kept).
public func makeWalletStateMachine(
    initial: WalletState = WalletState(cents: 0)
) -> StateMachine<WalletState, WalletEvent> {
    StateMachine<WalletState, WalletEvent>(initial: initial) {
        When(state: WalletState.self) {
            On(event: DidRequestToAddCredits.self) { state, event in
                Transition(state: WalletState(cents: state.cents + event.cents))
            }
            On(event: DidRequestToRemoveCredits.self) { state, event in
                state.cents >= event.cents
            } transition: {
                state,
                event in
                Transition(state: WalletState(cents: state.cents - event.cents))
            }
        }
    }
}
