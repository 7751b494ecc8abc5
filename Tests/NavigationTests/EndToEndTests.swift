import Foundation
import TestSupport
import Testing

/// Runs the built Navigation with `input` piped in; see `runPiped`.
func runNavigation(
    _ arguments: [String],
    input: String = "quit\n",
    seconds: Double = 30
) async throws -> (status: Int32, text: String) {
    try await runPiped(executable("Navigation"), arguments, input: input, seconds: seconds)
}

@Suite("Navigation, end to end", .serialized, .timeLimit(.minutes(3)))
struct EndToEndTests {
    static let fast = ["--delay-scale", "0.01", "--seed", "7"]

    @Test(
        "every documented deep link starts on its screen with its data, then 'quit' exits 0",
        arguments: [
            ("poc://profile", ["Tabs:  Checkin   Music  [Profile]", "Path: Profile", "  Profile"]),
            (
                "poc://music",
                ["Tabs:  Checkin  [Music]  Profile", "Path: Albums\n", "2.  Nevermind (Nirvana - 6 songs)"]
            ),
            ("poc://checkin", ["Tabs: [Checkin]  Music   Profile", "Path: Places\n", "  1.  "]),
            (
                "poc://checkin/place/3",
                ["Path: Places > Le Lab\n", "Name:        Le Lab", "Phone:       (514) 345 123 5432"]
            ),
            (
                "poc://checkin/place/3/owner/5",
                ["Path: Places > Le Lab > George Takei\n", "Name:    George Takei", "Age:"]
            ),
            (
                "poc://music/album/1",
                ["Path: Albums > Nevermind\n", "Producer: Butch Vig", "1.  Smells Like Teen Spirit"]
            ),
            (
                "poc://music/album/1/song/5",
                ["Path: Albums > Nevermind > [Beyond This Life]", "Author:   Dream Theater", "Duration: 11:22"]
            ),
            ("checkin/place/3", ["Path: Places > Le Lab\n", "Name:        Le Lab"]),
            (
                "poc://music/album/3",
                ["Path: Albums > Album 3\n", "Not found: Album 3 not found.", "'back' returns to Albums."]
            ),
            ("poc://checkin/place/42", ["Path: Places > Place 42\n", "Not found: Place 42 not found."]),
        ]
    )
    func deepLink(link: String, expected: [String]) async throws {
        let (status, text) = try await runNavigation(Self.fast + [link])
        #expect(status == 0)
        // The first frame is the linked screen, loaded: no loading frame before it.
        let firstFrame = text.components(separatedBy: "navigation> ").first ?? ""
        for line in expected { #expect(firstFrame.contains(line), "\(link): no '\(line)' in\n\(firstFrame)") }
        #expect(!firstFrame.contains("loading"))
        #expect(text.hasSuffix("navigation> quit\n"))
        #expect(!text.contains("\u{1B}["), "escape sequences in plain output")
    }

    @Test(
        "bad links exit with status 2 and list the valid shapes",
        arguments: [
            ("http://music", "unknown scheme 'http'"), ("poc://shop", "unknown section 'shop'"),
            ("poc://checkin/place", "unknown path '/place' for 'checkin'"),
            ("poc://music/album/1/song", "unknown path '/album/1/song' for 'music'"),
            ("poc://profile/me", "unknown path '/me' for 'profile'"),
        ]
    )
    func badLink(link: String, reason: String) async throws {
        let (status, text) = try await runNavigation(Self.fast + [link])
        #expect(status == 2)
        #expect(text.hasPrefix("Navigation: bad deep link: \(reason)"))
        #expect(
            text.contains(
                "valid links: poc://checkin, poc://checkin/place/<id>, poc://checkin/place/<id>/owner/<id>, poc://music, poc://music/album/<id>, poc://music/album/<id>/song/<id>, poc://profile"
            )
        )
        #expect(text.contains("usage: Navigation"))
        #expect(!text.contains("== Navigation =="))
    }

    @Test("a bad option exits with status 2 and the usage", arguments: ["soon", "1e300", "-1", "inf"])
    func badOption(scale: String) async throws {
        let (status, text) = try await runNavigation(["--delay-scale", scale])
        #expect(status == 2)
        #expect(text.contains("--delay-scale must be a number from 0 to 1000, not '\(scale)'"))
    }

    @Test(
        "extra arguments are refused with exit status 2, naming the extra one",
        arguments: [["poc://music", "b"], ["a", "b"], ["poc://music", "poc://profile"]]
    )
    func extraArguments(arguments: [String]) async throws {
        let (status, text) = try await runNavigation(Self.fast + arguments)
        #expect(status == 2)
        #expect(text.hasPrefix("Navigation: "))
        #expect(text.contains("usage: Navigation"))
        #expect(!text.contains("== Navigation =="))
    }

