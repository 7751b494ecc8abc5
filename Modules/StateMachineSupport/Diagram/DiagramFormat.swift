// The formats a diagram is written in, and the one mapping from a file's extension to a
// format, shared by the `statechart` tool (`diagram -o PATH`) and CaseStudies' `diagram
// PATH`, so that a file name means the same format everywhere.

/// A format a diagram is written in: text (Mermaid, DOT) or an image Graphviz renders.
package enum DiagramFormat: String, Sendable, Equatable, CaseIterable {
    /// A Mermaid `stateDiagram-v2`.
    case mermaid
    /// Graphviz's DOT language.
    case dot
    /// An SVG image, rendered by Graphviz.
    case svg
    /// A PNG image, rendered by Graphviz.
    case png

    /// The extensions that name each format (without the dot, lowercase), the first one the
    /// usual.
    package static let extensions: [(name: String, format: DiagramFormat)] = [
        ("svg", .svg), ("png", .png), ("dot", .dot), ("gv", .dot), ("mmd", .mermaid),
    ]

    /// The extensions, as a message lists them: `.svg, .png, .dot, .gv or .mmd`.
    package static var extensionList: String {
        let names = extensions.map { "." + $0.name }
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    /// The format the extension of `path` names (any case), nil for another extension or
    /// none.
    package static func named(byExtensionOf path: String) -> DiagramFormat? {
        guard let name = fileExtension(of: path) else { return nil }
        return extensions.first { $0.name == name }?.format
    }

    /// The lowercased extension of the last component of `path`, nil when it has none.
    package static func fileExtension(of path: String) -> String? {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return nil }
        let name = file[file.index(after: dot)...]
        return name.isEmpty ? nil : name.lowercased()
    }

    /// Whether Graphviz renders it (an image: never text on a terminal).
    package var isImage: Bool { self == .svg || self == .png }
}
