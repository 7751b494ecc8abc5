import Foundation
import TestSupport
import Testing

/// Replays the transcripts of the documentation (the README, Apps/README.md and the DocC
/// articles: `Readme.documentPaths`) against the built executables and compares them exactly.
///
/// A `text` block is a transcript when its first line is a command piped into an app
/// (`$ ... | swift run ...`) or when the comment above it starts with `<!-- transcript`.
/// Each `$ ` line is run by `sh` in the repository's root with `swift run NAME [--]` replaced
/// by the built executable, standard error merged into standard output, `NO_COLOR=1` and
/// the apps' delays scaled to 0 (`CASESTUDIES_DELAY_SCALE`, `NAVIGATION_DELAY_SCALE`;
/// an explicit `--delay-scale` still wins); the lines up to the next `$ ` are its output,
/// compared line for line. A line `...` (indented or not) stands for any number of lines,
/// but only in a block whose comment says so: `<!-- transcript: "..." elides lines -->`.
@Suite("README transcripts", .serialized, .timeLimit(.minutes(5)))
struct ReadmeTranscriptTests {
    /// The marker that allows elisions.
    static let elisionMarker = "<!-- transcript: \"...\" elides lines -->"

    /// The transcripts of every document, with the document and line of each.
    static let transcripts: [Readme.Block] = {
        Readme.documents.flatMap(\.blocks).filter { block in
            guard block.language == "text" else { return false }
            if block.marker?.hasPrefix("<!-- transcript") == true { return true }
            guard let first = block.lines.first else { return false }
            return first.hasPrefix("$ ") && first.contains("| swift run ")
        }
    }()

    @Test("the documents have transcripts of both apps and the statechart tool, and the README of one")
    func found() {
        let commands = Self.transcripts.flatMap(\.lines).filter { $0.hasPrefix("$ ") }
        for app in ["CaseStudies", "Navigation", "statechart"] {
            #expect(commands.contains { $0.contains("swift run \(app)") }, "no transcript of \(app)")
        }
        #expect(Self.transcripts.contains { $0.file == "README.md" })
    }

    @Test("every transcript reproduces exactly", arguments: transcripts.map(\.location))
    func replay(location: String) async throws {
        let block = try #require(Self.transcripts.first { $0.location == location })
        let elides = block.marker == Self.elisionMarker
        if let marker = block.marker, !elides, marker != "<!-- transcript -->" {
            Issue.record(
                "\(location): unknown marker \(marker); use <!-- transcript --> or \(Self.elisionMarker)"
            )
        }
        for (command, expected) in Self.commands(in: block.lines) {
            let (_, text) = try await runPiped(
                URL(fileURLWithPath: "/bin/sh"),
                ["-c", Self.shellCommand(command)],
                input: "",
                seconds: 120
            )
            var actual = text.components(separatedBy: "\n")
            if actual.last == "" { actual.removeLast() }
            if !Self.matches(expected[...], actual[...], elides: elides) {
                Issue.record(
                    """
                    \(location): `\(command)` printed something else.
                    --- document ---
                    \(expected.joined(separator: "\n"))
                    --- actual ---
                    \(actual.joined(separator: "\n"))
                    """
                )
            }
        }
    }

    @Test("the matcher: exact lines, and '...' only where elisions are allowed")
    func matcher() {
        #expect(Self.matches(["a", "b"], ["a", "b"], elides: false))
        #expect(!Self.matches(["a", "b"], ["a", "b", "c"], elides: false))
        #expect(!Self.matches(["a", "..."], ["a", "b", "c"], elides: false))
        #expect(Self.matches(["a", "..."], ["a", "b", "c"], elides: true))
        #expect(Self.matches(["a", "  ...", "c"], ["a", "c"], elides: true))
        #expect(Self.matches(["a", "...", "c", "...", "e"], ["a", "b", "c", "d", "e"], elides: true))
        #expect(!Self.matches(["a", "...", "x"], ["a", "b", "c"], elides: true))
    }

    /// The block's commands (`$ ` lines, without the prompt), each with the lines after it.
    static func commands(in lines: [String]) -> [(command: String, expected: [String])] {
        var commands: [(command: String, expected: [String])] = []
        for line in lines {
            if line.hasPrefix("$ ") {
                commands.append((String(line.dropFirst(2)), []))
            } else if !commands.isEmpty {
                commands[commands.count - 1].expected.append(line)
            }
        }
        return commands
    }

    /// `command` for `sh`: `swift run NAME [--]` becomes the built executable, in the
    /// repository's root, with the apps' delays at 0 and standard error merged.
    static func shellCommand(_ command: String) -> String {
        var rewritten = command
        while let range = rewritten.range(of: "swift run ") {
            let rest = rewritten[range.upperBound...]
            let name = rest.prefix { !$0.isWhitespace }
            var after = rest.dropFirst(name.count)
            if after.hasPrefix(" --") && (after.dropFirst(3).first?.isWhitespace ?? true) { after = after.dropFirst(3) }
            rewritten = rewritten[..<range.lowerBound] + quoted(executable(String(name)).path) + after
        }
        return
            "export CASESTUDIES_DELAY_SCALE=0 NAVIGATION_DELAY_SCALE=0; cd \(quoted(Readme.root.path)) && { \(rewritten); } 2>&1"
    }

    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Whether `actual` is `expected`, line for line; with `elides`, a line `...` in
    /// `expected` stands for any number of lines.
    static func matches(_ expected: ArraySlice<String>, _ actual: ArraySlice<String>, elides: Bool) -> Bool {
        guard let first = expected.first else { return actual.isEmpty }
        if elides, first.trimmingCharacters(in: .whitespaces) == "..." {
            let rest = expected.dropFirst()
            return (actual.startIndex...actual.endIndex).contains { matches(rest, actual[$0...], elides: true) }
        }
        guard actual.first == first else { return false }
        return matches(expected.dropFirst(), actual.dropFirst(), elides: elides)
    }
}
