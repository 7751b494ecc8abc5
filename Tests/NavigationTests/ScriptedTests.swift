import NavigationFeatures
import NavigationScreens
import Terminal
import TestSupport
import Testing

@Suite("Navigation, scripted in-process sessions", .timeLimit(.minutes(2)))
@MainActor
struct ScriptedTests {
    @Test("Checkin: select a place, its owner, back twice to the list, and no further")
    func checkin() async {
        let app = AppDriver()
        await app.waitForFrame(containing: ["Tabs: [Checkin]  Music   Profile", "Path: Places", "  1.  "])
        let place = await app.type("select 1", expecting: "Phone:       (514) 345 123 5432")
        #expect(place.contains("Path: Places > "))
        #expect(place.contains("('owner' shows them)"))
        let owner = await app.type("owner", expecting: "Age:")
        #expect(owner.contains("Address: Petite Italie"))
        let back = await app.type("back", expecting: "('owner' shows them)")
        #expect(!back.contains("Age:"))
        await app.type("back", expecting: "Path: Places\n")
        let root = await app.outputOf("back")
        #expect(root.contains("Already on the first screen of Checkin; 'quit' leaves the app."))
        #expect(await app.finish() == 0)
    }

    @Test("Music: an album, a song in the sheet, close, the same song again, back closes the sheet then pops")
    func music() async {
        let app = AppDriver(link: "poc://music")
        await app.waitForFrame(containing: ["[Music]", "Path: Albums", "2.  Nevermind (Nirvana - 6 songs)"])
        await app.type("select 2", expecting: "Title:    Nevermind", "Producer: Butch Vig", "5.  Lithium")
        let sheet = await app.type("song 5", expecting: "Title:    Lithium", "Duration: 4:17")
        #expect(sheet.contains("Path: Albums > Nevermind > [Lithium]"))
        #expect(sheet.contains("close"))
        let closed = await app.type("close", expecting: "Path: Albums > Nevermind\n")
        #expect(!closed.contains("Duration:"))
        await app.type("song 5", expecting: "Path: Albums > Nevermind > [Lithium]", "Duration: 4:17")
        await app.type("back", expecting: "Path: Albums > Nevermind\n")
        await app.type("back", expecting: "Path: Albums\n", "1.  Scenes from a memory")
        #expect(await app.finish() == 0)
    }

    @Test("'open' follows every documented link from anywhere")
    func openLinks() async {
        let app = AppDriver()
        await app.waitForFrame(containing: ["Path: Places"])
        await app.type("open poc://checkin/place/3/owner/5", expecting: "Path: Places > Le Lab > George Takei", "Age:")
        await app.type("back", expecting: "Path: Places > Le Lab\n", "Name:        Le Lab")
        await app.type(
            "open poc://music/album/1/song/5",
            expecting: "Path: Albums > Nevermind > [Beyond This Life]",
            "Duration: 11:22"
        )
        let profile = await app.type("open poc://profile", expecting: "Tabs:  Checkin   Music  [Profile]")
        #expect(profile.contains("  Profile"))
        await app.type("open poc://music/album/1", expecting: "Path: Albums > Nevermind\n", "6.  Polly")
        await app.type("open checkin/place/3", expecting: "Path: Places > Le Lab\n", "Name:        Le Lab")
        await app.type("open poc://music", expecting: "Path: Albums\n", "3.  Tron: Legacy")
        await app.type("open poc://checkin", expecting: "Tabs: [Checkin]", "Path: Places\n")
        #expect(await app.finish() == 0)
    }

    @Test("unknown ids show a not-found screen with a way back")
    func notFound() async {
        let app = AppDriver(link: "poc://checkin/place/42")
        await app.waitForFrame(containing: [
            "Path: Places > Place 42", "Not found: Place 42 not found.", "'back' returns to Places.",
        ])
        await app.type("back", expecting: "Path: Places\n", "  1.  ")
        await app.type(
            "open poc://checkin/place/3/owner/77",
            expecting: "Not found: Owner 77 not found.",
            "'back' returns to Le Lab."
        )
        await app.type(
            "open poc://music/album/3",
            expecting: "Not found: Album 3 not found.",
            "'back' returns to Albums."
        )
        await app.type("back", expecting: "Path: Albums\n")
        await app.type("open music/album/1/song/99", expecting: "Song 99 not found.")
        await app.type("close", expecting: "Path: Albums > Nevermind\n", "Songs:")
        #expect(await app.finish() == 0)
    }

