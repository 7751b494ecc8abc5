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
        await within("the home screen") { await app.waitFor("Commands: open <number|name>, dump, help, back, quit") }
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
        #expect(app.text.contains("--delay-scale needs a number >= 0"))
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

    @Test("on a terminal: Ctrl-C leaves cleanly with status 0")
    func interrupt() async throws {
        let app = try ProcessDriver(binary, arguments: [], terminal: true)
        defer { app.terminate() }
        await within("the prompt") { await app.waitFor("casestudies> ") }
        app.write("open 2\r")
        await within("the Clics screen") { await app.waitFor("Number of loads: 0") }
        // Ctrl-C: a terminal turns it into SIGINT for its foreground process; this pseudo-
        // terminal is not the child's controlling terminal, so send the signal directly.
        app.interrupt()
        #expect(await within("exit") { await app.exitStatus() } == 0)
    }
}
