import Foundation
import TestSupport
import Testing

/// Every picture of the DocC catalogs is its DOT file, rendered: the SVG beside a `.dot`
/// shows the same texts (states, labels) as Graphviz draws from that DOT now. With the
/// tests that compare each DOT with its machine (`DocPictureTests` of CaseStudiesTests and
/// StatechartToolTests), a picture cannot drift from its machine.
@Suite("The docs' pictures")
struct DocPictureTests {
    /// Every `Resources/*.svg` of a catalog, with its `.dot`.
    static var pictures: [URL] {
        let modules = Readme.root.appendingPathComponent("Modules")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: modules.path)) ?? []
        return names.sorted().flatMap { module -> [URL] in
            let resources = modules.appendingPathComponent("\(module)/\(module).docc/Resources")
            let files = (try? FileManager.default.contentsOfDirectory(atPath: resources.path)) ?? []
            return files.filter { $0.hasSuffix(".svg") }.sorted().map { resources.appendingPathComponent($0) }
        }
    }

    @Test("the five sample machines have pictures, each beside the DOT it was drawn from")
    func present() {
        #expect(
            Self.pictures.map(\.lastPathComponent) == [
                "elevator.svg", "nested.svg", "player.svg", "player-scxml.svg", "turnstile.svg",
            ]
        )
        for picture in Self.pictures {
            let dot = picture.deletingPathExtension().appendingPathExtension("dot")
            #expect(
                FileManager.default.fileExists(atPath: dot.path),
                "\(picture.lastPathComponent) has no \(dot.lastPathComponent)"
            )
        }
    }

    @Test("each picture shows what Graphviz draws from its DOT", arguments: Self.pictures)
    func rendered(picture: URL) async throws {
        let dot = picture.deletingPathExtension().appendingPathExtension("dot")
        let (status, svg) = try await runPiped(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["dot", "-Tsvg", dot.path],
            input: "",
            seconds: 60
        )
        #expect(status == 0, "dot -Tsvg \(dot.path): \(svg)")
        let expected = try #require(ImageChecks.svgTexts(Array(svg.utf8)))
        let checkedIn = try #require(ImageChecks.svgTexts(Array(try Data(contentsOf: picture))))
        #expect(
            checkedIn.sorted() == expected.sorted(),
            "\(picture.lastPathComponent) is not its DOT rendered: run scripts/diagrams"
        )
        #expect(!expected.isEmpty)
    }
}
