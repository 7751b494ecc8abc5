import Foundation
import TestSupport
import Testing

/// The built `statechart` executable, piped and on a pseudo-terminal.
@Suite("statechart, end to end", .serialized, .timeLimit(.minutes(3)))
struct EndToEndTests {
    @Test(
        "check on the real SCION tests: 55 passed, 0 failed, exit 0",
        .enabled(if: Paths.scion != nil, Comment(rawValue: Paths.scionSkipReason))
    )
    func checkSCION() async throws {
        let (status, text) = try await runBinary(["check", try #require(Paths.scion)])
        #expect(status == 0)
        #expect(text == "55 passed, 0 failed\n")
    }

    @Test("check with a wrong expectation prints the difference and exits 1")
    func checkFailure() async throws {
        let directory = try scionDirectory(wrong: true)
        defer { directory.remove() }
        let (status, text) = try await runBinary(["check", directory.path])
        #expect(status == 1)
        #expect(text == "FAIL group/wrong: after event #2 'u': expected [\"b\"], got [\"a\"]\n1 passed, 1 failed\n")
    }

    @Test("diagram prints the Mermaid diagram")
    func diagram() async throws {
        let (status, text) = try await runBinary(["diagram", Paths.sample("player.scxml"), "--format", "mermaid"])
        #expect(status == 0)
        #expect(text == CommandTests.playerMermaid)
    }

    @Test("a bad file exits 2 and names the file and the line")
    func badFile() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write(
            "bad.scxml",
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
              <state id="a">
                <onentry><log expr="missing"/></onentry>
              </state>
              <state id="a"/>
            </scxml>
            """
        )
        let (status, text) = try await runBinary(["run", file])
        #expect(status == 2)
        #expect(text == "statechart: \(file): line 5: duplicate state id 'a'\n")
    }

    @Test("an unknown option exits 2 with the message and where the command's help is, not the whole usage")
    func badOption() async throws {
        let (status, text) = try await runBinary(["diagram", "--colour", "x.scxml"])
        #expect(status == 2)
        #expect(text == "statechart: unknown option '--colour'\nsee 'statechart help diagram' for its options\n")
    }

    @Test("run with piped input: plain frames, events echoed, exit 0 at the end of input")
    func piped() async throws {
        let (status, text) = try await runBinary(
            ["run", Paths.sample("player.scxml")],
            input: "ready\nplay\nmute\npower\npower\n"
        )
        #expect(status == 0)
        let answers = text.components(separatedBy: "statechart> ")
        try #require(answers.count == 6, "\(text)")
        #expect(answers[0].hasPrefix("== player.scxml ==\n  Active: boot, selftest\n"))
        #expect(
            answers[1].hasPrefix("ready\n== player.scxml ==\n  Active: on, deck, transport, stopped, volume, loud\n")
        )
        #expect(answers[2].hasPrefix("play\n") && answers[2].contains("    exit stopped\n    enter playing\n"))
        #expect(
            answers[5].hasPrefix("power\n")
                && answers[5].contains("Active: on, deck, transport, playing, volume, muted")
        )
        #expect(!text.contains("\u{1B}["), "escape sequences in plain output")
    }

    @Test("on a terminal: Tab completes an accepted event, the step shows, quit exits 0")
    func terminal() async throws {
        let app = try ProcessDriver(
            executable("statechart"),
            arguments: ["run", Paths.sample("player.scxml")],
            terminal: true
        )
        defer { app.terminate() }
        let killer = Task {
            try? await Task.sleep(for: .seconds(60))
            if !Task.isCancelled { app.terminate() }
        }
        defer { killer.cancel() }
        await within("the first frame") { await app.waitFor("Active: boot, selftest") }
        await within("the prompt") { await app.waitFor("statechart> ") }
        app.write("re\t")  // Tab completes the only accepted event starting with "re": ready
        await within("completion of 're'") { await app.waitFor("ready ") }
        app.write("\r")
        await within("the step") { await app.waitFor("Active: on, deck, transport, stopped, volume, loud") }
        app.write("pl\t")
        await within("completion of 'pl'") { await app.waitFor("play ") }
        app.write("\r")
        await within("playing") { await app.waitFor("enter playing") }
        app.write("quit\r")
        let status = await within("exit") { await app.exitStatus() }
        #expect(status == 0, "output:\n\(app.text)")
    }
}
