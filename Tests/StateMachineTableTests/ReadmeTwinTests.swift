import StateMachineTable
import Testing

/// The README's tables, each as its verbatim SMC text and its Swift FSM twin. Both run
/// every sequence of up to four events; the Swift twin must end in the same state and
/// call the same actions in the same order after every event.
@Suite("README: each SMC table and its Swift FSM twin behave the same")
struct ReadmeTwinTests {
    /// Author of the Swift twins, written exactly as the README writes them.
    final class Twins: TurnstileTable {
        let recorder = Recorder()
        let turnstile: FSM<State, Event>

        init(type: FSM<State, Event>.PredicateHandling, policy: StateActionsPolicy) {
            turnstile = FSM<State, Event>(type: type, initialState: .locked, actionsPolicy: policy)
        }

        func basic() throws {
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
        }

        func optionalArguments() throws {
            try turnstile.buildTable {
                define(.locked) {
                    when(.coin) | then(.unlocked) | unlock
                    when(.pass) | then(.alarming) | alarmOn
                    when(.reset) | then() | alarmOff & lock
                }

                define(.unlocked) {
                    when(.reset) | then(.locked) | alarmOff & lock
                    when(.coin) | then(.unlocked) | thankyou
                    when(.pass) | then(.locked) | lock
                }

                define(.alarming) {
                    when(.coin) | then()
                    when(.pass) | then()
                    when(.reset) | then(.locked) | alarmOff & lock
                }
            }
        }

        func superStates() throws {
            try turnstile.buildTable {
                let resetable = SuperState {
                    when(.reset) | then(.locked) | alarmOff & lock
                }

                define(.locked, adopts: resetable) {
                    when(.coin) | then(.unlocked) | unlock
                    when(.pass) | then(.alarming) | alarmOn
                }

                define(.unlocked, adopts: resetable) {
                    when(.coin) | then(.unlocked) | thankyou
                    when(.pass) | then(.locked) | lock
                }

                define(.alarming, adopts: resetable)
            }
        }

        func entryAndExit() throws {
            try turnstile.buildTable {
                let resetable = SuperState {
                    when(.reset) | then(.locked)
                }

                define(.locked, adopts: resetable, onEntry: lock*) {
                    when(.coin) | then(.unlocked)
                    when(.pass) | then(.alarming)
                }

                define(.unlocked, adopts: resetable, onEntry: unlock*) {
                    when(.coin) | then(.unlocked) | thankyou
                    when(.pass) | then(.locked)
                }

                define(.alarming, adopts: resetable, onEntry: alarmOn*, onExit: alarmOff*)
            }
        }
    }

    static let basicSMC = """
        Initial: Locked
        FSM: Turnstile
        {
          Locked    {
            Coin    Unlocked    unlock
            Pass    Locked      alarm
          }
          Unlocked  {
            Coin    Unlocked    thankyou
            Pass    Locked      lock
          }
        }
        """

    static let optionalArgumentsSMC = """
        Initial: Locked
        FSM: Turnstile
        {
          Locked    {
            Coin    Unlocked    unlock
            Pass    Alarming    alarmOn
            Reset   -           {alarmOff lock}
          }
          Unlocked  {
            Reset   Locked      {alarmOff lock}
            Coin    Unlocked    thankyou
            Pass    Locked      lock
          }
          Alarming {
            Coin    -          -
            Pass    -          -
            Reset   Locked     {alarmOff lock}
          }
        }
        """

    static let superStatesSMC = """
        Initial: Locked
        FSM: Turnstile
        {
          // This is an abstract super state.
          (Resetable)  {
            Reset       Locked       {alarmOff lock}
          }
          Locked : Resetable    {
            Coin    Unlocked    unlock
            Pass    Alarming    alarmOn
          }
          Unlocked : Resetable {
            Coin    Unlocked    thankyou
            Pass    Locked      lock
          }
          Alarming : Resetable { // inherits all it's transitions from Resetable.
          }
        }
        """

    static let entryAndExitSMC = """
        Initial: Locked
        FSM: Turnstile
        {
          (Resetable) {
            Reset       Locked       -
          }
          Locked : Resetable <lock     {
            Coin    Unlocked    -
            Pass    Alarming    -
          }
          Unlocked : Resetable <unlock  {
            Coin    Unlocked    thankyou
            Pass    Locked      -
          }
          Alarming : Resetable <alarmOn >alarmOff   -    -    -
        }
        """

    struct Example: CustomTestStringConvertible, Sendable {
        let name: String
        let smc: String
        let build: @Sendable (Twins) throws -> Void
        var testDescription: String { name }
    }

    static let examples: [Example] = [
        Example(name: "basic syntax", smc: basicSMC) { try $0.basic() },
        Example(name: "optional arguments", smc: optionalArgumentsSMC) { try $0.optionalArguments() },
        Example(name: "super states", smc: superStatesSMC) { try $0.superStates() },
        Example(name: "entry and exit actions", smc: entryAndExitSMC) { try $0.entryAndExit() },
    ]

    @Test(
        "Swift twin matches SMC on every sequence of up to four events (SMC policy: executeAlways)",
        arguments: examples,
        [FSM<TurnstileState, TurnstileEvent>.PredicateHandling.eager, .lazy]
    )
    func twinMatchesSMC(example: Example, type: FSM<TurnstileState, TurnstileEvent>.PredicateHandling) async throws {
        let smc = SMCTable(example.smc)
        let events: [TurnstileEvent] = [.coin, .pass, .reset]
        for length in 1...4 {
            for sequence in sequences(of: events, length: length) {
                let twins = Twins(type: type, policy: .executeAlways)
                try example.build(twins)
                let steps = await twins.turnstile.run(sequence, recorder: twins.recorder)
                let expected = smc.run(sequence.map { "\($0)".capitalized }).map {
                    Step(state: TurnstileState.from(smc: $0.state), calls: $0.calls)
                }
                #expect(steps == expected, "events \(sequence)")
            }
        }
    }

    @Test("Default policy: entry and exit actions run only when the state changes")
    func entryExitOnChangeOnly() async throws {
        let twins = Twins(type: .eager, policy: .executeOnChangeOnly)
        try twins.entryAndExit()
        let steps = await twins.turnstile.run([.coin, .coin, .pass, .pass, .reset, .reset], recorder: twins.recorder)
        #expect(
            steps == [
                Step(state: .unlocked, calls: ["unlock"]),
                Step(state: .unlocked, calls: ["thankyou"]),  // SMC would call unlock again here
                Step(state: .locked, calls: ["lock"]),
                Step(state: .alarming, calls: ["alarmOn"]),
                Step(state: .locked, calls: ["alarmOff", "lock"]),
                Step(state: .locked, calls: []),
            ]
        )
    }
}

extension TurnstileState {
    static func from(smc name: String) -> TurnstileState {
        allCases.first { "\($0)" == name.lowercasingFirst }!
    }
}
