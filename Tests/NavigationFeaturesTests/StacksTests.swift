import NavigationFeatures
import StateMachineCore
import StateMachineTest
import TestSupport
import Testing

@Suite("Navigation: deep links, the tab bar and the stacks", .timeLimit(.minutes(1)))
struct StacksTests {
    @Test(
        "a link's text reads as scheme, host and segments; the scheme is optional",
        arguments: [
            ("poc://checkin/place/3/owner/5", DeepLink(host: "checkin", segments: ["place", "3", "owner", "5"])),
            ("checkin/place/3", DeepLink(host: "checkin", segments: ["place", "3"])),
            ("POC://Music/", DeepLink(host: "music")),
            ("http://music/album/1", DeepLink(scheme: "http", host: "music", segments: ["album", "1"])),
        ]
    )
    func parsing(text: String, link: DeepLink) {
        #expect(DeepLink(text) == link)
    }

    @Test("text without a host is not a link", arguments: ["", "poc://", "///", "://music"])
    func notALink(text: String) {
        #expect(DeepLink(text) == nil)
    }

    @Test("white space around the parts is dropped, so a valid link reads back from its description")
    func whiteSpaceAroundParts() throws {
        let link = try DeepLink.validated("\tcheckin//place///4\t\t/\t ").get()
        #expect(link == DeepLink(host: "checkin", segments: ["place", "4"]))
        #expect(DeepLink(link.description) == link)
        #expect(DeepLink("poc://music/ album /2") == DeepLink(host: "music", segments: ["album", "2"]))
    }

    @Test(
        "the documented shapes are valid",
        arguments: [
            "poc://checkin", "poc://checkin/place/3", "poc://checkin/place/3/owner/5", "poc://music",
            "poc://music/album/1", "poc://music/album/1/song/5", "poc://profile", "checkin/place/42", "music/album/3",
        ]
    )
    func validShapes(text: String) throws {
        let link = try DeepLink.validated(text).get()
        #expect(link == DeepLink(text))
    }

    @Test(
        "other shapes are refused with the reason and the valid shapes",
        arguments: [
            ("http://music", "unknown scheme 'http'"), ("poc://shop", "unknown section 'shop'"),
            ("poc://checkin/place", "unknown path '/place'"), ("poc://checkin/album/3", "unknown path '/album/3'"),
            ("poc://music/album/1/song", "unknown path"), ("poc://music/album/1/owner/2", "unknown path"),
            ("poc://profile/3", "unknown path"), ("poc://checkin/place/3/owner/5/x/y", "unknown path"),
            ("", "is not a link"),
        ]
    )
    func invalidShapes(text: String, reason: String) {
        guard case .failure(let error) = DeepLink.validated(text) else {
            Issue.record("'\(text)' was accepted")
            return
        }
        #expect(error.description.contains(reason))
        #expect(error.description.contains("poc://music/album/<id>/song/<id>"))
    }

    @Test("Home: starts on Checkin, follows tab selections and poc links; other schemes change nothing")
    func home() async {
        let machine = AsyncStateMachine(stateMachine: makeHomeStateMachine()).disableLog()
        await expect(asyncStateMachine: machine) { assertions in
            await assertions.assert(state: HomeState(section: .checkin))
            assertions.send(DidSelectSection(section: .music))
            await assertions.assert(state: HomeState(section: .music))
            assertions.send(DidReceiveDeepLink<HomeEvent>(link: DeepLink("poc://profile")!))
            await assertions.assert(state: HomeState(section: .profile))
            assertions.send(DidReceiveDeepLink<HomeEvent>(link: DeepLink("http://music")!))
            await assertions.assertNoTransition(timeout: .milliseconds(50))
            assertions.send(DidReceiveDeepLink<HomeEvent>(link: DeepLink("poc://shop")!))
            await assertions.assert(state: HomeState(section: .checkin))
            assertions.send(DidReceiveDeepLink<HomeEvent>(link: DeepLink("poc://music/album/1/song/5")!))
            await assertions.assert(state: HomeState(section: .music))
        }
    }

