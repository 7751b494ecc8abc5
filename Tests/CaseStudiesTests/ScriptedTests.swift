import CaseStudiesScreens
import Terminal
import Testing

@Suite("CaseStudies, scripted in-process", .timeLimit(.minutes(1)))
@MainActor
struct ScriptedTests {
    @Test("the home screen lists the case studies and bad input is explained")
    func home() async {
        let app = AppDriver()
        await app.type("", expecting: "8. Player sample")
        #expect(app.lastFrame.contains("1. Clics sample (cancel output)"))
        await app.type("dance", expecting: "Unknown command 'dance'. Available here: open, help, back, quit.")
        await app.type("open 99", expecting: "No case study '99'; choose a number from 1 to 8")
        await app.type("open", expecting: "Usage: open <number|name>")
        await app.type("back", expecting: "Already on the first screen")
        await app.type("help", expecting: "open <number|name>  Open a case study")
        #expect(await app.finish() == 0)
    }

    @Test(
        "Clics: three loads count once when cancelling, three times when continuing",
        arguments: [("1", 1), ("clics-continue", 3)]
    )
    func clics(screen: String, expected: Int) async {
        // A 2 s load: the three loads must all be typed within its window (as a user
        // clicking three times within 5 s), also on a slow, sanitized build.
        let app = AppDriver(delayScale: 0.4)
        await app.type("open \(screen)", expecting: "Number of loads: 0")
        await app.type("reset", expecting: "'reset' is not available now")
        await app.type("load", expecting: "loading...")
        app.console.type("load")
        app.console.type("load")
        await app.type("", expecting: "Number of loads: \(expected)")
        #expect(!app.console.output.contains { $0.contains("'load' is not available now") })
        #expect(app.lastFrame.contains("Commands: (load), reset"))
        await app.type("reset", expecting: "Number of loads: 0")
        #expect(await app.finish() == 0)
    }

    @Test("Counter: the units drive the tens through the mediator; '-' is refused at 0")
    func counter() async {
        let app = AppDriver()
        await app.type("open counter", expecting: "Units: 0")
        #expect(app.lastFrame.contains("Commands: +, (-)"))
        await app.type("-", expecting: "'-' is not available now")
        for _ in 0..<11 { app.console.type("+") }
        await app.type("", expecting: "Units: 11")
        // The tens follow asynchronously, through the mediator.
        await app.type("", expecting: "Tens: 1")
        await app.type("-", expecting: "Units: 10")
        await app.type("-", expecting: "Tens: 0")
        #expect(await app.finish() == 0)
    }

    @Test("Elevator: warning over five persons, closing only when it is allowed")
    func elevator() async {
        let app = AppDriver()
        await app.type("open 4", expecting: "Persons: 0")
        await app.type("leave", expecting: "'leave' is not available now")
        for _ in 0..<6 { app.console.type("enter") }
        await app.type("", expecting: "Too many people, some should leave")
        await app.type("close", expecting: "'close' is not available now")
        await app.type("leave", expecting: "Persons: 5")
        await app.type("close", expecting: "You can open the elevator")
        await app.type("enter", expecting: "'enter' is not available now")
        await app.type("open", expecting: "More people can enter")
        #expect(await app.finish() == 0)
    }

    @Test("Analysis: in progress, then finished; reset goes back to ready")
    func analysis() async {
        let app = AppDriver()
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
        await app.type("remove 2", expecting: "credits: $8.00")
        // Each view observes the shared machine on its own: all three catch up.
        await app.waitForFrame("all three views at $8.00") {
            $0.components(separatedBy: "credits: $8.00").count - 1 == 3
        }
        await app.type("add abc", expecting: "'abc' is not an amount; try add 10 or add 2.5.")
        await app.type("remove 20", expecting: "Refused: the wallet has $8.00, less than $20.00.")
        await app.type("slide 150", expecting: "The slider goes from 0 to 100")
        await app.type("slide 25", expecting: "slider: $25.00")
        await app.type("add-slider", expecting: "credits: $33.00")
        #expect(app.lastFrame.contains("slider: $0.00"))
        #expect(await app.finish() == 0)
    }

    @Test("Turnstile (table) and Player (statechart)")
    func tableAndStatechart() async {
        let app = AppDriver()
        await app.type("open turnstile", expecting: "State: locked")
        await app.type("pass", expecting: "Last action: alarm")
        await app.type("coin", expecting: "State: unlocked")
        await app.type("pass", expecting: "Last action: lock")
        await app.type("back", expecting: "1. Clics sample")
        await app.type("open player", expecting: "stopped")
        await app.type("pause", expecting: "'pause' does nothing in this configuration.")
        await app.type("play", expecting: "playing")
        #expect(app.lastFrame.contains("normal"))
        await app.type("shuffle", expecting: "shuffled")
        #expect(app.lastFrame.contains("playing"))
        #expect(await app.finish() == 0)
    }

    @Test("dump lists the live machines")
    func dump() async {
        let app = AppDriver()
        await app.type("open elevator", expecting: "Persons: 0")
        await app.type("dump", expecting: "----------------- DUMP -----------------")
        #expect(await app.finish() == 0)
    }

    @Test("options: delay scale, log, help, and errors")
    func options() throws {
        #expect(
            try CaseStudiesApp.parse(["--delay-scale", "0.5", "--log"], environment: [:]).get()
                == .init(delayScale: 0.5, log: true)
        )
        #expect(try CaseStudiesApp.parse([], environment: ["CASESTUDIES_DELAY_SCALE": "0.1"]).get().delayScale == 0.1)
        #expect(throws: UsageError.self) {
            try CaseStudiesApp.parse(["--delay-scale", "fast"], environment: [:]).get()
        }
        #expect(throws: UsageError.self) { try CaseStudiesApp.parse(["--nope"], environment: [:]).get() }
        #expect(throws: UsageError.self) {
            try CaseStudiesApp.parse([], environment: ["CASESTUDIES_DELAY_SCALE": "-1"]).get()
        }
    }
}