    @Test("bad commands and links get one line saying what would work; nothing else changes")
    func badInput() async {
        let app = AppDriver()
        await app.waitForFrame(containing: ["Path: Places", "  1.  "])
        let link = await app.outputOf("open http://music")
        #expect(
            link == [
                "navigation> open http://music",
                "Bad link: unknown scheme 'http' in 'http://music'; valid links: poc://checkin, poc://checkin/place/<id>, poc://checkin/place/<id>/owner/<id>, poc://music, poc://music/album/<id>, poc://music/album/<id>/song/<id>, poc://profile (the poc:// prefix is optional)",
            ]
        )
        #expect(
            await app.outputOf("open poc://music/song/1").contains { $0.contains("unknown path '/song/1' for 'music'") }
        )
        #expect(await app.outputOf("open").contains("'open' needs one link, such as poc://checkin/place/3."))
        #expect(await app.outputOf("tab shop").contains("'tab' needs one of: checkin, music, profile."))
        #expect(
            await app.outputOf("select 0").contains {
                $0.hasPrefix("The 'select' number must be a whole number from 1 to ") && $0.hasSuffix(", not '0'.")
            }
        )
        for huge in ["99999999999999999999", "-9223372036854775808", "9223372036854775807"] {
            #expect(
                await app.outputOf("select \(huge)").contains {
                    $0.hasPrefix("The 'select' number must be a whole number from 1 to ")
                }
            )
        }
        #expect(await app.outputOf("song 1").contains { $0.hasPrefix("Unknown command 'song'.") })
        #expect(await app.outputOf("close").contains { $0.hasPrefix("Unknown command 'close'.") })
        #expect(app.frames.last?.contains("Path: Places\n") == true)
        #expect(await app.finish() == 0)
    }

    @Test("refresh waits for the load (sendAndWait), showing that it refreshes meanwhile")
    func refresh() async {
        // On a terminal, frames follow the machines while the command waits. The test holds
        // the refresh's load until it has seen the list refreshing, so that the frame cannot
        // be folded away by a load that ends first.
        let valve = Valve()
        let app = AppDriver(
            link: "poc://music",
            backend: FakeBackend(seed: 7) { await valve.pass() },
            interactive: true
        )
        await app.waitForFrame(containing: ["Path: Albums", "1.  Scenes from a memory"])
        await valve.close()
        let start = app.console.output.count
        app.console.type("refresh")
        app.console.type("help")
        await app.wait("a frame of the list refreshing", sourceLocation: #_sourceLocation) { output in
            output.dropFirst(start).contains { $0.hasPrefix("== ") && $0.contains("Albums (refreshing...)") }
        }
        // The load is held, so 'refresh' has not returned and 'help' waits its turn.
        #expect(!app.console.output.dropFirst(start).contains { $0.contains("List the commands of this screen") })
        await valve.open()
        await app.wait("the answer to 'help'", sourceLocation: #_sourceLocation) { output in
            output.dropFirst(start).contains { $0.contains("List the commands of this screen") }
        }
        let output = app.console.output.dropFirst(start).prefix { !$0.contains("List the commands of this screen") }
        let frames = output.filter { $0.hasPrefix("== ") }
        #expect(frames.last.map { !$0.contains("refreshing") && $0.contains("1.  Scenes from a memory") } == true)
        #expect(await app.finish() == 0)
    }

    @Test("Tab completes the arguments of 'tab', 'open', 'select' and 'song'")
    func completions() async {
        let app = AppDriver(link: "poc://music/album/1")
        await app.waitForFrame(containing: ["Path: Albums > Nevermind", "6.  Polly"])
        let completions = app.console.lastPrompt?.completions ?? []
        for phrase in ["tab music", "tab profile", "open poc://music", "open poc://music/album/2", "song 6"] {
            #expect(completions.contains(phrase), "\(phrase)")
        }
        await app.type("back", expecting: "Path: Albums\n")
        #expect(app.console.lastPrompt?.completions.contains("select 3") == true)
        #expect(await app.finish() == 0)
    }

    @Test("piped: one frame per command, no loading frames, and the same input prints the same output")
    func deterministic() async {
        let script = [
            "select 1", "owner", "back", "back", "tab music", "select 2", "song 5", "close", "back", "refresh",
            "open poc://checkin/place/3/owner/5", "back", "tab profile",
        ]
        var transcripts: [[String]] = []
        for _ in 0..<2 {
            let app = AppDriver(delayScale: 0)
            for line in script { app.console.type(line) }
            #expect(await app.finish() == 0)
            transcripts.append(app.console.output)
        }
        #expect(transcripts[0] == transcripts[1])
        #expect(!transcripts[0].contains { $0.contains("loading") })
        // The first frame, then each command's echo and at most one frame (none when
        // nothing shown changed).
        let frames = transcripts[0].filter { $0.hasPrefix("== ") }
        #expect(frames.count <= 1 + script.count)
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0 != $1 })
    }

    @Test("tabs keep their stacks; a sheet blocks the tab bar")
    func tabs() async {
        let app = AppDriver()
        await app.waitForFrame(containing: ["Path: Places", "  1.  "])
        await app.type("select 1", expecting: "('owner' shows them)")
        await app.type("tab music", expecting: "[Music]", "Path: Albums\n", "1.  Scenes from a memory")
        await app.type("select 3", expecting: "Path: Albums > Tron: Legacy\n")
        await app.type("song 2", expecting: "[The Grid]", "Duration: 1:37")
        #expect(
            await app.outputOf("tab checkin").contains(
                "'tab' is not available now: it is available once the song sheet is closed ('close' or 'back' first)."
            )
        )
        await app.type("close", expecting: "Path: Albums > Tron: Legacy\n")
        await app.type("tab checkin", expecting: "Tabs: [Checkin]", "('owner' shows them)")
        await app.type("tab profile", expecting: "[Profile]", "Path: Profile")
        await app.type("tab music", expecting: "Path: Albums > Tron: Legacy\n", "Songs:")
        #expect(await app.finish() == 0)
    }

    @Test("dump lists the live machines")
    func dump() async {
        let app = AppDriver(link: "poc://music/album/1")
        await app.waitForFrame(containing: ["Path: Albums > Nevermind"])
        let dump = await app.outputOf("dump")
        #expect(dump.contains { $0.contains("----------------- DUMP -----------------") })
        #expect(await app.finish() == 0)
    }
}

