import CaseStudiesScreens
import Foundation
import StateMachineCore
import StateMachineDump
import Terminal
import TestSupport
import Testing

@Suite("CaseStudies, scripted in-process", .timeLimit(.minutes(1)))
@MainActor
struct ScriptedTests {
    /// The number of case studies, from the app's registry.
    nonisolated static let count = CaseStudiesApp.caseStudies.count
    /// The home screen's last line, which shows once the list is drawn.
    nonisolated static let lastEntry = "\(count). \(CaseStudiesApp.caseStudies[count - 1].title)"

    /// An app whose dump machine is the test's own, which no other test's machines reach
    /// (the default one's collecting session is process-wide, and other tests start and
    /// stop it), with the task that drains the dump machine: cancel it at the end.
    static func appWithItsOwnDump() -> (app: AppDriver, drain: Task<Void, Never>) {
        let dumpStateMachine = makeDumpStateMachine()
        let dumpMediator = Mediator<DumpEvent>()
        dumpStateMachine.connectAsReceiver(to: dumpMediator)
        let drain = Task { for await _ in dumpStateMachine {} }
        return (AppDriver(dumpStateMachine: dumpStateMachine, dumpMediator: dumpMediator), drain)
    }

    /// The number `open` takes for the case study `name`.
    nonisolated static func number(of name: String) -> Int {
        (CaseStudiesApp.caseStudies.firstIndex { $0.name == name } ?? -1) + 1
    }

    @Test("the home screen lists the case studies and bad input is explained")
    func home() async {
        let app = AppDriver()
        await app.waitForFrame("the home screen") { $0.contains(Self.lastEntry) }
        #expect(app.lastFrame.contains("1. Clics sample (cancel output)"))
        // What the home screen refuses is dimmed (parenthesised when plain), and not offered.
        #expect(app.lastFrame.contains("Commands: open <number|name>, dump, (diagram), help, (back), quit"))
        await app.type("dance", expecting: "Unknown command 'dance'. Available here: open, dump, help, quit.")
        await app.type(
            "open 99",
            expecting: "The case study number must be a whole number from 1 to \(Self.count), not '99'"
        )
        await app.type("open", expecting: "Usage: open <number|name>")
        await app.type("back", expecting: "Already on the first screen")
        await app.type("help", expecting: "open <number|name>       Open a case study")
        #expect(app.console.output.contains { $0.contains("diagram [FORMAT] [PATH]  Print the case study's machine") })
        #expect(await app.finish() == 0)
    }

