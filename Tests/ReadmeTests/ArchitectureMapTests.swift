import Foundation
import Testing

/// ARCHITECTURE.md names the file for each step of an event's way and for each common
/// change; a map whose paths no longer exist sends a contributor nowhere.
@Suite("ARCHITECTURE.md")
struct ArchitectureMapTests {
    /// The map's text.
    static let text: String = {
        let url = Readme.root.appendingPathComponent("ARCHITECTURE.md")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    /// Every code span of the map (the text between single backticks).
    static let codeSpans: [String] = text.split(separator: "`", omittingEmptySubsequences: false)
        .enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }

    /// The top-level folders a path of the repository starts with.
    static let topFolders = ["Modules/", "Apps/", "Samples/", "Tests/", "TestPlans/", "scripts/", "Fuzz/"]

    /// Every file name (with its extension) anywhere in the folders the map speaks of.
    static let fileNames: Set<String> = {
        var names: Set<String> = []
        for folder in topFolders {
            let url = Readme.root.appendingPathComponent(folder)
            guard let files = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in files where !file.path.contains("/.build/") {
                names.insert(file.lastPathComponent)
            }
        }
        return names
    }()

    /// Every Swift file of the folders the map speaks of, relative to the root.
    static let swiftFiles: [String] = {
        var paths: [String] = []
        for folder in topFolders {
            let url = Readme.root.appendingPathComponent(folder)
            guard let files = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in files where file.pathExtension == "swift" && !file.path.contains("/.build/") {
                paths.append(String(file.path.dropFirst(Readme.root.path.count + 1)))
            }
        }
        return paths
    }()

    @Test("the map exists, is linked from the README, and names paths")
    func mapIsThere() throws {
        #expect(Self.text.contains("## Where to make the common changes"))
        let readme = try String(contentsOf: Readme.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("(ARCHITECTURE.md)"))
        #expect(Self.codeSpans.filter { span in Self.topFolders.contains { span.hasPrefix($0) } }.count >= 20)
    }

    @Test("every repository path the map names exists (a command's program, a pattern's matches)")
    func pathsExist() throws {
        let spans = Self.codeSpans.filter { span in Self.topFolders.contains { span.hasPrefix($0) } }
        for span in spans {
            // `scripts/fuzz semantics` names the program `scripts/fuzz`.
            let path = String(span.prefix { !$0.isWhitespace })
            if let star = path.firstIndex(of: "*") {
                // `TestPlans/*.xctestplan`: the folder holds at least one such file.
                let folder = Readme.root.appendingPathComponent(String(path[..<star]))
                let suffix = String(path[path.index(after: star)...])
                let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                #expect(
                    files.contains { $0.hasSuffix(suffix) },
                    "ARCHITECTURE.md names '\(path)', which matches nothing"
                )
            } else {
                let url = Readme.root.appendingPathComponent(path)
                #expect(
                    FileManager.default.fileExists(atPath: url.path),
                    "ARCHITECTURE.md names '\(path)', which does not exist"
                )
            }
        }
    }

    @Test("every file the map names by its name alone exists somewhere in the repository")
    func fileNamesExist() {
        let names = Self.codeSpans.filter { span in
            !span.contains("/") && !span.contains(" ") && (span.hasSuffix(".swift") || span.hasSuffix(".md"))
        }
        #expect(!names.isEmpty)
        for name in names {
            #expect(Self.fileNames.contains(name), "ARCHITECTURE.md names '\(name)', which no file is called")
        }
    }

    /// The map's rule for naming code: a paragraph (a numbered step, a bullet or a block of
    /// prose) that names Swift files says where the functions and properties it names in
    /// backticks live. So each such name (a lowercase identifier, with its argument labels or
    /// not, after its type or not: `drain`, `take(together:)`, `MachineCore.enqueue`) must be
    /// declared in one of the Swift files its paragraph names, by path or by name.
    @Test("every function the map names beside files is declared in one of those files")
    func namedDeclarationsExist() throws {
        let references = ArchitectureMap.references(in: Self.text, swiftFiles: Self.swiftFiles)
        #expect(references.count >= 25, "the map names \(references.count) declarations beside files")
        for reference in references {
            let texts = reference.files.compactMap { path in
                try? String(contentsOf: Readme.root.appendingPathComponent(path), encoding: .utf8)
            }
            #expect(
                texts.contains { ArchitectureMap.declares($0, reference) },
                "ARCHITECTURE.md names `\(reference.span)` beside \(reference.files.joined(separator: ", ")), which declare no such thing"
            )
        }
    }
}
