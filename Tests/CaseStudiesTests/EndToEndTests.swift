import Foundation
import TestSupport
import Testing

@Suite("CaseStudies, end to end", .serialized, .timeLimit(.minutes(2)))
struct EndToEndTests {
    let binary = executable("CaseStudies")

    @Test("with piped input: plain frames, commands echoed, exit 0 at the end of input")
    func piped() async throws {
        let app = try ProcessDriver(binary, arguments: ["--delay-scale", "0.01"])
        defer { app.terminate() }
        await within("the home screen") {
            await app.waitFor("Commands: open <number|name>, dump, diagram, help, back, quit")
        }
        app.write("open 1\n")
        await within("the Clics screen") { await app.waitFor("Number of loads: 0") }
        app.write("load\n")
        await within("a completed load") { await app.waitFor("Number of loads: 1") }
        app.write("add 3\n")
        await within("the error line") { await app.waitFor("Unknown command 'add'.") }
        app.closeInput()
        #expect(await within("exit") { await app.exitStatus() } == 0)
        #expect(app.text.contains("casestudies> load"))
        #expect(!app.text.contains("\u{1B}["), "escape sequences in plain output")
    }

    @Test("a bad option exits with status 2 and the usage")
    func badOption() async throws {
        let app = try ProcessDriver(binary, arguments: ["--delay-scale", "soon"])
        defer { app.terminate() }
        #expect(await within("exit") { await app.exitStatus() } == 2)
        #expect(app.text.contains("--delay-scale must be a number from 0 to 1000, not 'soon'"))
        #expect(app.text.contains("usage: CaseStudies"))
    }

    @Test("on a terminal: readline completes commands, keeps history, and Ctrl-D exits cleanly")
    func terminal() async throws {
        let app = try ProcessDriver(binary, arguments: ["--delay-scale", "0.01"], terminal: true)
        defer { app.terminate() }
        await within("the prompt") { await app.waitFor("casestudies> ") }
        app.write("op\t")  // Tab completes the only command starting with "op"
        await within("completion of 'op'") { await app.waitFor("open ") }
        app.write("4\r")
        await within("the elevator") { await app.waitFor("Persons: 0") }
        app.write("enter\r")
        await within("one person") { await app.waitFor("Persons: 1") }
        app.write("\u{1B}[A\r")  // Up arrow: the last command again
        await within("history") { await app.waitFor("Persons: 2") }
        app.write("\u{04}")  // Ctrl-D
        #expect(await within("exit") { await app.exitStatus() } == 0)
    }

    @Test("on a terminal: Ctrl-C leaves cleanly with status 130 (the SIGINT convention)")
    func interrupt() async throws {
        let app = try ProcessDriver(binary, arguments: [], terminal: true)
        defer { app.terminate() }
        await within("the prompt") { await app.waitFor("casestudies> ") }
        app.write("open 2\r")
        await within("the Clics screen") { await app.waitFor("Number of loads: 0") }
        // Ctrl-C: a terminal turns it into SIGINT for its foreground process; this pseudo-
        // terminal is not the child's controlling terminal, so send the signal directly.
        app.interrupt()
        #expect(await within("exit") { await app.exitStatus() } == 130)
    }

    @Test(
        "input that used to crash the app is refused, and the app exits 0 at the end of input",
        arguments: [
            "open wallet\nadd 1e17\n", "open wallet\nadd 5e16\nadd 5e16\n", "open wallet\nadd 1e308\n",
            "open wallet\nadd 9e16\n", "open -9223372036854775808\nopen 99999999999999999999\n",
        ]
    )
    func crashes(input: String) async throws {
        let (status, text) = try await runPiped(binary, ["--delay-scale", "0"], input: input + "quit\n", seconds: 60)
        #expect(status == 0)
        #expect(text.contains("must be a") && text.contains("number from"))
        #expect(text.hasSuffix("casestudies> quit\n"))
    }

    @Test("piped: escape, bell and NUL in a command come out in caret notation, never raw")
    func controlCharacters() async throws {
        let (status, text) = try await runPiped(
            binary,
            ["--delay-scale", "0"],
            input: "open \u{1B}[31m\u{07}x\u{0}\nquit\n",
            seconds: 60
        )
        #expect(status == 0)
        #expect(text.contains("^[[31m^Gx^@"))
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" })
    }

