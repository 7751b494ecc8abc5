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
        await app.type("open poc://checkin/place/3/owner/5", expecting: "Path: Places > Place 3 > George Takei", "Age:")
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
            "'back' returns to Place 3."
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
        #expect(await app.outputOf("select 0").contains { $0.hasPrefix("'select' needs a number from 1 to ") })
        #expect(await app.outputOf("song 1").contains { $0.hasPrefix("Unknown command 'song'.") })
        #expect(await app.outputOf("close").contains { $0.hasPrefix("Unknown command 'close'.") })
        #expect(app.frames.last?.contains("Path: Places\n") == true)
        #expect(await app.finish() == 0)
    }

    @Test("refresh waits for the load (sendAndWait), showing that it refreshes meanwhile")
    func refresh() async {
        let app = AppDriver(link: "poc://music", delayScale: 0.05)
        await app.waitForFrame(containing: ["Path: Albums", "1.  Scenes from a memory"])
        let output = await app.outputOf("refresh")
        let frames = output.filter { $0.hasPrefix("== ") }
        #expect(frames.contains { $0.contains("Albums (refreshing...)") })
        #expect(frames.last.map { !$0.contains("refreshing") && $0.contains("1.  Scenes from a memory") } == true)
        #expect(await app.finish() == 0)
    }

    @Test("tabs keep their stacks; a sheet blocks the tab bar")
    func tabs() async {
        let app = AppDriver()
        await app.waitForFrame(containing: ["Path: Places", "  1.  "])
        await app.type("select 1", expecting: "('owner' shows them)")
        await app.type("tab music", expecting: "[Music]", "Path: Albums\n", "1.  Scenes from a memory")
        await app.type("select 3", expecting: "Path: Albums > Tron: Legacy\n")
        await app.type("song 2", expecting: "[The Grid]", "Duration: 1:37")
        #expect(await app.outputOf("tab checkin").contains("'tab' is not available now (the state does not allow it)."))
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
    }

    @Test(
        "bad arguments are usage errors naming what is wrong",
        arguments: [
            (["--delay-scale", "soon"], "--delay-scale needs a number >= 0"),
            (["--seed", "-1"], "--seed needs a whole number"),
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