    @Test(
        "numbers out of every range are refused with the range, never trapped on",
        arguments: [
            "open -9223372036854775808", "open 9223372036854775807", "open 99999999999999999999999", "open -1",
            "open 0",
        ]
    )
    func hugeNumbers(line: String) async {
        let app = AppDriver()
        let output = await app.outputOf(line)
        #expect(
            output.contains {
                $0.hasPrefix("The case study number must be a whole number from 1 to \(Self.count), not '")
            }
        )
        #expect(await app.finish() == 0)
    }

    @Test(
        "Clics on a terminal: three loads count once when cancelling, three times when continuing",
        arguments: [("1", 1), ("clics-continue", 3)]
    )
    func clics(screen: String, expected: Int) async {
        // The loads wait at a gate the test opens once all three have started (as a user
        // clicking three times within the original's 5 s), so no timing decides the count.
        // Each Load is typed once the one before it waits at the gate: a cancelling Load that
        // reached the machine before the previous load's task had begun would cancel that
        // task before its side effect ran, and only two loads would ever arrive.
        let gate = Gate()
        let app = AppDriver(interactive: true) { _ in
            await gate.wait()
            try Task.checkCancellation()
        }
        await app.type("open \(screen)", expecting: "Number of loads: 0")
        await app.type(
            "reset",
            expecting:
                "'reset' is not available in state ClicsIsIdle: it is available in ClicsIsLoaded, once a load ended."
        )
        await app.type("load", expecting: "loading...")
        await within("the first load at the gate") { await gate.waitForWaiters(1) }
        app.console.type("load")
        await within("the second load at the gate") { await gate.waitForWaiters(2) }
        app.console.type("load")
        await within("three loads at the gate") { await gate.waitForWaiters(3) }
        await gate.open()
        await app.waitFor("Number of loads: \(expected)")
        #expect(!app.console.output.contains { $0.contains("'load' is not available") })
        #expect(app.lastFrame.contains("Commands: (load), reset"))
        await app.type("reset", expecting: "Number of loads: 0")
        #expect(await app.finish() == 0)
    }

    @Test("Clics piped: each load's frame shows its result before the next command is read")
    func clicsPiped() async {
        let app = AppDriver()
        await app.type("open 1", expecting: "Number of loads: 0")
        let load = await app.outputOf("load")
        #expect(load.count == 2)
        #expect(load.last?.contains("Number of loads: 1") == true)
        #expect(
            await app.outputOf("load").last
                == "'load' is not available in state ClicsIsLoaded (numberOfLoads: 1): it is available in ClicsIsIdle or ClicsIsLoading ('reset' first)."
        )
        #expect(await app.finish() == 0)
    }

    @Test("Counter: the units drive the tens through the mediator; '-' is refused at 0")
    func counter() async {
        let app = AppDriver()
        await app.type("open counter", expecting: "Units: 0")
        #expect(app.lastFrame.contains("Commands: +, (-)"))
        await app.type(
            "-",
            expecting: "'-' is not available in state ValueIsFixed (value: 0): it is available above 0 ('+' first)."
        )
        for _ in 0..<10 { app.console.type("+") }
        // Piped, every command's frame shows the tens caught up with the units.
        await app.type("+", expecting: "Units: 11")
        #expect(app.lastFrame.contains("Tens: 1"))
        await app.type("-", expecting: "Units: 10")
        await app.type("-", expecting: "Tens: 0")
        #expect(await app.finish() == 0)
    }

    @Test("Elevator: warning over five persons, closing only when it is allowed")
    func elevator() async {
        let app = AppDriver()
        await app.type("open 4", expecting: "Persons: 0")
        await app.type(
            "leave",
            expecting:
                "'leave' is not available in state ElevatorIsOpen (persons: 0): it is available while the doors are open and someone is inside."
        )
        for _ in 0..<5 { app.console.type("enter") }
        await app.type("enter", expecting: "Too many people, some should leave")
        await app.type(
            "close",
            expecting:
                "'close' is not available in state ElevatorIsInWarning (persons: 6): it is available in ElevatorIsOpen, with 5 persons or fewer."
        )
        await app.type("leave", expecting: "Persons: 5")
        await app.type("close", expecting: "You can open the elevator")
        await app.type(
            "enter",
            expecting:
                "'enter' is not available in state ElevatorIsClosed (persons: 5): it is available while the doors are open ('open' first)."
        )
        await app.type("open", expecting: "More people can enter")
        #expect(await app.finish() == 0)
    }

    @Test("Analysis: piped, the analysis finishes before the next command; the seed fixes its id")
    func analysis() async {
        let app = AppDriver(delayScale: 0.001)
        await app.type("open analysis", expecting: "Ready to start a new analysis")
        await app.type("analyse", expecting: "Analysis is finished (id = ")
        await app.type("reset", expecting: "Ready to start a new analysis")
        #expect(await app.finish() == 0)
    }

    @Test("Wallet: three views of one shared machine stay in step; bad amounts change nothing")
    func wallet() async {
        let app = AppDriver()
        await app.type("open wallet", expecting: "Wallet Read Only View")
        await app.type("add 10", expecting: "credits: $10.00")
        let removed = await app.type("remove 2", expecting: "credits: $8.00")
        // Each view observes the shared machine on its own; piped, the frame waits for all three.
        #expect(removed.components(separatedBy: "credits: $8.00").count - 1 == 3)
        await app.type("add abc", expecting: "The amount must be a number from 0 to 1000000, not 'abc'; try add 10")
        await app.type("add", expecting: "'add' needs one amount from 0 to 1000000; try add 10 or add 2.5.")
        await app.type("remove 20", expecting: "Refused: the wallet has $8.00, less than $20.00.")
        await app.type("slide 150", expecting: "The slider must be a number from 0 to 100, not '150'")
        await app.type("slide 25", expecting: "slider: $25.00")
        await app.type("add-slider", expecting: "credits: $33.00")
        #expect(app.lastFrame.contains("slider: $0.00"))
        #expect(await app.finish() == 0)
    }

    @Test(
        "Wallet: amounts that used to trap are refused with the accepted range",
        arguments: ["add 1e17", "add 5e16", "add 1e308", "add 9e16", "add nan", "add inf", "add -1", "remove 1e308"]
    )
    func walletHugeAmounts(line: String) async {
        let app = AppDriver()
        await app.type("open wallet", expecting: "Wallet Read Only View")
        let output = await app.outputOf(line)
        #expect(output.contains { $0.hasPrefix("The amount must be a number from 0 to 1000000, not '") })
        await app.type("add 1000000", expecting: "credits: $1,000,000.00")
        #expect(await app.finish() == 0)
    }

    @Test("Turnstile (table) and Player (statechart): the Player dims and refuses unhandled events")
    func tableAndStatechart() async {
        let app = AppDriver()
        await app.type("open turnstile", expecting: "State: locked")
        await app.type("pass", expecting: "Last action: alarm")
        await app.type("coin", expecting: "State: unlocked")
        await app.type("pass", expecting: "Last action: lock")
        await app.type("back", expecting: "1. Clics sample")
        await app.type("open player", expecting: "stopped")
        #expect(app.lastFrame.contains("Commands: play, (pause), (shuffle), (stop)"))
        await app.type(
            "pause",
            expecting: "'pause' is not available in state stopped: it is available in playing ('play' first)."
        )
        await app.type("play", expecting: "playing")
        #expect(app.lastFrame.contains("normal"))
        #expect(app.lastFrame.contains("Commands: (play), pause, shuffle, stop"))
        await app.type("shuffle", expecting: "shuffled")
        #expect(app.lastFrame.contains("playing"))
        #expect(await app.finish() == 0)
    }

    @Test(
        "Parking meter: the class the plugin compiled from parking-meter.scxml; coins sent with a suffix, the chart's guards and data decide"
    )
    func parkingMeter() async {
        let (app, drain) = Self.appWithItsOwnDump()
        defer { drain.cancel() }
        await app.type("open parking-meter", expecting: "State: idle   minutes paid: 0   tickets printed: 0")
        #expect(app.lastFrame.contains("Commands: coin <quarter|dollar>, (print), (cancel), (take)"))
        await app.type(
            "take",
            expecting: "'take' is not available in state idle: it is available in printed ('print' first)."
        )
        await app.type("coin quarter", expecting: "State: paying   minutes paid: 15")
        // The chart's guard refuses the ticket, and its notice says why; the state stays.
        await app.type("print", expecting: "A ticket needs at least 30 minutes; 15 paid.")
        #expect(app.lastFrame.contains("State: paying"))
        await app.type("coin nickel", expecting: "A coin is a quarter or a dollar; try coin quarter or coin dollar.")
        await app.type("coin DOLLAR", expecting: "minutes paid: 75")
        for minutes in [135, 195] { await app.type("coin dollar", expecting: "minutes paid: \(minutes)") }
        await app.type("coin dollar", expecting: "At most 4 hours: the coin is returned.")
        #expect(app.lastFrame.contains("minutes paid: 195"))
        await app.type("print", expecting: "Ticket 1 printed: 195 minutes. Take it.")
        #expect(app.lastFrame.contains("Commands: (coin <quarter|dollar>), (print), (cancel), take"))
        await app.type("take", expecting: "State: idle   minutes paid: 0   tickets printed: 1")
        await app.type("coin dollar", expecting: "State: paying")
        await app.type("cancel", expecting: "60 minutes refunded.")
        let dump = await app.type("dump", expecting: "----------------- DUMP -----------------")
        #expect(dump.contains("ParkingMeter (idle)"))
        #expect(await app.finish() == 0)
    }

    @Test("dump lists running machines, also those of screens that were left")
    func dump() async {
        let (app, drain) = Self.appWithItsOwnDump()
        defer { drain.cancel() }
        await app.type("open elevator", expecting: "Persons: 0")
        await app.type("enter", expecting: "Persons: 1")
        await app.type("back", expecting: "1. Clics sample")
        await app.type("open turnstile", expecting: "State: locked")
        await app.type("coin", expecting: "State: unlocked")
        await app.type("back", expecting: "1. Clics sample")
        await app.type("open player", expecting: "stopped")
        await app.type("play", expecting: "playing")
        let dump = await app.type("dump", expecting: "----------------- DUMP -----------------")
        #expect(dump.contains("ElevatorIsOpen (persons: 1)"))
        #expect(dump.contains("Turnstile (unlocked)"))
        #expect(dump.contains("Player (active, playing, normal)"))
        #expect(await app.finish() == 0)
    }

    @Test("Tab completes the arguments of 'open', not only the command names")
    func completions() async {
        let app = AppDriver()
        await app.waitForFrame("the home screen") { $0.contains(Self.lastEntry) }
        let completions = app.console.lastPrompt?.completions ?? []
        #expect(completions.contains("open"))
        #expect(completions.contains("open wallet"))
        #expect(completions.contains("open clics-cancel"))
        #expect(completions.contains("dump"))
        #expect(await app.finish() == 0)
    }

    @Test("a blank line prints nothing but its echo")
    func blankLine() async {
        let app = AppDriver()
        await app.waitForFrame("the home screen") { $0.contains(Self.lastEntry) }
        #expect(await app.outputOf("") == ["casestudies> "])
        #expect(await app.finish() == 0)
    }

    @Test("piped runs are deterministic: the same input prints the same output")
    func deterministic() async {
        let script = [
            "open 1", "load", "reset", "back", "open counter", "+", "+", "-", "back", "open 4", "enter", "close",
            "back", "open analysis", "analyse", "reset", "back", "open wallet", "add 10", "slide 5", "add-slider",
            "remove 2.5", "back", "open \(Self.number(of: "turnstile"))", "coin", "pass", "back",
            "open \(Self.number(of: "player"))", "play", "shuffle", "stop",
        ]
        var transcripts: [[String]] = []
        for _ in 0..<2 {
            let app = AppDriver()
            for line in script { app.console.type(line) }
            #expect(await app.finish() == 0)
            transcripts.append(app.console.output)
        }
        #expect(transcripts[0] == transcripts[1])
        #expect(transcripts[0].contains { $0.contains("Number of loads: 1") })
        #expect(transcripts[0].contains { $0.contains("Analysis is finished (id = ") })
    }

    @Test("options: delay scale, seed, log, help, and errors naming the accepted range")
    func options() throws {
        #expect(
            try CaseStudiesApp.parse(["--delay-scale", "0.5", "--log"], environment: [:]).get()
                == .init(delayScale: 0.5, log: true)
        )
        #expect(try CaseStudiesApp.parse(["--seed", "7"], environment: [:]).get().seed == 7)
        #expect(try CaseStudiesApp.parse(["--state", "cs.sqlite"], environment: [:]).get().stateFile == "cs.sqlite")
        #expect(try CaseStudiesApp.parse([], environment: ["CASESTUDIES_DELAY_SCALE": "0.1"]).get().delayScale == 0.1)
        #expect(throws: UsageError.self) {
            try CaseStudiesApp.parse(["--delay-scale", "fast"], environment: [:]).get()
        }
        #expect(throws: UsageError("--delay-scale must be a number from 0 to 1000, not '1e300'")) {
            try CaseStudiesApp.parse(["--delay-scale", "1e300"], environment: [:]).get()
        }
        #expect(throws: UsageError.self) { try CaseStudiesApp.parse(["--nope"], environment: [:]).get() }
        #expect(throws: UsageError("CASESTUDIES_DELAY_SCALE must be a number from 0 to 1000, not '-1'")) {
            try CaseStudiesApp.parse([], environment: ["CASESTUDIES_DELAY_SCALE": "-1"]).get()
        }
        #expect(throws: UsageError.self) { try CaseStudiesApp.parse(["--seed", "-1"], environment: [:]).get() }
    }

    @Test("the Mermaid diagram in the terminal has no entity codes: labels read as typed")
    func mermaidLabelsReadable() async {
        let app = AppDriver()
        await app.type("open elevator", expecting: "Persons: 0")
        let mermaid = (await app.outputOf("diagram")).joined(separator: "\n")
        #expect(mermaid.contains("state \"ElevatorIsOpen (persons: 0)\" as ElevatorIsOpen__persons__0_"))
        #expect(!mermaid.contains("#58;"))
        #expect(await app.finish() == 0)
    }

    @Test("home: dump says that no machine runs yet; a long unknown command is cut with '...'")
    func homeMessages() async {
        let (app, drain) = Self.appWithItsOwnDump()
        defer { drain.cancel() }
        await app.waitForFrame("the home screen") { $0.contains(Self.lastEntry) }
        #expect(
            await app.outputOf("dump") == [
                "casestudies> dump",
                "----------------- DUMP -----------------\nNo machine runs yet: open a screen, and its machines appear here.",
            ]
        )
        let long = String(repeating: "x", count: 5_000)
        let output = await app.outputOf(long)
        let expected =
            "Unknown command '\(String(repeating: "x", count: 40))...'. Available here: open, dump, help, quit."
        #expect(output.last == expected)
        #expect(output.allSatisfy { $0.count < 200 || $0.hasPrefix("casestudies> ") })
        await app.type("back", expecting: "Already on the first screen; 'quit' leaves the app.")
        #expect(await app.finish() == 0)
    }

    @Test(
        "Wallet: money is kept in cents; an amount below a cent, or with a fraction of one, is refused by name",
        arguments: [
            (
                "add 0.001",
                "The amount 0.001 is less than a cent: the wallet counts whole cents, 0.01 at least; try add 10 or add 2.5."
            ),
            (
                "add 2.505",
                "The amount 2.505 has a fraction of a cent: the wallet counts whole cents; try add 10 or add 2.5."
            ),
            (
                "remove 0.009",
                "The amount 0.009 is less than a cent: the wallet counts whole cents, 0.01 at least; try remove 10 or remove 2.5."
            ),
            (
                "slide 33.333",
                "The slider 33.333 has a fraction of a cent: the wallet counts whole cents; try slide 25."
            ),
        ]
    )
    func walletCents(line: String, message: String) async {
        let app = AppDriver()
        await app.type("open wallet", expecting: "Wallet Read Only View")
        await app.type("add 1057.5", expecting: "credits: $1,057.50")
        #expect(await app.outputOf(line).last == message)
        // Nothing changed, and sums of cents stay exact (the piped end-to-end run checks the
        // machine's own state in `dump`).
        await app.type("add 0.1", expecting: "credits: $1,057.60")
        await app.type("add 0.2", expecting: "credits: $1,057.80")
        #expect(await app.finish() == 0)
    }

    @Test("Player: the tree shows the states by their names, one step deeper per level, no region machines")
    func playerTree() async {
        let app = AppDriver()
        await app.type("open player", expecting: "stopped")
        await app.type("play", expecting: "playing")
        let frame = app.lastFrame
        #expect(
            frame.contains(
                "  Active configuration:\n    player\n      active\n        playing\n        normal\n  Last steps:"
            ),
            "\(frame)"
        )
        #expect(!frame.contains("SubMachine"))
        #expect(!frame.contains("\t"))
        #expect(await app.finish() == 0)
    }

    @Test("diagram: the machine on screen in Mermaid or DOT; at home and with bad arguments, what would work")
    func diagram() async {
        let app = AppDriver()
        await app.waitForFrame("the home screen") { $0.contains(Self.lastEntry) }
        #expect(
            await app.outputOf("diagram") == [
                "casestudies> diagram",
                "'diagram' draws the machine of a case study: open one first (for example 'open elevator').",
            ]
        )
        await app.type("open elevator", expecting: "Persons: 0")
        let mermaid = (await app.outputOf("diagram")).joined(separator: "\n").trimmingCharacters(in: .newlines)
        #expect(mermaid.contains("stateDiagram-v2"))
        #expect(mermaid.contains("[*] --> ElevatorIsOpen__persons__0_"))
        #expect(mermaid.contains("ElevatorIsOpen__persons__5_ --> ElevatorIsInWarning__persons__6_ : DidEnter()"))
        #expect(mermaid.hasSuffix("%% explored maxDepth 7 reached: 1 transition leads to states not explored"))
        await app.type(
            "diagram gif",
            expecting:
                "Usage: diagram [mermaid|dot|svg|png] [PATH]: the format is one of mermaid, dot, svg, png, not 'gif'."
        )
        await app.type(
            "diagram svg",
            expecting: "Usage: diagram [mermaid|dot|svg|png] [PATH]: an image goes to a file: diagram svg PATH"
        )
        await app.type(
            "diagram dot a b",
            expecting: "Usage: diagram [mermaid|dot|svg|png] [PATH]: one file at most, not 'a b'."
        )
        await app.type("back", expecting: Self.lastEntry)
        for (name, expected) in [
            ("clics-cancel", "ClicsIsIdle__ --> ClicsIsLoading__ : DidRequestClicsLoading()"),
            ("counter", "ValueIsFixed__value__0_ --> ValueIsIncreasing__value__1_ : DidRequestIncrease()"),
            ("analysis", "[*] --> AnalysisIsIdle__"),
            // Labels read as typed: a colon needs no entity code in the terminal.
            ("wallet", "state \"WalletState (credits: 0.00)\" as WalletState__credits__0_00_"),
            // The actions by the names the screen's SMC table gives them.
            ("turnstile", "locked --> unlocked : coin / unlock"),
            ("turnstile", "locked --> locked : pass / alarm"),
            ("turnstile", "unlocked --> unlocked : coin / thankyou"),
            ("turnstile", "unlocked --> locked : pass / lock"),
            ("player", "stopped --> active : play"),
            ("parking-meter", "paying --> printed : print [minutes >= 30] / assign tickets, assign notice"),
        ] {
            await app.type("open \(name)", expecting: "== CaseStudies > ")
            #expect((await app.outputOf("diagram")).contains { $0.contains(expected) }, "\(name)")
            await app.type("back", expecting: Self.lastEntry)
        }
        await app.type("open player", expecting: "Active configuration")
        let dot = (await app.outputOf("diagram dot")).joined(separator: "\n")
        #expect(dot.contains("digraph \"player\" {"))
        #expect(dot.contains("\"stopped\" -> \"active\""))
        #expect(await app.finish() == 0)
    }
}

@Suite("CaseStudies, terminal width", .timeLimit(.minutes(1)))
@MainActor
struct TerminalWidthTests {
    @Test("the Wallet's views stack on a narrow terminal and go side by side again after a resize")
    func walletWidth() async {
        let console = ScriptedConsole(isInteractive: true, columns: 60)
        let app = CaseStudiesApp.make(
            options: .init(delayScale: 0),
            console: console,
            style: TerminalStyle(isEnabled: false)
        )
        let run = Task { await app.run() }
        console.type("open wallet")
        await within("the stacked wallet") {
            await console.waitForOutput {
                $0.contains { $0.contains("  Wallet Full View\n  credits: $0.00\n\n  Wallet Add View") }
            }
        }
        let wallet = console.output.filter { $0.contains("Wallet Full View") }
        #expect(
            wallet.allSatisfy { frame in
                frame.split(separator: "\n").allSatisfy { $0.hasPrefix("Commands:") || $0.count <= 60 }
            }
        )
        console.resize(columns: 120)
        await within("the side-by-side wallet") {
            await console.waitForOutput { $0.contains { $0.contains("Wallet Full View          | Wallet Add View") } }
        }
        console.endInput()
        #expect(await within("exit") { await run.value } == 0)
    }
}
