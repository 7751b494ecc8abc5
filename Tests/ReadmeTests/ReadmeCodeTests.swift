import Foundation
import Testing

/// Checks that every `swift` block of the documentation is code that compiles: each must
/// appear verbatim in a Swift file that a build compiles, so that documents and code cannot
/// drift. The documents are the README, Apps/README.md and every DocC article
/// (`Readme.documentPaths`).
///
/// The compiled files are this package's (`Modules`, `Apps`, `Tests`, where
/// `Tests/ReadmeTests/Snippets` holds blocks with the declarations they assume) and the
/// client packages' under `Samples` (built by `scripts/test`; the loading feature's blocks
/// live in `Samples/LoadingFeature`). A block appears in a file when its lines are
/// consecutive lines of the file, all indented by the same prefix (so that a block can sit
/// in a function body); its leading `import` lines may be anywhere in the file. Files
/// holding blocks verbatim start with `// swift-format-ignore-file`, so that formatting
/// does not change them. New blocks are picked up automatically: a block in no compiled
/// file fails, with its README line.
@Suite("README code")
struct ReadmeCodeTests {
    /// Blocks that are not compiled yet, by their first line, with the reason. A block here
    /// that becomes compiled, or leaves the README, fails the test, so the list only shrinks.
    static let notYetCompiled: [String: String] = [:]

    /// The documents' `swift` blocks.
    static let blocks: [Readme.Block] = Readme.documents.flatMap(\.blocks).filter { $0.language == "swift" }

    /// Every Swift file a build compiles, with its lines.
    static let sources: [(path: String, lines: [String])] = {
        var sources: [(path: String, lines: [String])] = []
        for directory in ["Modules", "Apps", "Tests", "Samples"] {
            let url = Readme.root.appendingPathComponent(directory)
            guard let files = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in files where file.pathExtension == "swift" {
                let path = file.path.dropFirst(Readme.root.path.count + 1)
                guard !path.split(separator: "/").contains(".build"),
                    let text = try? String(contentsOf: file, encoding: .utf8)
                else { continue }
                sources.append((String(path), text.components(separatedBy: "\n")))
            }
        }
        return sources
    }()

    @Test("the README and the articles have swift blocks, and compiled files to find them in")
    func found() {
        #expect(Self.blocks.contains { $0.file == "README.md" })
        #expect(Set(Self.blocks.map(\.file)).count > 10)
        #expect(Self.blocks.count > 40)
        #expect(Self.sources.count > 50)
    }

    @Test("every document that should be there was read")
    func documentsRead() {
        #expect(Readme.documents.count == Readme.documentPaths.count)
        #expect(Readme.documentPaths.contains("Apps/README.md"))
        #expect(Readme.documentPaths.filter { $0.hasSuffix(".md") && $0.contains(".docc/") }.count >= 14)
    }

    @Test("every relative link of a document names a file or folder that exists", arguments: Readme.documentPaths)
    func links(path: String) throws {
        let document = try Readme(path: path)
        let directory = Readme.root.appendingPathComponent(path).deletingLastPathComponent()
        for link in document.relativeLinks {
            let target = directory.appendingPathComponent(link).standardizedFileURL.path
            #expect(FileManager.default.fileExists(atPath: target), "\(path): the link \(link) leads nowhere")
        }
    }

    @Test("every swift block appears verbatim in a compiled file", arguments: blocks.map(\.location))
    func compiled(location: String) throws {
        let block = try #require(Self.blocks.first { $0.location == location })
        let first = block.lines.first ?? ""
        let source = Self.sources.first { Self.contains($0.lines, block.lines) }?.path
        if let reason = Self.notYetCompiled[first] {
            #expect(
                source == nil,
                "\(location) is compiled in \(source ?? ""): remove it from notYetCompiled"
            )
            _ = reason
        } else {
            #expect(
                source != nil,
                "\(location): this swift block is in no compiled file; put it verbatim in Tests/ReadmeTests/Snippets (or the sample it shows)"
            )
        }
    }

    @Test("every block listed as not yet compiled is still in the README")
    func pendingListIsCurrent() {
        let firstLines = Set(Self.blocks.compactMap(\.lines.first))
        for first in Self.notYetCompiled.keys {
            #expect(firstLines.contains(first), "notYetCompiled names a block the README no longer has: \(first)")
        }
    }

    @Test("the loading feature's block (StateMachineCore's Getting Started article) is its compiled file, whole")
    func loadingFeature() throws {
        let article = try Readme(path: "Modules/StateMachineCore/StateMachineCore.docc/GettingStarted.md")
        let block = try #require(article.blocks.first { $0.language == "swift" })
        let file = try String(
            contentsOf: Readme.root.appendingPathComponent(
                "Samples/LoadingFeature/Sources/LoadingFeature/Feature.swift"
            ),
            encoding: .utf8
        )
        #expect(block.lines.joined(separator: "\n") + "\n" == file)
    }

    @Test("the matcher: consecutive lines, one indentation, imports anywhere")
    func matcher() {
        let file = ["import A", "", "func f() {", "    let x = 1", "", "    print(x)", "}"]
        #expect(Self.contains(file, ["let x = 1", "", "print(x)"]))
        #expect(Self.contains(file, ["import A", "let x = 1"]))
        #expect(!Self.contains(file, ["import B", "let x = 1"]))
        #expect(!Self.contains(file, ["let x = 1", "print(x)"]))
        #expect(!Self.contains(file, ["let x = 2"]))
        #expect(!Self.contains(["  let x = 1", "    print(x)"], ["let x = 1", "print(x)"]))
    }

    /// Whether `block` appears in `file`: its leading `import` lines anywhere among the
    /// file's lines, the rest as consecutive lines that all carry one indentation prefix.
    static func contains(_ file: [String], _ block: [String]) -> Bool {
        let imports = block.prefix { $0.hasPrefix("import ") }
        guard imports.allSatisfy(file.contains) else { return false }
        let body = Array(block.dropFirst(imports.count).drop { $0.isEmpty })
        guard let first = body.first else { return true }
        guard body.count <= file.count else { return false }
        return (0...(file.count - body.count)).contains { start in
            guard file[start].hasSuffix(first) else { return false }
            let indent = file[start].dropLast(first.count)
            guard indent.allSatisfy({ $0 == " " }) else { return false }
            return zip(file[start...], body).allSatisfy { line, expected in
                expected.isEmpty ? line.allSatisfy(\.isWhitespace) : line == indent + expected
            }
        }
    }
}
