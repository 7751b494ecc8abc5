import StateMachineCore

// MARK: Elevator: simple guarded transitions.

/// What the elevator screen renders.
public struct ElevatorState: Equatable, Sendable {
    /// The number of persons inside.
    public let numberOfPersons: String
    /// Whether "+" is enabled.
    public let canAddPerson: Bool
    /// Whether "-" is enabled.
    public let canRemovePerson: Bool
    /// Whether Open is enabled.
    public let canPressOpen: Bool
    /// Whether Close is enabled.
    public let canPressClose: Bool
    /// The symbol's name.
    public let symbol: String
    /// What the user can do.
    public let message: String
}

/// The events of the elevator.
public enum ElevatorEvent {}

/// The most persons before the warning.
public let elevatorCapacity = 5

/// The doors are open.
public struct ElevatorIsOpen: State, Hashable {
    /// Persons inside.
    public let persons: Int
    /// An open elevator.
    public init(persons: Int) { self.persons = persons }
    /// Open: add, remove when not empty, close.
    public var superState: ElevatorState {
        ElevatorState(
            numberOfPersons: "\(persons)",
            canAddPerson: true,
            canRemovePerson: persons > 0,
            canPressOpen: false,
            canPressClose: true,
            symbol: "lock.open.fill",
            message: "More people can enter, or you can close the elevator"
        )
    }
    /// `ElevatorIsOpen (persons: n)`.
    public var description: String { "ElevatorIsOpen (persons: \(persons))" }
}

/// The doors are closed.
public struct ElevatorIsClosed: State, Hashable {
    /// Persons inside.
    public let persons: Int
    /// A closed elevator.
    public init(persons: Int) { self.persons = persons }
    /// Closed: only open.
    public var superState: ElevatorState {
        ElevatorState(
            numberOfPersons: "\(persons)",
            canAddPerson: false,
            canRemovePerson: false,
            canPressOpen: true,
            canPressClose: false,
            symbol: "lock.fill",
            message: "You can open the elevator"
        )
    }
    /// `ElevatorIsClosed (persons: n)` (the original's "ElevatorIsClose" typo is fixed).
    public var description: String { "ElevatorIsClosed (persons: \(persons))" }
}

/// Too many persons: the doors cannot close.
public struct ElevatorIsInWarning: State, Hashable {
    /// Persons inside.
    public let persons: Int
    /// An overloaded elevator.
    public init(persons: Int) { self.persons = persons }
    /// Warning: add and remove only.
    public var superState: ElevatorState {
        ElevatorState(
            numberOfPersons: "\(persons)",
            canAddPerson: true,
            canRemovePerson: true,
            canPressOpen: false,
            canPressClose: false,
            symbol: "exclamationmark.triangle.fill",
            message: "Too many people, some should leave"
        )
    }
    /// `ElevatorIsInWarning (persons: n)`.
    public var description: String { "ElevatorIsInWarning (persons: \(persons))" }
}

/// A person entered.
public struct DidEnter: Event {
    /// Sent to the elevator machine, whose events are `ElevatorEvent`s.
    public typealias SuperEvent = ElevatorEvent
    /// Makes this event: a person entered.
    public init() {}
}

/// A person left.
public struct DidLeave: Event {
    /// Sent to the elevator machine, whose events are `ElevatorEvent`s.
    public typealias SuperEvent = ElevatorEvent
    /// Makes this event: a person left.
    public init() {}
}

/// The user pressed Open.
public struct DidRequestToOpen: Event {
    /// Sent to the elevator machine, whose events are `ElevatorEvent`s.
    public typealias SuperEvent = ElevatorEvent
    /// Makes this event: the user pressed Open.
    public init() {}
}

/// The user pressed Close.
public struct DidRequestToClose: Event {
    /// Sent to the elevator machine, whose events are `ElevatorEvent`s.
    public typealias SuperEvent = ElevatorEvent
    /// Makes this event: the user pressed Close.
    public init() {}
}

/// The elevator machine.
public func makeElevatorStateMachine() -> StateMachine<ElevatorState, ElevatorEvent> {
    StateMachine<ElevatorState, ElevatorEvent>(initial: ElevatorIsOpen(persons: 0)) {
        When(state: ElevatorIsOpen.self) {
            On(event: DidEnter.self) { state, _ in
                Transition { afterEntering(persons: state.persons + 1) }
            }
            On(event: DidLeave.self) { state, _ in
                state.persons - 1 >= 0
            } transition: { state, _ in
                Transition(state: ElevatorIsOpen(persons: state.persons - 1))
            }
            On(event: DidRequestToClose.self) { state, _ in Transition(state: ElevatorIsClosed(persons: state.persons))
            }
        }
        When(state: ElevatorIsClosed.self) {
            On(event: DidRequestToOpen.self) { state, _ in Transition(state: ElevatorIsOpen(persons: state.persons)) }
        }
        When(state: ElevatorIsInWarning.self) {
            On(event: DidEnter.self) { state, _ in Transition(state: ElevatorIsInWarning(persons: state.persons + 1)) }
            On(event: DidLeave.self) { state, _ in
                Transition { afterLeavingWarning(persons: state.persons - 1) }
            }
        }
    }
}

/// Open while within capacity, in warning above it.
private func afterEntering(persons: Int) -> any State<ElevatorState> {
    if persons <= elevatorCapacity { return ElevatorIsOpen(persons: persons) }
    return ElevatorIsInWarning(persons: persons)
}

/// Still in warning above capacity, open again within it.
private func afterLeavingWarning(persons: Int) -> any State<ElevatorState> {
    if persons > elevatorCapacity { return ElevatorIsInWarning(persons: persons) }
    return ElevatorIsOpen(persons: persons)
}
