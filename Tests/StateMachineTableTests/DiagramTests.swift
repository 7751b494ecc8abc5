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
        let lines = try builtTurnstile().dot().split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.first == "digraph FSM {")
        #expect(lines.last == "}")
        #expect(lines.contains("\"__initial\" -> \"locked\";"))
        let nodes = lines.filter { $0.contains("[label=") && !$0.contains("->") }
        #expect(
            nodes == [
                "\"locked\" [label=\"locked\\nentry / lock\"];",
                "\"unlocked\" [label=\"unlocked\"];",
                "\"alarming\" [label=\"alarming\\nexit / alarmOff\"];",
            ]
        )
        let edges = lines.filter { $0.contains("->") && !$0.contains("__initial") }
        #expect(
            edges == [
                "\"locked\" -> \"locked\" [label=\"[Enforcement.weak] pass / smile\"];",
                "\"locked\" -> \"alarming\" [label=\"[Enforcement.strong] pass\"];",
                "\"locked\" -> \"unlocked\" [label=\"coin / unlock, action\"];",
                "\"unlocked\" -> \"locked\" [label=\"pass [condition]\"];",
                "\"alarming\" -> \"locked\" [label=\"reset\"];",
            ]
        )
    }

    @Test("Mermaid: stateDiagram-v2 with named states, [*] start, labelled transitions and entry/exit notes")
    func mermaid() throws {
        let lines = try builtTurnstile().mermaid().split(separator: "\n").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        #expect(
            lines == [
                "stateDiagram-v2",
                "state \"locked\" as s0",
                "state \"unlocked\" as s1",
                "state \"alarming\" as s2",
                "[*] --> s0",
                "s0 --> s0 : [Enforcement.weak] pass / smile",
                "s0 --> s2 : [Enforcement.strong] pass",
                "s0 --> s1 : coin / unlock, action",
                "s1 --> s0 : pass [condition]",
                "s2 --> s0 : reset",
                "s0 : entry / lock",
                "s2 : exit / alarmOff",
            ]
        )
    }

    @Test("Before buildTable the diagrams show only the initial state")
    func emptyDiagram() {
        let fsm = FSM<State, Event>(initialState: .locked)
        #expect(fsm.mermaid() == "stateDiagram-v2\n    state \"locked\" as s0\n    [*] --> s0\n")
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
