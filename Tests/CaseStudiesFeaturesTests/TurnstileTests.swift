import CaseStudiesFeatures
import Testing

@Suite("Turnstile")
@MainActor
struct TurnstileTests {
    @Test("a coin unlocks the arm, and walking through locks it again")
    func coinThenPass() async throws {
        let turnstile = try Turnstile()
        #expect(turnstile.state == .locked)
        await turnstile.handle(.coin)
        #expect(turnstile.state == .unlocked)
        #expect(turnstile.lastAction == "unlock")
        await turnstile.handle(.pass)
        #expect(turnstile.state == .locked)
        #expect(turnstile.lastAction == "lock")
        #expect(turnstile.coins == 1)
        #expect(turnstile.alarms == 0)
    }

    @Test("walking through the locked arm sounds the alarm and leaves it locked")
    func passWhileLocked() async throws {
        let turnstile = try Turnstile()
        await turnstile.handle(.pass)
        await turnstile.handle(.pass)
        #expect(turnstile.state == .locked)
        #expect(turnstile.lastAction == "alarm")
        #expect(turnstile.alarms == 2)
        #expect(turnstile.coins == 0)
    }

    @Test("a second coin while unlocked is thanked for and kept; the arm still turns once")
    func secondCoin() async throws {
        let turnstile = try Turnstile()
        await turnstile.handle(.coin)
        await turnstile.handle(.coin)
        #expect(turnstile.state == .unlocked)
        #expect(turnstile.lastAction == "thank you")
        #expect(turnstile.coins == 2)
        await turnstile.handle(.pass)
        await turnstile.handle(.pass)
        #expect(turnstile.state == .locked)
        #expect(turnstile.alarms == 1)
    }
}
