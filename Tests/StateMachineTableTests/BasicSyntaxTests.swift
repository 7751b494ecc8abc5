import Testing
import StateMachineTable

@Suite("Basic syntax: the README's SMC tables and their Swift twins")
struct BasicSyntaxTests {
    @Test("Turnstile: SMC's two-state table", arguments: [FSM<TurnstileState, TurnstileEvent>.PredicateHandling.eager, .lazy])
    func turnstile(type: FSM<TurnstileState, TurnstileEvent>.PredicateHandling) async throws {
        let t = Turnstile(type: type)
        try t.fsm.buildTable {
            t.define(.locked) {
                t.when(.coin) | t.then(.unlocked) | t.unlock
                t.when(.pass) | t.then(.locked) | t.alarm
            }
            t.define(.unlocked) {
                t.when(.coin) | t.then(.unlocked) | t.thankyou
                t.when(.pass) | t.then(.locked) | t.lock
            }
        }
        let states = await t.send([.coin, .coin, .pass, .pass, .reset])
        #expect(states == [.unlocked, .unlocked, .locked, .locked, .locked])
        #expect(t.calls == ["unlock", "thankyou", "lock", "alarm"])
    }
}