    @Test("a delay scale beyond 1000 is a usage error, not a crash on 'open 1'")
    func hugeDelayScale() async throws {
        let (status, text) = try await runPiped(binary, ["--delay-scale", "1e300"], input: "open 1\n", seconds: 60)
        #expect(status == 2)
        #expect(text.contains("--delay-scale must be a number from 0 to 1000, not '1e300'"))
    }

    @Test("piped: the loads of the last commands finish before the app exits")
    func loadsFinishAtEndOfInput() async throws {
        let (status, text) = try await runPiped(
            binary,
            ["--delay-scale", "0.01"],
            input: "open 1\nload\nload\nload\n",
            seconds: 60
        )
        #expect(status == 0)
        #expect(text.contains("casestudies> load\n== CaseStudies > Clics (cancel output) ==\n"))
        #expect(text.contains("Number of loads: 1"))
        #expect(text.hasSuffix("casestudies> load\n'load' is not available now (the state does not allow it).\n"))
    }

    @Test("on a terminal: Tab completes the argument of 'open'")
    func argumentCompletion() async throws {
        let app = try ProcessDriver(binary, arguments: ["--delay-scale", "0"], terminal: true)
        defer { app.terminate() }
        await within("the prompt") { await app.waitFor("casestudies> ") }
        app.write("open wa\t")
        await within("completion of 'wa'") { await app.waitFor("open wallet") }
        app.write("\r")
        await within("the wallet") { await app.waitFor("Wallet Read Only View") }
        app.write("quit\r")
        #expect(await within("exit") { await app.exitStatus() } == 0)
    }

    @Test("on a terminal: leaving while a load runs says so rather than dropping it silently")
    func leavingWhileBusy() async throws {
        let app = try ProcessDriver(binary, arguments: ["--delay-scale", "100"], terminal: true)
        defer { app.terminate() }
        await within("the prompt") { await app.waitFor("casestudies> ") }
        app.write("open 1\r")
        await within("the Clics screen") { await app.waitFor("Number of loads: 0") }
        app.write("load\r")
        await within("the load") { await app.waitFor("loading...") }
        app.write("\u{04}")  // Ctrl-D
        // The message may reach the pty after the process has exited: await it, not the exit.
        await within("the message") {
            await app.waitFor("Leaving while 'Clics (cancel output)' is still working; what it was doing is dropped.")
        }
        #expect(await within("exit") { await app.exitStatus() } == 0)
    }

    @Test("on a terminal: --log lines are printed above the prompt, not on the line being typed")
    func logAbovePrompt() async throws {
        let app = try ProcessDriver(binary, arguments: ["--log", "--delay-scale", "0"], terminal: true)
        defer { app.terminate() }
        await within("the prompt") { await app.waitFor("casestudies> ") }
        app.write("open 4\r")
        await within("the elevator") { await app.waitFor("Persons: 0") }
        app.write("enter\r")
        await within("the log line") { await app.waitFor("+ DidEnter => ElevatorIsOpen (persons: 1)") }
        await within("the frame") { await app.waitFor("Persons: 1") }
        app.write("quit\r")
        #expect(await within("exit") { await app.exitStatus() } == 0)
        #expect(!app.text.contains("casestudies> ["), "a log line on the prompt line")
    }

    @Test("on a terminal with TERM=dumb: no colour or style sequences")
    func dumbTerminal() async throws {
        let app = try ProcessDriver(
            binary,
            arguments: ["--delay-scale", "0"],
            terminal: true,
            environment: ["TERM": "dumb", "NO_COLOR": ""]
        )
        defer { app.terminate() }
        await within("the prompt") { await app.waitFor("casestudies> ") }
        app.write("open 4\r")
        await within("the elevator") { await app.waitFor("Persons: 0") }
        app.write("quit\r")
        #expect(await within("exit") { await app.exitStatus() } == 0)
        #expect(!app.text.contains("\u{1B}[1m"), "bold")
        #expect(!app.text.contains("\u{1B}[2m"), "dim")
        #expect(!app.text.contains("\u{1B}[3"), "colour")
    }
}
