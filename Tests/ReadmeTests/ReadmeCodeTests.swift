import Foundation
import Testing

/// Checks that every `swift` block of the documentation is code that compiles.
///
/// The README's blocks are what a user copies into a package of their own: each is either a
/// whole file of the README's client package, marked `<!-- file: PATH -->` (which
/// `scripts/readme-client`, a step of `scripts/test`, writes into a package outside the
/// repository, builds, runs and compares with the README's `<!-- output of: ... -->`
/// blocks), or a fragment of a file of this repository, marked
/// `<!-- fragment of [PATH](PATH) -->`, that appears in that file verbatim.
///
/// The other documents' blocks (Apps/README.md and every DocC article) must each appear
/// verbatim in a Swift file that a build compiles, so that documents and code cannot drift.
/// The compiled files are this package's (`Modules`, `Apps`, `Tests`, where
/// `Tests/ReadmeTests/Snippets` holds blocks with the declarations they assume) and the
/// client packages' under `Samples` (built by `scripts/test`; the loading feature's blocks
/// live in `Samples/LoadingFeature`). A block appears in a file when its lines are
/// consecutive lines of the file, all indented by the same prefix (so that a block can sit
/// in a function body); its leading `import` lines may be anywhere in the file. Files
/// holding blocks verbatim start with `// swift-format-ignore-file`, so that formatting
/// does not change them. New blocks are picked up automatically: a block in no compiled
/// file fails, with its document and line.
@Suite("README code")
struct ReadmeCodeTests {
    /// Blocks that are not compiled yet, by their first line, with the reason. A block here
    /// that becomes compiled, or leaves the README, fails the test, so the list only shrinks.
    static let notYetCompiled: [String: String] = [:]

    /// The documents' `swift` blocks.
    static let blocks: [Readme.Block] = Readme.documents.flatMap(\.blocks).filter { $0.language == "swift" }

    /// The README's `swift` blocks.
    static let readmeBlocks: [Readme.Block] = blocks.filter { $0.file == "README.md" }

    /// The blocks that must appear verbatim in a compiled file: every document's but the
    /// README's (whose blocks are whole files of its client package, or fragments checked
    /// against the file they name).
    static let verbatimBlocks: [Readme.Block] = blocks.filter { $0.file != "README.md" }

    /// The client package's path of a block marked `<!-- file: PATH -->`.
    static func clientFile(of block: Readme.Block) -> String? {
        guard let marker = block.marker, marker.hasPrefix("<!-- file: "), marker.hasSuffix(" -->") else { return nil }
        return String(marker.dropFirst("<!-- file: ".count).dropLast(" -->".count))
    }

    /// The repository path of a block marked `<!-- fragment of [PATH](PATH) -->`, when the
    /// text and the link name the same path.
    static func fragmentFile(of block: Readme.Block) -> String? {
        guard let marker = block.marker, marker.hasPrefix("<!-- fragment of ["), marker.hasSuffix(") -->"),
            let middle = marker.range(of: "](")
        else { return nil }
        let text = marker[marker.index(marker.startIndex, offsetBy: "<!-- fragment of [".count)..<middle.lowerBound]
        let link = marker[middle.upperBound..<marker.index(marker.endIndex, offsetBy: -" -->".count - 1)]
        return text == link ? String(link) : nil
    }

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
            var target = directory.appendingPathComponent(link).standardizedFileURL.path
            // DocC finds an article's image by its name, in the catalog's Resources folder.
            if path.contains(".docc/"), !link.contains("/"), link.hasSuffix(".svg") || link.hasSuffix(".png") {
                target = directory.appendingPathComponent("Resources/\(link)").path
            }
            #expect(FileManager.default.fileExists(atPath: target), "\(path): the link \(link) leads nowhere")
        }
    }

    @Test(
        "every swift block of the README is a whole file of its client package, or a fragment of a named file",
        arguments: readmeBlocks.map(\.location)
    )
    func readmeBlock(location: String) throws {
        let block = try #require(Self.readmeBlocks.first { $0.location == location })
        if let path = Self.clientFile(of: block) {
            #expect(!path.isEmpty && !path.hasPrefix("/") && !path.contains(".."), "\(location): \(path)")
            #expect(path == "Package.swift" || path.hasPrefix("Sources/") || path.hasPrefix("Tests/"), "\(location)")
        } else if let path = Self.fragmentFile(of: block) {
            let file = try #require(Self.sources.first { $0.path == path }, "\(location): no Swift file \(path)")
            #expect(Self.contains(file.lines, block.lines), "\(location): the fragment is not in \(path) verbatim")
        } else {
            Issue.record(
                "\(location): mark this block <!-- file: PATH --> (a whole file of the README's client package) or <!-- fragment of [PATH](PATH) -->"
            )
        }
    }

    @Test("the README's client package: a manifest naming the dependency by its folder, and a Core program")
    func readmeClientPackage() throws {
        let files = Dictionary(Self.readmeBlocks.compactMap { block in Self.clientFile(of: block).map { ($0, block) } })
        {
            first,
            _ in first
        }
        let manifest = try #require(files["Package.swift"]).lines.joined(separator: "\n")
        #expect(manifest.contains(#".package(path: "../SwiftStateMachine")"#))
        #expect(!manifest.contains("package: repository"))
        let readme = try Readme()
        #expect(readme.text.contains("clone\nthe repository into a folder named `SwiftStateMachine`"))
        // The first Core example ends by itself and says how to observe a machine more than once.
        let core = try #require(files["Sources/Loading/main.swift"]).lines.joined(separator: "\n")
        #expect(core.contains("A machine has one observer"))
        #expect(core.contains("share(replayCount:"))
        #expect(core.contains("break") && core.contains("await machine.finishAndWait()"))
        #expect(files.keys.filter { $0.hasSuffix("main.swift") }.count >= 6)
    }

    @Test(
        "every swift block of the articles appears verbatim in a compiled file",
        arguments: verbatimBlocks.map(\.location)
    )
    func compiled(location: String) throws {
        let block = try #require(Self.verbatimBlocks.first { $0.location == location })
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
        let firstLines = Set(Self.verbatimBlocks.compactMap(\.lines.first))
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
