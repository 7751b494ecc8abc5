import StateMachineTable
import Testing

/// The turnstile of `.readme-sections/table.md`, as printed there (plus a call log).
final class ReadmeTurnstile: SyntaxBuilder {
    enum State { case locked, unlocked }
    enum Event { case coin, pass }

    let turnstile = FSM<State, Event>(initialState: .locked)
    var log: [String] = []

    func start() async throws {
        try turnstile.buildTable {
            define(.locked) {
                when(.coin) | then(.unlocked) | unlock
                when(.pass) | then(.locked) | alarm
            }

            define(.unlocked) {
                when(.coin) | then(.unlocked) | thankyou
                when(.pass) | then(.locked) | lock
            }
        }

        await turnstile.handleEvent(.coin)
    }

    func unlock() { log.append("unlock") }
    func alarm() { log.append("alarm") }
    func thankyou() { log.append("thankyou") }
    func lock() { log.append("lock") }
}

@Suite("The README section's example")
struct ReadmeSectionTests {
    @Test("The turnstile of the README section unlocks on a coin")
    func readmeTurnstile() async throws {
        let example = ReadmeTurnstile()
        try await example.start()
        #expect(example.turnstile.state == .unlocked)
        #expect(example.log == ["unlock"])
    }
}
