import StateMachineCore

// MARK: Wallet: one machine shared by several views.

/// The wallet: a single state type, its own super state.
public struct WalletState: State, Hashable {
    /// The credits in the wallet.
    public let credits: Double
    /// A wallet.
    public init(credits: Double) { self.credits = credits }
    /// The state itself: this machine's states are the UI state.
    public var superState: WalletState { self }
    /// `WalletState (credits: x)`.
    public var description: String { "WalletState (credits: \(credits))" }
}

/// The events of the wallet.
public enum WalletEvent {}

/// Add `credits` to the wallet.
public struct DidRequestToAddCredits: Event {
    /// Sent to the wallet machine, whose events are `WalletEvent`s.
    public typealias SuperEvent = WalletEvent
    /// The credits to add.
    public let credits: Double
    /// Makes this event: add `credits` to the wallet; `credits` is the credits to add.
    public init(credits: Double) { self.credits = credits }
}

/// Remove `credits` from the wallet (refused when there are fewer).
public struct DidRequestToRemoveCredits: Event {
    /// Sent to the wallet machine, whose events are `WalletEvent`s.
    public typealias SuperEvent = WalletEvent
    /// The credits to remove.
    public let credits: Double
    /// Makes this event: remove `credits` from the wallet (refused when there are fewer); `credits`
    /// is the credits to remove.
    public init(credits: Double) { self.credits = credits }
}

/// The wallet machine.
public func makeWalletStateMachine() -> StateMachine<WalletState, WalletEvent> {
    StateMachine<WalletState, WalletEvent>(initial: WalletState(credits: 0)) {
        When(state: WalletState.self) {
            On(event: DidRequestToAddCredits.self) { state, event in
                Transition(state: WalletState(credits: state.credits + event.credits))
            }
            On(event: DidRequestToRemoveCredits.self) { state, event in
                state.credits >= event.credits
            } transition: {
                state,
                event in
                Transition(state: WalletState(credits: state.credits - event.credits))
            }
        }
    }
}