@Suite("Navigation options")
struct OptionsTests {
    @Test("the defaults, each option, and a deep link to start on")
    func options() throws {
        #expect(try NavigationApp.parse([], environment: [:]).get() == NavigationApp.Options())
        let options = try NavigationApp.parse(
            ["--delay-scale", "0.01", "--seed", "7", "--log", "checkin/place/3"],
            environment: [:]
        ).get()
        #expect(
            options
                == NavigationApp.Options(
                    delayScale: 0.01,
                    seed: 7,
                    log: true,
                    link: DeepLink(host: "checkin", segments: ["place", "3"])
                )
        )
        #expect(try NavigationApp.parse([], environment: ["NAVIGATION_DELAY_SCALE": "0.5"]).get().delayScale == 0.5)
        #expect(try NavigationApp.parse(["--help"], environment: [:]).get().help)
        let kept = try NavigationApp.parse(["--state", "nav.sqlite", "poc://profile"], environment: [:]).get()
        #expect(kept == NavigationApp.Options(link: DeepLink(host: "profile"), stateFile: "nav.sqlite"))
    }

    @Test(
        "bad arguments are usage errors naming what is wrong",
        arguments: [
            (["--delay-scale", "soon"], "--delay-scale must be a number from 0 to 1000, not 'soon'"),
            (["--delay-scale", "1e300"], "--delay-scale must be a number from 0 to 1000, not '1e300'"),
            (["--seed", "-1"], "--seed must be a whole number from 0 to 18446744073709551615, not '-1'"),
            (["--seed", "18446744073709551616"], "--seed must be a whole number from 0 to"),
            (["--fast"], "unknown option '--fast'"), (["poc://music", "poc://profile"], "one deep link at most"),
            (["http://music"], "bad deep link: unknown scheme 'http'"), (["poc://shop"], "unknown section 'shop'"),
            (["poc://checkin/place"], "unknown path '/place'"),
        ]
    )
    func badArguments(arguments: [String], message: String) {
        guard case .failure(let error) = NavigationApp.parse(arguments, environment: [:]) else {
            Issue.record("\(arguments) were accepted")
            return
        }
        #expect(error.message.contains(message))
    }
}

/// Holds the backend's answers while closed: a call made then waits until it opens.
private actor Valve {
    private var gate: Gate?

    /// Holds the calls made from now on.
    func close() { gate = Gate() }

    /// Lets every held call through, and later ones at once.
    func open() async {
        await gate?.open()
        gate = nil
    }

    /// Waits while the valve is closed.
    func pass() async {
        await gate?.wait()
    }
}
