import Foundation
import Testing

/// The pictures of the case studies in the DocC catalogs are their machines of today:
/// `scripts/diagrams` wrote each DOT file with `diagram dot PATH`, as this test does now.
@Suite("CaseStudies, the docs' pictures", .timeLimit(.minutes(1)))
@MainActor
struct DocPictureTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test(
        "the elevator's, the turnstile's and the player's pictures are drawn from their machines as they are",
        arguments: [
            ("elevator", "StateMachineGraph"), ("turnstile", "StateMachineTable"), ("player", "StateMachineHierarchy"),
        ]
    )
    func pictures(caseStudy: String, module: String) async throws {
        let resources = Self.root.appendingPathComponent("Modules/\(module)/\(module).docc/Resources")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pictures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = AppDriver()
        await app.waitForFrame("the home screen") { $0.contains(DiagramImageTests.lastEntry) }
        await app.type("open \(caseStudy)", expecting: "== CaseStudies > ")
        let dot = directory.appendingPathComponent("\(caseStudy).dot").path
        await app.type("diagram dot \(dot)", expecting: "Wrote the dot diagram to \(dot)")
        #expect(await app.finish() == 0)
        let today = try String(contentsOfFile: dot, encoding: .utf8)
        let checkedIn = try String(
            contentsOf: resources.appendingPathComponent("\(caseStudy).dot"),
            encoding: .utf8
        )
        #expect(
            today == checkedIn,
            "\(module).docc/Resources/\(caseStudy).svg no longer shows its machine: run scripts/diagrams"
        )
    }
}
