// swift-format-ignore-file
// The export's example in StateMachineSCXML's "Charts as Swift" article, verbatim and
// compiled with this test target (ReadmeCodeTests checks that the article's swift blocks
// appear in a compiled file); the test below runs it and checks that the article's
// exported document is what the export writes.
import Foundation
import StateMachineHierarchy
import StateMachineSCXML
import Testing

/// The lamp the article exports; `hasPower` and `light` stand for the program's own code.
func exportedLamp(hasPower: @escaping @Sendable () -> Bool, light: @escaping @Sendable (Bool) -> Void) throws -> String {
    typealias Lamp = Statechart<String, String, Never>
    let lamp = Lamp.Definition(name: "lamp") {
        Lamp.State("off")
            .on("switch", to: "on", guard: { _ in hasPower() }, guardName: "hasPower")
        Lamp.State("on")
            .onEnter(named: "lightUp") { _ in light(true) }
            .onExit(named: "darken") { _ in light(false) }
            .after(.seconds(600), to: "off")
            .on("switch", to: "off")
    }
    let text = try SCXMLDocument.export(lamp)
    return text
}

@Suite("Charts as Swift: the export's example")
struct ExportSnippetTests {
    @Test("the article's exported document is what the export writes for the lamp")
    func articleDocument() throws {
        let text = try exportedLamp(hasPower: { true }, light: { _ in })
        let article = try Readme(path: "Modules/StateMachineSCXML/StateMachineSCXML.docc/ChartsAsSwift.md")
        let block = try #require(article.blocks.first { $0.language == "xml" && $0.lines.first == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>" })
        #expect(block.lines.joined(separator: "\n") + "\n" == text)
    }
}
