import Foundation
import TestSupport
import Testing

/// A folder of its own under the system's temporary folder, removed when `body` returns or throws.
func withTemporaryFolder<T>(_ body: (String) async throws -> T) async throws -> T {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("casestudies-state-\(UUID().uuidString)", isDirectory: true).path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    return try await body(folder)
}

/// Runs the built CaseStudies with `input` piped in; see `runPiped`.
func runCaseStudies(_ arguments: [String], input: String) async throws -> (status: Int32, text: String) {
    try await runPiped(executable("CaseStudies"), ["--delay-scale", "0"] + arguments, input: input, seconds: 30)
}

/// The answers of a piped run: the first frame, then each command's echo and what followed.
func answers(_ text: String) -> [String] { text.components(separatedBy: "casestudies> ") }

@Suite("CaseStudies, --state FILE", .serialized, .timeLimit(.minutes(3)))
struct StateFileTests {
    @Test("a second run with the same file starts with the wallet's credits and the counter's units and tens")
    func reopens() async throws {
        try await withTemporaryFolder { folder in
            let file = folder + "/casestudies.sqlite"
            let counter = "open counter\n" + String(repeating: "+\n", count: 12) + "-\nback\n"
            let first = try await runCaseStudies(
                ["--state", file],
                input: "open wallet\nadd 12.5\nslide 30\nadd-slider\nremove 0.25\nback\n" + counter + "quit\n"
            )
            #expect(first.status == 0, "\(first.text)")
            #expect(first.text.contains("credits: $42.25"))
            let lastCounter = answers(first.text).last { $0.hasPrefix("-\n") } ?? ""
            #expect(lastCounter.contains("Units: 11") && lastCounter.contains("Tens: 1"), "\(lastCounter)")

            let second = try await runCaseStudies(["--state", file], input: "open wallet\nback\nopen counter\n+\n")
            #expect(second.status == 0, "\(second.text)")
            let reopened = answers(second.text)
            #expect(reopened.count == 5)
            guard reopened.count == 5 else { return }
            #expect(reopened[1].components(separatedBy: "credits: $42.25").count == 4, "\(reopened[1])")
            // The counter's first frame is the one the first run left it with (plain text:
            // the colour of the last change is not shown).
            #expect(reopened[3] == "open counter\n" + lastCounter.dropFirst("-\n".count))
            #expect(reopened[4].contains("Units: 12") && reopened[4].contains("Tens: 1"))
        }
    }

    @Test("on a terminal: the counter's changes are kept, and a later piped run starts with them")
    func terminal() async throws {
        try await withTemporaryFolder { folder in
            let file = folder + "/casestudies.sqlite"
            let app = try ProcessDriver(
                executable("CaseStudies"),
                arguments: ["--delay-scale", "0", "--state", file],
                terminal: true
            )
            defer { app.terminate() }
            await within("the prompt") { await app.waitFor("casestudies> ") }
            app.write("open counter\r")
            await within("the counter") { await app.waitFor("Units: 0") }
            for units in 1...10 {
                app.write("+\r")
                await within("units \(units)") { await app.waitFor("Units: \(units)\r\n") }
            }
            await within("the tens") { await app.waitFor("Tens: 1") }
            app.write("quit\r")
            #expect(await within("exit") { await app.exitStatus() } == 0, "\(app.text)")

            let piped = try await runCaseStudies(["--state", file], input: "open counter\n")
            #expect(answers(piped.text).last?.contains("Units: 10") == true, "\(piped.text)")
            #expect(answers(piped.text).last?.contains("Tens: 1") == true)
        }
    }

    @Test("a run killed with SIGKILL after a command's frame showed restarts with that wallet")
    func killed() async throws {
        try await withTemporaryFolder { folder in
            let file = folder + "/casestudies.sqlite"
            let app = try SpawnedApp(executable("CaseStudies"), arguments: ["--delay-scale", "0", "--state", file])
            await within("the home screen") { await app.waitFor("Commands: open") }
            app.write("open wallet\nadd 7.77\n")
            // The frame is printed after the credits were committed.
            await within("the credits' frame") { await app.waitFor("credits: $7.77") }
            app.kill()
            let status = await within("the kill") { await app.exitStatus() }
            #expect(status == 128 + SIGKILL)

            let restarted = try await runCaseStudies(["--state", file], input: "open wallet\n")
            #expect(restarted.status == 0, "\(restarted.text)")
            #expect(answers(restarted.text).last?.contains("credits: $7.77") == true, "\(restarted.text)")
        }
    }

    @Test("a file that is not a store is refused with exit status 1, naming it, and left as it was")
    func badFile() async throws {
        try await withTemporaryFolder { folder in
            let notAStore = folder + "/notes.txt"
            let contents = "not a database, and long enough to be read as one............\n"
            try Data(contents.utf8).write(to: URL(fileURLWithPath: notAStore))
            let refused = try await runCaseStudies(["--state", notAStore], input: "quit\n")
            #expect(refused.status == 1)
            #expect(
                refused.text.hasPrefix(
                    "CaseStudies: cannot keep the state in '\(notAStore)': \(notAStore) is not a valid store"
                ),
                "\(refused.text)"
            )
            #expect(!refused.text.contains("== CaseStudies =="))
            #expect(try String(contentsOfFile: notAStore, encoding: .utf8) == contents)
            let twice = try await runCaseStudies(["--state", notAStore, "--state", notAStore], input: "quit\n")
            #expect(twice.status == 2)
            #expect(twice.text.hasPrefix("CaseStudies: one --state at most"))
        }
    }
}
