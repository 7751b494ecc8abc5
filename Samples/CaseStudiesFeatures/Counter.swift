import StateMachineCore

// MARK: Counter: a units machine and a tens machine linked by a mediator.

/// What the units card renders.
public struct UnitsState: Equatable, Sendable {
    /// The units value.
    public let value: UInt
    /// Whether "-" is enabled.
    public let canDecrease: Bool
    /// Whether the last change was an increase.
    public let isIncreasing: Bool
    /// Whether the last change was a decrease.
    public let isDecreasing: Bool
}

/// The events of the units machine.
public enum UnitsEvent {}

/// The value has not changed yet.
public struct ValueIsFixed: State, Hashable {
    /// The units value shown on the card (0 or more).
    public let value: UInt
    /// A fixed value.
    public init(value: UInt) { self.value = value }
    /// Fixed: can decrease above zero.
    public var superState: UnitsState {
        UnitsState(value: value, canDecrease: value > 0, isIncreasing: false, isDecreasing: false)
    }
    /// `ValueIsFixed (value: n)`.
    public var description: String { "ValueIsFixed (value: \(value))" }
}

/// The value was just increased.
public struct ValueIsIncreasing: State, Hashable {
    /// The units value shown on the card (0 or more).
    public let value: UInt
    /// An increased value.
    public init(value: UInt) { self.value = value }
    /// Increasing: decreasing is always possible.
    public var superState: UnitsState {
        UnitsState(value: value, canDecrease: true, isIncreasing: true, isDecreasing: false)
    }
    /// `ValueIsIncreasing (value: n)`.
    public var description: String { "ValueIsIncreasing (value: \(value))" }
}

/// The value was just decreased.
public struct ValueIsDecreasing: State, Hashable {
    /// The units value shown on the card (0 or more).
    public let value: UInt
    /// A decreased value.
    public init(value: UInt) { self.value = value }
    /// Decreasing: can decrease above zero.
    public var superState: UnitsState {
        UnitsState(value: value, canDecrease: value > 0, isIncreasing: false, isDecreasing: true)
    }
    /// `ValueIsDecreasing (value: n)`.
    public var description: String { "ValueIsDecreasing (value: \(value))" }
}

/// The user pressed "+".
public struct DidRequestIncrease: Event {
    /// Sent to the units machine, whose events are `UnitsEvent`s.
    public typealias SuperEvent = UnitsEvent
    /// Makes this event: the user pressed "+".
    public init() {}
}

/// The user pressed "-".
public struct DidRequestDecrease: Event {
    /// Sent to the units machine, whose events are `UnitsEvent`s.
    public typealias SuperEvent = UnitsEvent
    /// Makes this event: the user pressed "-".
    public init() {}
}

/// The units machine, starting at `initial` (0 unless given: the CaseStudies app's
/// `--state` starts it at the units it kept): any state + increase -> increasing(v + 1);
/// + decrease (when v > 0) -> decreasing(v - 1).
public func makeUnitsStateMachine(
    initial: ValueIsFixed = ValueIsFixed(value: 0)
) -> StateMachine<UnitsState, UnitsEvent> {
    StateMachine<UnitsState, UnitsEvent>(initial: initial) {
        When(states: ValueIsFixed.self, ValueIsIncreasing.self, ValueIsDecreasing.self) {
            On(event: DidRequestIncrease.self) { state, _ in
                Transition(state: ValueIsIncreasing(value: state.superState.value + 1))
            }
            On(event: DidRequestDecrease.self) { state, _ in
                state.superState.value > 0
            } transition: { state, _ in
                Transition(state: ValueIsDecreasing(value: state.superState.value - 1))
            }
        }
    }
}

/// The tens value; its own super state.
public struct TensState: State, Hashable {
    /// The tens value.
    public let value: UInt
    /// A tens value.
    public init(value: UInt) { self.value = value }
    /// The state itself: this machine's states are the UI state.
    public var superState: TensState { self }
    /// `Value (n)`.
    public var description: String { "Value (\(value))" }
}

/// The new tens value; its own event set.
public struct TensEvent: Event {
    /// The event itself: the machine has this one event type.
    public typealias SuperEvent = TensEvent
    /// The new tens value.
    public let value: UInt
    /// A tens event.
    public init(value: UInt) { self.value = value }
}

/// The tens machine, starting at `initial` (0 unless given: the CaseStudies app's `--state`
/// starts it at the tens it kept): a single state that takes each event's value.
public func makeTensStateMachine(initial: TensState = TensState(value: 0)) -> StateMachine<TensState, TensEvent> {
    StateMachine<TensState, TensEvent>(initial: initial) {
        When(state: TensState.self) {
            On(event: TensEvent.self) { _, event in Transition(state: TensState(value: event.value)) }
        }
    }
}

/// Links a units machine to a tens machine: every units transition sends the tens of the
/// new value through `mediator`.
public func connectCounter(
    units: AsyncStateMachine<UnitsState, UnitsEvent>,
    tens: AsyncStateMachine<TensState, TensEvent>,
    through mediator: Mediator<TensEvent>
) {
    tens.connectAsReceiver(to: mediator)
    units.connectAsSender(to: mediator) { _, _, _, newState in
        TensEvent(value: newState.superState.value / 10)
    }
}

/// How the units card is coloured.
public enum UnitsColor: String, Equatable, Sendable {
    /// The last change was an increase.
    case green
    /// The last change was a decrease.
    case red
    /// No change yet.
    case accent
}

/// The units card's view state.
public struct UnitsUIState: Equatable, Sendable {
    /// The units state.
    public let unitsState: UnitsState
    /// The card's colour.
    public let color: UnitsColor
}

/// Maps the units state to its view state.
public func makeUnitsUIState(_ state: UnitsState) -> UnitsUIState {
    UnitsUIState(unitsState: state, color: state.isIncreasing ? .green : state.isDecreasing ? .red : .accent)
}
