import Testing

@testable import StateMachineTable

@Suite("Diagrams, validation report and the unhandled-event log")
struct DiagramTests: TurnstileTable {
    let recorder = Recorder()

    func builtTurnstile() throws -> FSM<State, Event> {
        let fsm = FSM<State, Event>(initialState: .locked)
        try fsm.buildTable {
            define(.locked, onEntry: AnyAction(lock).named("lock")*) {
                matching(Enforcement.weak) | when(.pass) | then(.locked) | AnyAction(smile).named("smile")*
                matching(Enforcement.strong) | when(.pass) | then(.alarming)
                when(.coin) | then(.unlocked) | AnyAction(unlock).named("unlock") & thankyou
            }
            define(.unlocked) {
                condition { true } | when(.pass) | then(.locked)
            }
            define(.alarming, onExit: AnyAction(alarmOff).named("alarmOff")*) {
                when(.reset) | then(.locked)
            }
        }
        return fsm
    }

    @Test("DOT: a node per state with entry/exit, a start point, one labelled edge per transition")
    func dot() throws {
        #expect(
            try builtTurnstile().dot() == #"""
                digraph "FSM" {
                    compound=true;
                    fontname="Helvetica";
                    node [shape=box, style=rounded, fontname="Helvetica", fontsize=11];
                    edge [fontname="Helvetica", fontsize=9];
                    "locked" [label="locked\nentry / lock"];
                    "unlocked";
                    "alarming" [label="alarming\nexit / alarmOff"];
                    "[*]0" [shape=point, width=0.15, label=""];
                    "[*]0" -> "locked";
                    "locked" -> "locked" [label=" [Enforcement.weak] pass / smile "];
                    "locked" -> "alarming" [label=" [Enforcement.strong] pass "];
                    "locked" -> "unlocked" [label=" coin / unlock, action "];
                    "unlocked" -> "locked" [label=" pass [condition] "];
                    "alarming" -> "locked" [label=" reset "];
                }

                """#
        )
    }

    @Test("Mermaid: stateDiagram-v2 with the states, [*] start, labelled transitions and entry/exit notes")
    func mermaid() throws {
        #expect(
            try builtTurnstile().mermaid() == """
                stateDiagram-v2
                    locked
                    locked : entry / lock
                    unlocked
                    alarming
                    alarming : exit / alarmOff
                    [*] --> locked
                    locked --> locked : [Enforcement.weak] pass / smile
                    locked --> alarming : [Enforcement.strong] pass
                    locked --> unlocked : coin / unlock, action
                    unlocked --> locked : pass [condition]
                    alarming --> locked : reset

                """
        )
    }

    @Test("Before buildTable the diagrams show only the initial state")
    func emptyDiagram() {
        let fsm = FSM<State, Event>(initialState: .locked)
        #expect(fsm.mermaid() == "stateDiagram-v2\n    locked\n    [*] --> locked\n")
    }

    @Test("Validation report: unreachable states, states with no way out, events never handled")
    func validationReport() throws {
        let fsm = FSM<State, Event>(initialState: .locked)
        try fsm.buildTable {
            define(.locked) {
                when(.coin) | then(.unlocked)
                when(.pass) | then(.alarming)
            }
            define(.unlocked) { when(.coin) | then() }
            define(.verifyingPayment) { when(.coin) | then(.locked) }
        }
        let report = fsm.validationReport()
        #expect(report.unreachableStates == [.verifyingPayment])
        #expect(report.deadEndStates == [.unlocked, .alarming])
        #expect(report.unhandledEvents == [.reset])
        #expect(!report.isClean)
        #expect(
            report.description == """
                unreachable states: ["verifyingPayment"]
                states with no way out: ["unlocked", "alarming"]
                events never handled: ["reset"]
                """
        )
    }

    @Test("A complete turnstile has a clean report")
    func cleanReport() throws {
        let fsm = FSM<State, Event>(initialState: .locked)
        try fsm.buildTable {
            let resetable = SuperState { when(.reset) | then(.locked) }
            define(.locked, adopts: resetable) {
                when(.coin) | then(.unlocked)
                when(.pass) | then(.alarming)
            }
            define(.unlocked, adopts: resetable) { when(.pass) | then(.verifyingPayment) }
            define(.alarming, adopts: resetable)
            define(.verifyingPayment, adopts: resetable)
        }
        #expect(fsm.validationReport().isClean)
        #expect(fsm.validationReport().description == "no findings")
    }

    @Test("Unhandled events are logged once per state, event and predicates, with both named")
    func unhandledLoggedOnce() async throws {
        let fsm = FSM<State, Event>(initialState: .locked)
        try fsm.buildTable {
            define(.locked) { matching(Enforcement.weak) | when(.coin) | then(.unlocked) }
        }
        await fsm.handleEvent(.pass)
        await fsm.handleEvent(.pass)
        await fsm.handleEvent(.coin, predicates: Enforcement.strong)
        await fsm.handleEvent(.coin, predicates: Enforcement.strong)
        await fsm.handleEvent(.coin)
        #expect(fsm.state == .locked)
        #expect(
            fsm.unhandledLog.lines == [
                "FSM: no transition for event pass in state locked; ignored",
                "FSM: no transition for event coin in state locked with predicates Enforcement.strong; ignored",
                "FSM: no transition for event coin in state locked; ignored",
            ]
        )
    }
}

extension DiagramTests {
    /// Issue 28's search for costs that grow with history: events carrying ever new values
    /// made the log, and the set of lines it had seen, grow without end.
    @Test("The log of unhandled events stops at its limit of distinct lines, and says so")
    func unhandledLogIsBounded() {
        var log = UnhandledLog(limit: 3)
        for value in 0..<10 { log.record(state: "locked", event: "coin(\(value))", predicates: []) }
        #expect(
            log.lines == [
                "FSM: no transition for event coin(0) in state locked; ignored",
                "FSM: no transition for event coin(1) in state locked; ignored",
                "FSM: no transition for event coin(2) in state locked; ignored",
                "FSM: 3 distinct unhandled events logged; later ones are not",
            ]
        )
    }
}

/// A table whose first state's description needs escaping in both formats.
struct OddlyNamedTable: SyntaxBuilder {
    enum State: String, Hashable, CustomStringConvertible {
        case quoted, plain
        var description: String { self == .quoted ? #"say "hi": C:\x; #1"# : "plain" }
    }
    typealias Event = Int

    func built() throws -> FSM<State, Event> {
        let fsm = FSM<State, Event>(initialState: .quoted)
        try fsm.buildTable {
            define(.quoted) { when(1) | then(.plain) }
        }
        return fsm
    }
}

@Test("Descriptions are escaped by the shared renderers: DOT quotes and backslashes, Mermaid entity codes")
func diagramEscaping() throws {
    let fsm = try OddlyNamedTable().built()
    #expect(fsm.dot().contains(#"    "say \"hi\": C:\\x; #1" -> "plain" [label=" 1 "];"#))
    #expect(fsm.mermaid().contains(#"    state "say #quot;hi#quot;#58; C#58;\x#59; #35;1" as say__hi___C__x___1"#))
    #expect(fsm.mermaid().contains("    say__hi___C__x___1 --> plain : 1\n"))
}
