import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("CaseStudies, end to end", .serialized, .timeLimit(.minutes(2)))
struct EndToEndTests {
    let binary = executable("CaseStudies")

    @Test("with piped input: plain frames, commands echoed, exit 0 at the end of input")
    func piped() async throws {
        let app = try ProcessDriver(binary, arguments: ["--delay-scale", "0.01"])
        defer { app.terminate() }
        await within("the home screen") {
            await app.waitFor("Commands: open <number|name>, dump, (diagram), help, (back), quit")
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

    /// Regression: in one CI run, `piped()`'s app never saw the end of its input. Its pipe
    /// was Foundation's (not close-on-exec), and the tests' other children were started
    /// with a bare `posix_spawn`: one started meanwhile (the PostgreSQL tests' cluster, say)
    /// held the write end. This test made that happen on purpose, and failed.
    @Test("with piped input: the app sees the end of its input while another child of the tests runs")
    func endOfInputBesideAnotherChild() async throws {
        let app = try ProcessDriver(binary, arguments: ["--delay-scale", "0"])
        defer { app.terminate() }
        await within("the home screen") { await app.waitFor("Commands: open") }
        // Started the way a library might start one: `posix_spawn` closing nothing.
        var other: pid_t = 0
        let words = ["/bin/sleep", "120"]
        let argv = words.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        try #require(posix_spawn(&other, "/bin/sleep", nil, nil, argv, environ) == 0)
        defer {
            kill(other, SIGKILL)
            var status: Int32 = 0
            waitpid(other, &status, 0)
        }
        app.closeInput()
        #expect(await within(seconds: 30, "exit") { await app.exitStatus() } == 0)
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
        #expect(
            text.hasSuffix(
                "casestudies> load\n'load' is not available in state ClicsIsLoaded (numberOfLoads: 1): it is available in ClicsIsIdle or ClicsIsLoading ('reset' first).\n"
            )
        )
    }

    /// Every screen, its machines' work, `dump` and `diagram`: a piped run prints the same
    /// bytes every time (no wall-clock time in `dump`, the seed fixed, each command settled).
    static let everyScreen = """
        dump
        open 1
        load
        load
        dump
        back
        open clics-continue
        load
        load
        back
        open counter
        +
        +
        -
        dump
        diagram
        back
        open elevator
        enter
        close
        close
        back
        open analysis
        analyse
        dump
        back
        open wallet
        add 10.25
        add 0.001
        remove 2
        dump
        diagram dot
        back
        open turnstile
        coin
        pass
        pass
        dump
        diagram
        back
        open player
        play
        shuffle
        dump
        diagram
        back
        quit

        """

    @Test("piped: two runs of the same input print the same bytes, dump without wall-clock times")
    func pipedRunsAreIdentical() async throws {
        let first = try await runPiped(binary, ["--delay-scale", "0.01"], input: Self.everyScreen, seconds: 90)
        let second = try await runPiped(binary, ["--delay-scale", "0.01"], input: Self.everyScreen, seconds: 90)
        #expect(first.status == 0 && second.status == 0)
        #expect(first.text == second.text)
        #expect(first.text.contains("[WalletState] WalletState (credits: 8.25)"), "\(first.text)")
        #expect(first.text.contains("No machine runs yet"))
        #expect(!first.text.contains(" at 20"), "a dump line carries a wall-clock time")
        #expect(!first.text.contains("+0000"))
    }

    @Test("piped, by default, the library prints nothing on standard error (no transition log)")
    func quietStandardError() async throws {
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--delay-scale", "0.01"]
        var environment = ProcessInfo.processInfo.environment
        environment["STATE_MACHINE_LOG"] = nil
        process.environment = environment
        let input = Pipe.closedOnExec()
        let errors = Pipe.closedOnExec()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data("open elevator\nenter\nclose\nback\nopen wallet\nadd 1\nquit\n".utf8))
        try input.fileHandleForWriting.close()
        let text = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let data = errors.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: String(decoding: data, as: UTF8.self))
            }
        }
        #expect(process.terminationStatus == 0)
        #expect(text == "")
    }

    @Test("piped, --log prints the transitions on standard error")
    func logOption() async throws {
        let (status, text) = try await runPiped(
            binary,
            ["--delay-scale", "0.01", "--log"],
            input: "open elevator\nenter\nquit\n",
            seconds: 60
        )
        #expect(status == 0)
        #expect(
            text.contains("[ElevatorState] ElevatorIsOpen (persons: 0) + DidEnter => ElevatorIsOpen (persons: 1)"),
            "\(text)"
        )
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

    @Test("on a terminal: quit while a load runs prints the documented line and leaves a clean prompt line")
    func quitWhileBusy() async throws {
        let app = try ProcessDriver(binary, arguments: ["--delay-scale", "100"], terminal: true)
        defer { app.terminate() }
        await within("the prompt") { await app.waitFor("casestudies> ") }
        app.write("open 1\r")
        await within("the Clics screen") { await app.waitFor("Number of loads: 0") }
        app.write("load\r")
        await within("the load") { await app.waitFor("loading...") }
        await within("the spinner") { await app.waitFor("working... casestudies> ") }
        app.write("quit\r")
        let message = "Leaving while 'Clics (cancel output)' is still working; what it was doing is dropped."
        await within("the message") { await app.waitFor(message) }
        #expect(await within("exit") { await app.exitStatus() } == 0)
        // What the terminal shows at the end: the typed line, the message, and an empty line
        // for the shell's prompt; no spinner's prompt left after the message.
        let text = app.text
        let lines = Self.visibleLines(text)
        let end = Array(lines.suffix(3))
        #expect(
            end.count == 3 && end[0].hasSuffix("casestudies> quit") && end[1] == message && end[2].isEmpty,
            "\(end)"
        )
        // Readline turns bracketed paste off whenever it gives the terminal back: the message
        // comes once it has for good (no prompt after it), not while the prompt is still up.
        if let restored = text.range(of: "\u{1B}[?2004l", options: .backwards), text.contains("\u{1B}[?2004h") {
            let after = text[restored.upperBound...]
            #expect(after.contains(message) && !after.contains("\u{1B}[?2004h"), "\(text.suffix(300).debugDescription)")
        }
    }

    /// The lines a terminal shows for `text`: a carriage return goes back to the start of the
    /// line, `ESC [2K` erases it, other escape sequences show nothing.
    static func visibleLines(_ text: String) -> [String] {
        var lines: [String] = []
        var line = ""
        var column = 0
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar {
            case "\n":
                lines.append(line)
                line = ""
                column = 0
            case "\r":
                column = 0
            case "\u{1B}":
                var sequence = ""
                while let next = scalars.next() {
                    sequence.unicodeScalars.append(next)
                    if next.properties.isAlphabetic, next != "[" { break }
                }
                if sequence == "[2K" { line = "" }
            default:
                var characters = Array(line.unicodeScalars)
                if column < characters.count {
                    characters[column] = scalar
                } else {
                    characters.append(scalar)
                }
                line = String(String.UnicodeScalarView(characters))
                column += 1
            }
        }
        lines.append(line)
        return lines
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