    @Test(
        "Checkin: the routes a link gives (valid, wrong host, wrong scheme, wrong segment counts)",
        arguments: [
            ("poc://checkin", [CheckinRoute]()), ("poc://checkin/place/3", [.place(id: "3")]),
            ("poc://checkin/place/3/owner/5", [.place(id: "3"), .owner(id: "5")]),
            ("poc://checkin/x/3/y/5", [.place(id: "3"), .owner(id: "5")]),  // only the counts matter
            ("poc://checkin/place", []), ("poc://checkin/place/3/owner", []), ("poc://checkin/a/b/c/d/e/f", []),
            ("poc://music/place/3", []), ("http://checkin/place/3", []), ("poc://profile", []),
        ]
    )
    func checkinLinks(text: String, routes: [CheckinRoute]) {
        #expect(checkinRoutes(for: DeepLink(text)!) == routes)
    }

    @Test("Checkin: pushes, resets (the back button) and deep links; any other link resets the routes")
    func checkin() async {
        let machine = AsyncStateMachine(stateMachine: makeCheckinStateMachine()).disableLog()
        await expect(asyncStateMachine: machine) { assertions in
            await assertions.assert(state: CheckinState(routes: []))
            assertions.send(DidRequestAddingCheckinRoutes(routes: .place(id: "3")))
            await assertions.assert(state: CheckinState(routes: [.place(id: "3")]))
            assertions.send(DidRequestAddingCheckinRoutes(routes: .owner(id: "5")))
            await assertions.assert(state: CheckinState(routes: [.place(id: "3"), .owner(id: "5")]))
            assertions.send(DidRequestResettingCheckinRoutes(routes: [.place(id: "3")]))
            await assertions.assert(state: CheckinState(routes: [.place(id: "3")]))
            assertions.send(DidReceiveDeepLink<CheckinEvent>(link: DeepLink("poc://checkin/place/1/owner/2")!))
            await assertions.assert(state: CheckinState(routes: [.place(id: "1"), .owner(id: "2")]))
            assertions.send(DidReceiveDeepLink<CheckinEvent>(link: DeepLink("poc://music/album/1")!))
            await assertions.assert(state: CheckinState(routes: []))
        }
    }

    @Test(
        "Music: the stack and sheet a link gives (valid, wrong host, wrong scheme, wrong segment counts)",
        arguments: [
            ("poc://music", MusicState(routes: [])), ("poc://music/album/3", MusicState(routes: [.album(id: "3")])),
            ("poc://music/album/1/song/5", MusicState(routes: [.album(id: "1")], popup: .song(id: "5"))),
            ("poc://music/album", MusicState(routes: [])), ("poc://music/album/1/song", MusicState(routes: [])),
            ("poc://checkin/album/1", MusicState(routes: [])), ("ftp://music/album/1", MusicState(routes: [])),
        ]
    )
    func musicLinks(text: String, state: MusicState) {
        #expect(musicState(for: DeepLink(text)!) == state)
    }

    @Test("Music: pushes, resets keep the sheet, the sheet opens and closes; any other link resets all")
    func music() async {
        let machine = AsyncStateMachine(stateMachine: makeMusicStateMachine()).disableLog()
        await expect(asyncStateMachine: machine) { assertions in
            await assertions.assert(state: MusicState(routes: []))
            assertions.send(DidRequestAddingMusicRoutes(routes: .album(id: "1")))
            await assertions.assert(state: MusicState(routes: [.album(id: "1")]))
            assertions.send(DidRequestSettingPopup(popup: .song(id: "5")))
            await assertions.assert(state: MusicState(routes: [.album(id: "1")], popup: .song(id: "5")))
            assertions.send(DidRequestResettingMusicRoutes(routes: []))
            await assertions.assert(state: MusicState(routes: [], popup: .song(id: "5")))
            assertions.send(DidRequestResettingPopup())
            await assertions.assert(state: MusicState(routes: []))
            assertions.send(DidReceiveDeepLink<MusicEvent>(link: DeepLink("poc://music/album/2/song/20")!))
            await assertions.assert(state: MusicState(routes: [.album(id: "2")], popup: .song(id: "20")))
            assertions.send(DidReceiveDeepLink<MusicEvent>(link: DeepLink("poc://profile")!))
            await assertions.assert(state: MusicState(routes: []))
        }
    }
}
