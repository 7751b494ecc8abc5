import Foundation

/// A Markdown document of the repository (the README, the apps' README or a DocC article),
/// split into its fenced code blocks.
struct Readme {
    /// A fenced block: its document, its language, its lines and the marker comment above it, if any.
    struct Block {
        /// The document's path, relative to the repository's root.
        let file: String
        /// The document's line of the opening fence (1-based).
        let line: Int
        /// The fence's language (`swift`, `text`).
        let language: String
        /// The lines between the fences.
        let lines: [String]
        /// The `<!-- ... -->` comment on the last non-blank line above the fence, if any.
        let marker: String?

        /// `file:line`, which names the block in test arguments and messages.
        var location: String { "\(file):\(line)" }
    }

    /// The repository's root directory.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The documents whose blocks are checked, relative to the root: README.md, Apps/README.md
    /// and every article of every DocC catalog (`*.docc` folders under Modules and Apps).
    static let documentPaths: [String] = {
        var paths = ["README.md", "Apps/README.md"]
        var articles: [String] = []
        for directory in ["Modules", "Apps"] {
            let url = root.appendingPathComponent(directory)
            guard let files = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in files where file.pathExtension == "md" {
                let path = String(file.path.dropFirst(root.path.count + 1))
                if path.split(separator: "/").contains(where: { $0.hasSuffix(".docc") }) { articles.append(path) }
            }
        }
        paths += articles.sorted()
        return paths
    }()

    /// Every document of `documentPaths` that can be read.
    static let documents: [Readme] = documentPaths.compactMap { try? Readme(path: $0) }

    /// The document's path, relative to the root.
    let path: String

    /// The document's text.
    let text: String

    /// Every fenced block, in order.
    let blocks: [Block]

    /// Reads README.md at the repository's root.
    init() throws {
        try self.init(path: "README.md")
    }

    /// Reads the document at `path`, relative to the repository's root.
    init(path: String) throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
        self.init(text: text, path: path)
    }

    /// Splits `text` (Markdown) into its fenced blocks.
    init(text: String, path: String = "README.md") {
        self.path = path
        self.text = text
        let lines = text.components(separatedBy: "\n")
        var blocks: [Block] = []
        var index = 0
        while index < lines.count {
            let fence = lines[index]
            guard fence.hasPrefix("```"), fence.count > 3 else {
                index += 1
                continue
            }
            let language = String(fence.dropFirst(3)).trimmingCharacters(in: .whitespaces)
            let above = lines[..<index].last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            let marker = above.flatMap { $0.hasPrefix("<!--") && $0.hasSuffix("-->") ? $0 : nil }
            var end = index + 1
            while end < lines.count, lines[end] != "```" { end += 1 }
            blocks.append(
                Block(
                    file: path,
                    line: index + 1,
                    language: language,
                    lines: Array(lines[(index + 1)..<end]),
                    marker: marker
                )
            )
            index = end + 1
        }
        self.blocks = blocks
    }

    /// The targets of the document's relative Markdown links (`[text](path)` and
    /// `[text](path#anchor)`, without the anchor), outside code: not web links, not
    /// anchors within the document.
    var relativeLinks: [String] {
        var links: [String] = []
        var inFence = false
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("```") { inFence.toggle() }
            if inFence { continue }
            var rest = Substring(line)
            while let open = rest.range(of: "](") {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(of: ")") else { break }
                let target = after[..<close].split(separator: "#", omittingEmptySubsequences: false).first ?? ""
                if !target.isEmpty, !target.contains("://"), !target.hasPrefix("mailto:") {
                    links.append(String(target))
                }
                rest = after[close...]
            }
        }
        return links
    }
}
