import Foundation
import Testing

/// The library's layout rules: files small enough to read as one concern, and the
/// statechart product free of the XML parser, which only `StateMachineSCXML` links.
@Suite("The library's layout")
struct LayoutTests {
    /// The longest a source file of `Modules/` may be: past it, a file holds more than one
    /// concern and is split the way the engine and the SCXML builder are (`Type+Concern`).
    static let maxLines = 600

    /// Every source file (Swift and C) under `Modules/`, relative to the root.
    static let moduleSources: [String] = {
        let modules = Readme.root.appendingPathComponent("Modules")
        guard let files = FileManager.default.enumerator(at: modules, includingPropertiesForKeys: nil) else {
            return []
        }
        var paths: [String] = []
        for case let file as URL in files where ["swift", "c", "h"].contains(file.pathExtension) {
            paths.append(String(file.path.dropFirst(Readme.root.path.count + 1)))
        }
        return paths.sorted()
    }()

    @Test("no source file of Modules is longer than 600 lines")
    func filesAreSmall() throws {
        #expect(Self.moduleSources.count > 100)
        for path in Self.moduleSources {
            let text = try String(contentsOf: Readme.root.appendingPathComponent(path), encoding: .utf8)
            let lines =
                text.split(separator: "\n", omittingEmptySubsequences: false).count - (text.hasSuffix("\n") ? 1 : 0)
            #expect(lines <= Self.maxLines, "\(path) has \(lines) lines; split it by concern")
        }
    }

    @Test(
        "only StateMachineSCXML imports FoundationXML among the library products",
        arguments: [
            "StateMachineCore", "StateMachineHierarchy", "StateMachineTable", "StateMachineGraph",
            "StateMachineSupport",
        ]
    )
    func noXMLOutsideSCXML(module: String) throws {
        let sources = Self.moduleSources.filter { $0.hasPrefix("Modules/\(module)/") && $0.hasSuffix(".swift") }
        #expect(!sources.isEmpty)
        for path in sources {
            let text = try String(contentsOf: Readme.root.appendingPathComponent(path), encoding: .utf8)
            #expect(!text.contains("import FoundationXML"), "\(path) imports FoundationXML")
        }
        let scxml = Self.moduleSources.filter { $0.hasPrefix("Modules/StateMachineSCXML/") && $0.hasSuffix(".swift") }
        let parsers = try scxml.filter {
            try String(contentsOf: Readme.root.appendingPathComponent($0), encoding: .utf8).contains(
                "import FoundationXML"
            )
        }
        #expect(parsers == ["Modules/StateMachineSCXML/SCXMLParser.swift"])
    }
}
