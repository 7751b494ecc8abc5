import Foundation

/// The repository's README.md, split into its fenced code blocks.
struct Readme {
    /// A fenced block: its language, its lines and the marker comment above it, if any.
    struct Block {
        /// The README line of the opening fence (1-based).
        let line: Int
        /// The fence's language (`swift`, `text`).
        let language: String
        /// The lines between the fences.
        let lines: [String]
        /// The `<!-- ... -->` comment on the last non-blank line above the fence, if any.
        let marker: String?
    }

    /// The repository's root directory.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every fenced block, in order.
    let blocks: [Block]

    /// Reads README.md at the repository's root.
    init() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        self.init(text: text)
    }

    /// Splits `text` (Markdown) into its fenced blocks.
    init(text: String) {
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
                Block(line: index + 1, language: language, lines: Array(lines[(index + 1)..<end]), marker: marker)
            )
            index = end + 1
        }
        self.blocks = blocks
    }
}
