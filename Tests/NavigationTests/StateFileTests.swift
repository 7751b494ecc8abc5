import Foundation
import TestSupport
import Testing

/// A folder of its own under the system's temporary folder, removed when `body` returns or throws.
func withTemporaryFolder<T>(_ body: (String) async throws -> T) async throws -> T {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("navigation-state-\(UUID().uuidString)", isDirectory: true).path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    return try await body(folder)
}

/// The answers of a piped run: the first frame, then each command's echo and what followed.
func answers(_ text: String) -> [String] { text.components(separatedBy: "navigation> ") }

@Suite("Navigation, --state FILE", .serialized, .timeLimit(.minutes(3)))
struct StateFileTests {
    static let fast = EndToEndTests.fast

    @Test("a second run with the same file starts where the first one quit: tab, both stacks and the sheet")
    func reopens() async throws {
        try await withTemporaryFolder { folder in
            let file = folder + "/navigation.sqlite"
            let first = try await runNavigation(
                Self.fast + ["--state", file],
                input: "select 2\nowner\ntab music\nselect 2\nsong 5\nquit\n"
            )
            #expect(first.status == 0, "\(first.text)")
            let firstAnswers = answers(first.text)
            #expect(firstAnswers.count == 7)
            guard firstAnswers.count == 7 else { return }
            let owner = firstAnswers[2]
            #expect(owner.hasPrefix("owner\n") && owner.contains("Age:"))
            let sheet = firstAnswers[5]
            #expect(sheet.hasPrefix("song 5\n") && sheet.contains("Path: Albums > Nevermind > [Lithium]"))
            let lastFrame = String(sheet.dropFirst("song 5\n".count))

            let second = try await runNavigation(Self.fast + ["--state", file], input: "close\ntab checkin\n")
            #expect(second.status == 0, "\(second.text)")
            let secondAnswers = answers(second.text)
            #expect(secondAnswers.count == 3)
            guard secondAnswers.count == 3 else { return }
            // The first frame is the screen the first run quit on, loaded: the sheet over the album.
            #expect(secondAnswers[0] == lastFrame)
            #expect(secondAnswers[1].contains("Path: Albums > Nevermind\n"))
            // The Checkin stack came back too: the place, and its owner on top.
            let path = { (answer: String) in answer.split(separator: "\n").first { $0.hasPrefix("Path: ") } }
            #expect(secondAnswers[2].contains("Tabs: [Checkin]  Music   Profile"))
            #expect(path(secondAnswers[2]) != nil && path(secondAnswers[2]) == path(owner))
            #expect(secondAnswers[2].contains("Age:"))
        }
    }

    @Test("a deep link wins over the file, and is kept from then on")
    func deepLinkWins() async throws {
        try await withTemporaryFolder { folder in
            let file = folder + "/navigation.sqlite"
            let first = try await runNavigation(Self.fast + ["--state", file, "poc://music/album/1/song/5"])
            #expect(first.status == 0)
            let linked = try await runNavigation(Self.fast + ["--state", file, "poc://profile"])
            #expect(answers(linked.text).first?.contains("Tabs:  Checkin   Music  [Profile]") == true)
            let reopened = try await runNavigation(Self.fast + ["--state", file])
            let frame = answers(reopened.text).first ?? ""
            #expect(frame.contains("Tabs:  Checkin   Music  [Profile]"), "\(frame)")
            // The link reset the Music stack: its tab shows the Albums list.
            let music = try await runNavigation(Self.fast + ["--state", file], input: "tab music\n")
            #expect(answers(music.text).last?.contains("Path: Albums\n") == true, "\(music.text)")
        }
    }

    @Test("a run killed with SIGKILL after a command's frame showed restarts on that screen")
    func killed() async throws {
        try await withTemporaryFolder { folder in
            let file = folder + "/navigation.sqlite"
            let app = try SpawnedApp(executable("Navigation"), arguments: Self.fast + ["--state", file])
            // Piped, the prompt is echoed with each line read: the first frame ends with its commands.
            await within("the first frame") { await app.waitFor("Commands: ") }
            app.write("open music/album/1/song/5\n")
            // The sheet's frame is printed after its location was committed.
            await within("the sheet's frame") { await app.waitFor("Duration: 11:22") }
            app.kill()
            let status = await within("the kill") { await app.exitStatus() }
            #expect(status == 128 + SIGKILL)
            #expect(!app.text.contains("navigation> quit"))

            let restarted = try await runNavigation(Self.fast + ["--state", file])
            #expect(restarted.status == 0, "\(restarted.text)")
            let frame = answers(restarted.text).first ?? ""
            #expect(frame.contains("Path: Albums > Nevermind > [Beyond This Life]"), "\(frame)")
            #expect(frame.contains("Duration: 11:22"))
        }
    }

    @Test("a file that is not a store, or a path that cannot be one, is refused with exit status 1, naming it")
    func badFile() async throws {
        try await withTemporaryFolder { folder in
            let notAStore = folder + "/notes.txt"
            try Data("not a database, and long enough to be read as one............\n".utf8)
                .write(to: URL(fileURLWithPath: notAStore))
            let refused = try await runNavigation(Self.fast + ["--state", notAStore])
            #expect(refused.status == 1)
            #expect(
                refused.text.hasPrefix(
                    "Navigation: cannot keep the state in '\(notAStore)': \(notAStore) is not a valid store"
                ),
                "\(refused.text)"
            )
            #expect(!refused.text.contains("== Navigation =="))
            let untouched = try String(contentsOfFile: notAStore, encoding: .utf8)
            #expect(untouched.hasPrefix("not a database"))

            let missingFolder = folder + "/missing/navigation.sqlite"
            let unopenable = try await runNavigation(Self.fast + ["--state", missingFolder])
            #expect(unopenable.status == 1)
            #expect(unopenable.text.hasPrefix("Navigation: cannot keep the state in '\(missingFolder)': "))
            #expect(!FileManager.default.fileExists(atPath: missingFolder))

            let noFile = try await runNavigation(Self.fast + ["--state"])
            #expect(noFile.status == 2)
            #expect(noFile.text.hasPrefix("Navigation: --state needs a file"))
            #expect(noFile.text.contains("usage: Navigation"))
        }
    }
}
