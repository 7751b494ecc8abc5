// swift-format-ignore-file
// The README's StateMachineTable examples, verbatim and compiled with this test target:
// ReadmeCodeTests checks that every swift block of the README appears in a compiled file.
// Each type gives a block what it assumes (states, events, actions, a `turnstile`); edit
// the README and this file together.
import StateMachineTable

final class Turnstile: SyntaxBuilder {
    enum State { case locked, unlocked }
    enum Event { case coin, pass }

    let turnstile = FSM<State, Event>(initialState: .locked)

    func start() async throws {
        try turnstile.buildTable {
            define(.locked) {
                when(.coin) | then(.unlocked) | unlock
                when(.pass) | then(.locked)   | alarm
            }

            define(.unlocked) {
                when(.coin) | then(.unlocked) | thankyou
                when(.pass) | then(.locked)   | lock
            }
        }

        await turnstile.handleEvent(.coin)
        print(turnstile.state)   // unlocked
    }

    func unlock() {}
    func alarm() {}
    func thankyou() {}
    func lock() {}
}

/// "Predicates": a turnstile whose pass depends on the enforcement level.
final class EnforcedTurnstile: ExpandedSyntaxBuilder {
    enum State { case locked, unlocked, alarming }
    enum Event { case coin, pass }

    let turnstile = FSM<State, Event>(initialState: .locked)

    func start() async throws {
        enum Enforcement: Predicate { case weak, strong }   // Hashable, Sendable, CaseIterable

        try turnstile.buildTable {
            define(.locked) {
                matching(Enforcement.weak)   | when(.pass) | then(.locked)   | smile
                matching(Enforcement.strong) | when(.pass) | then(.alarming) | defconOne

                when(.coin) | then(.unlocked)       // applies to every Enforcement
            }
        }
        await turnstile.handleEvent(.pass, predicates: Enforcement.weak)
    }

    func smile() {}
    func defconOne() {}
}

/// "Events with values": a coin that carries its amount.
final class PayingTurnstile: SyntaxBuilder {
    enum State { case locked, verifyingPayment }
    enum Event: EventWithValues { case coin(FSMValue<Int>), pass }

    let turnstile = FSM<State, Event>(initialState: .locked)

    func start() async throws {
        try turnstile.buildTable {
            define(.locked) {
                when(.coin(.any)) | then(.verifyingPayment) | verifyPayment
            }
        }
        await turnstile.handleEvent(.coin(50))   // verifyPayment receives .coin(50)
    }

    func verifyPayment(_ event: Event) {}
}
