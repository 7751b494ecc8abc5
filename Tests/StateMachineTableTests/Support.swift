import StateMachineTable

enum TurnstileState: FSMHashable, CaseIterable { case locked, unlocked, alarming, verifyingPayment }
enum TurnstileEvent: FSMHashable, CaseIterable { case coin, pass, reset }

enum Enforcement: Predicate { case weak, strong }
enum Reward: Predicate { case positive, negative }
enum A: Predicate { case x, y, z }
enum B: Predicate { case x, y, z }
enum C: Predicate { case x, y, z }

/// Records the actions a machine calls, in order, so a test can compare whole runs.
/// Only used from one test at a time, in that test's isolation.
final class Recorder {
    var calls: [String] = []
}

/// A table author like the README's `class MyClass: ExpandedSyntaxBuilder`: the tests
/// write tables inside its methods, so `define`, `when`, `then` read as in the README,
/// and its action methods record themselves.
protocol TurnstileTable: ExpandedSyntaxBuilder where State == TurnstileState, Event == TurnstileEvent {
    var recorder: Recorder { get }
}

extension TurnstileTable {
    func unlock() { recorder.calls.append("unlock") }
    func lock() { recorder.calls.append("lock") }
    func alarm() { recorder.calls.append("alarm") }
    func alarmOn() { recorder.calls.append("alarmOn") }
    func alarmOff() { recorder.calls.append("alarmOff") }
    func thankyou() { recorder.calls.append("thankyou") }
    func smile() { recorder.calls.append("smile") }
    func defconOne() { recorder.calls.append("defconOne") }
    func idiot() { recorder.calls.append("idiot") }
    func beGrumpy() { recorder.calls.append("beGrumpy") }
    func asyncUnlock() async { recorder.calls.append("asyncUnlock") }
    func withEvent(_ event: TurnstileEvent) { recorder.calls.append("withEvent(\(event))") }
    func asyncWithEvent(_ event: TurnstileEvent) async { recorder.calls.append("asyncWithEvent(\(event))") }
    func named(_ name: String) -> () -> Void { { recorder.calls.append(name) } }
}

/// What a machine did for one event: where it ended and what it called.
struct Step: Equatable, CustomStringConvertible {
    let state: TurnstileState
    let calls: [String]
    var description: String { "\(state) \(calls)" }
}

extension FSM where State == TurnstileState, Event == TurnstileEvent {
    /// Sends `events` one by one, recording the state and the calls after each.
    func run(
        _ events: [TurnstileEvent],
        predicates: [any Predicate] = [],
        recorder: Recorder,
        isolation: isolated (any Actor)? = #isolation
    ) async -> [Step] {
        var steps: [Step] = []
        for event in events {
            recorder.calls = []
            await handleEvent(event, predicates: predicates)
            steps.append(Step(state: state, calls: recorder.calls))
        }
        return steps
    }
}

/// Every sequence of `length` events drawn from `events`.
func sequences<T>(of events: [T], length: Int) -> [[T]] {
    guard length > 0 else { return [[]] }
    return sequences(of: events, length: length - 1).flatMap { prefix in events.map { prefix + [$0] } }
}
