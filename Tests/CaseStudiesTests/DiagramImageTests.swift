import CaseStudiesFeatures
import Foundation
import Terminal
import TestSupport
import Testing

/// `diagram svg|png PATH`: the case study's machine as a picture, rendered by Graphviz.
@Suite("CaseStudies, diagram images", .timeLimit(.minutes(1)))
@MainActor
struct DiagramImageTests {
    nonisolated static let lastEntry = ScriptedTests.lastEntry

    @Test("diagram png and svg write real images: the player's names every state, the elevator's every explored one")
    func images() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "casestudies-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = AppDriver()
        await app.waitForFrame("the home screen") { $0.contains(Self.lastEntry) }

        await app.type("open player", expecting: "Active configuration")
        let png = directory.appendingPathComponent("player.png").path
        await app.type("diagram png \(png)", expecting: "Wrote the png diagram to \(png) (")
        let pngBytes = Array(try Data(contentsOf: URL(fileURLWithPath: png)))
        let size = try #require(ImageChecks.pngSize(pngBytes))
        #expect(size.width > 100 && size.height > 100)
        let svg = directory.appendingPathComponent("player.svg").path
        // The extension names the format.
        await app.type("diagram \(svg)", expecting: "Wrote the svg diagram to \(svg) (")
        let player = try makePlayer()
        #expect(
            ImageChecks.statesMissing(from: Array(try Data(contentsOf: URL(fileURLWithPath: svg))), player.states) == []
        )
        await app.type("back", expecting: Self.lastEntry)

        await app.type("open elevator", expecting: "Persons: 0")
        let elevator = directory.appendingPathComponent("elevator.svg").path
        await app.type("diagram svg \(elevator)", expecting: "Wrote the svg diagram to \(elevator) (")
        let states =
            (0...5).flatMap { ["ElevatorIsOpen (persons: \($0))", "ElevatorIsClosed (persons: \($0))"] }
            + ["ElevatorIsInWarning (persons: 6)", "ElevatorIsInWarning (persons: 7)"]
        #expect(
            ImageChecks.statesMissing(from: Array(try Data(contentsOf: URL(fileURLWithPath: elevator))), states) == []
        )

        // The same mapping from extension to format as `statechart diagram -o PATH`.
        let graphviz = directory.appendingPathComponent("elevator.gv").path
        await app.type("diagram \(graphviz)", expecting: "Wrote the dot diagram to \(graphviz) (")
        #expect(try String(contentsOfFile: graphviz, encoding: .utf8).hasPrefix("digraph "))
        let mermaid = directory.appendingPathComponent("elevator.MMD").path
        await app.type("diagram \(mermaid)", expecting: "Wrote the mermaid diagram to \(mermaid) (")
        #expect(try String(contentsOfFile: mermaid, encoding: .utf8).hasPrefix("stateDiagram-v2"))
        // An extension that names no format is refused: no text in a file named like a picture.
        let jpeg = directory.appendingPathComponent("elevator.jpg").path
        await app.type(
            "diagram \(jpeg)",
            expecting:
                "Usage: diagram [mermaid|dot|svg|png] [PATH]: cannot tell the format of '\(ParsedCommand.shortened(jpeg))' from its extension (.svg, .png, .dot, .gv or .mmd); name it: diagram dot"
        )
        #expect(!FileManager.default.fileExists(atPath: jpeg))

        let unwritable = directory.appendingPathComponent("missing/folder/e.png").path
        await app.type("diagram png \(unwritable)", expecting: "\(unwritable) could not be written")
        #expect(await app.finish() == 0)
    }
}