    @Test("a 3,000-digit album id is cut with '...' in the path and the message, never printed whole")
    func longAlbumId() async throws {
        let id = String(repeating: "1", count: 3_000)
        let (status, text) = try await runNavigation(Self.fast + ["poc://music/album/\(id)"])
        #expect(status == 0)
        #expect(text.contains("Path: Albums > Album \(String(repeating: "1", count: 40))...\n"))
        #expect(text.contains("Not found: Album \(String(repeating: "1", count: 74))...\n"), "\(text.prefix(600))")
        #expect(!text.contains(String(repeating: "1", count: 100)))
    }

    @Test("the lists say that 'select' counts from 1 while a link names an item by its id")
    func numbersAndIds() async throws {
        let (status, text) = try await runNavigation(
            Self.fast + ["poc://music"],
            input: "select\nselect 9\ntab checkin\n"
        )
        #expect(status == 0)
        #expect(
            text.contains(
                "  'select N' opens number N of this list; a deep link names an item by its id: number 1 is poc://music/album/0"
            )
        )
        #expect(text.contains("navigation> select\n'select' needs a number from 1 to 3, the list's numbers.\n"))
        #expect(text.contains("The 'select' number must be a whole number from 1 to 3, not '9'."))
        #expect(text.contains("number 1 is poc://checkin/place/"))
        #expect(!text.contains(" 3.."), "a message ends with a double period")
    }

    @Test("piped: two runs of the same input print the same bytes, dump without wall-clock times")
    func pipedRunsAreIdentical() async throws {
        let input =
            "dump\nselect 2\nowner\ndump\ntab music\nselect 1\nsong 3\ndump\nclose\nback\nrefresh\ntab profile\ndump\n"
        let first = try await runNavigation(Self.fast, input: input)
        let second = try await runNavigation(Self.fast, input: input)
        #expect(first.status == 0 && second.status == 0)
        #expect(first.text == second.text)
        #expect(first.text.contains("----------------- DUMP -----------------\n["))
        #expect(!first.text.contains(" at 20"), "a dump line carries a wall-clock time")
    }

    @Test("a piped session: commands are echoed, each frame follows its command, exit 0 at the end of input")
    func pipedSession() async throws {
        let (status, text) = try await runNavigation(
            Self.fast + ["poc://music/album/1"],
            input: "song 5\nclose\nback\nopen checkin/place/3\nowner\n"
        )
        #expect(status == 0)
        let answers = text.components(separatedBy: "navigation> ")
        #expect(answers.count == 6)
        guard answers.count == 6 else { return }
        #expect(answers[1].hasPrefix("song 5\n") && answers[1].contains("Duration: 4:17"))
        #expect(answers[2].hasPrefix("close\n") && answers[2].contains("Path: Albums > Nevermind\n"))
        #expect(answers[3].hasPrefix("back\n") && answers[3].contains("Path: Albums\n"))
        #expect(answers[4].hasPrefix("open checkin/place/3\n") && answers[4].contains("Name:        Le Lab"))
        #expect(answers[5].hasPrefix("owner\n") && answers[5].contains("Path: Places > Le Lab > "))
        #expect(answers[5].contains("Age:"))
    }

    @Test("on a terminal: the link's screen, a command, Tab completion, and quit exits cleanly")
    func terminal() async throws {
        let app = try ProcessDriver(
            executable("Navigation"),
            arguments: Self.fast + ["poc://music/album/1"],
            terminal: true
        )
        defer { app.terminate() }
        let killer = Task {
            try? await Task.sleep(for: .seconds(60))
            if !Task.isCancelled { app.terminate() }
        }
        defer { killer.cancel() }
        await within("the album") { await app.waitFor("Producer: Butch Vig") }
        await within("the prompt") { await app.waitFor("navigation> ") }
        app.write("so\t")  // Tab completes the only command starting with "so"
        await within("completion of 'so'") { await app.waitFor("song ") }
        app.write("2\r")
        await within("the sheet") { await app.waitFor("Duration: 4:14") }
        app.write("close\r")
        // The first frame showed this path too: wait for the second.
        await within("the sheet closed") { await app.waitFor("Path: Albums > Nevermind\r\n", times: 2) }
        // Tab completes arguments too: a tab's name, and a link up to where links differ.
        // Without the completion, `tab pro` and `open poc://ch` would be refused.
        app.write("tab pro\t\r")
        await within("the Profile tab, completed") { await app.waitFor("Tabs:  Checkin   Music  [Profile]") }
        app.write("open poc://ch\t\r")
        await within("the Checkin tab, completed") { await app.waitFor("Tabs: [Checkin]  Music   Profile") }
        // `quit` rather than Ctrl-D: an end of file typed while readline is between two
        // lines (a command still runs) can be lost by the terminal, a line cannot.
        app.write("quit\r")
        let status = await within("exit") { await app.exitStatus() }
        #expect(status == 0, "output:\n\(app.text)")
    }
}
