import StateMachineTable

/// The turnstile of the README: states, events and a recorder of the actions called.
enum TurnstileState: FSMHashable, CaseIterable { case locked, unlocked, alarming, verifyingPayment }
enum TurnstileEvent: FSMHashable, CaseIterable { case coin, pass, reset }

/// Records action calls in order, so a test can compare whole sequences.
final class Recorder {
    var calls: [String] = []

    func unlock() { calls.append("unlock") }
    func lock() { calls.append("lock") }
    func alarm() { calls.append("alarm") }
    func alarmOn() { calls.append("alarmOn") }
    func alarmOff() { calls.append("alarmOff") }
    func thankyou() { calls.append("thankyou") }
    func smile() { calls.append("smile") }
    func defconOne() { calls.append("defconOne") }
    func idiot() { calls.append("idiot") }
    func asyncAction() async { calls.append("async") }
    func withEvent(_ event: TurnstileEvent) { calls.append("event:\(event)") }
    func asyncWithEvent(_ event: TurnstileEvent) async { calls.append("asyncEvent:\(event)") }
    func record(_ name: String) -> () -> Void { { self.calls.append(name) } }
}

/// A table author: the README's `class MyClass: SyntaxBuilder`.
final class Turnstile: ExpandedSyntaxBuilder {
    typealias State = TurnstileState
    typealias Event = TurnstileEvent

    let recorder = Recorder()
    let fsm: FSM<State, Event>

    init(
        type: FSM<State, Event>.PredicateHandling = .eager,
        initial: State = .locked,
        policy: StateActionsPolicy = .executeOnChangeOnly
    ) {
        fsm = FSM(type: type, initialState: initial, actionsPolicy: policy)
    }

    var calls: [String] { recorder.calls }
    func unlock() { recorder.unlock() }
    func lock() { recorder.lock() }
    func alarm() { recorder.alarm() }
    func alarmOn() { recorder.alarmOn() }
    func alarmOff() { recorder.alarmOff() }
    func thankyou() { recorder.thankyou() }
    func smile() { recorder.smile() }
    func defconOne() { recorder.defconOne() }
    func idiot() { recorder.idiot() }

    /// Sends `events` in order and returns the state after each.
    func send(_ events: [Event], predicates: [any Predicate] = []) async -> [State] {
        var states: [State] = []
        for event in events {
            await fsm.handleEvent(event, predicates: predicates)
            states.append(fsm.state)
        }
        return states
    }
}

enum Enforcement: Predicate { case weak, strong }
enum Reward: Predicate { case positive, negative }
enum A: Predicate { case x, y, z }
enum B: Predicate { case x, y, z }
enum C: Predicate { case x, y, z }
