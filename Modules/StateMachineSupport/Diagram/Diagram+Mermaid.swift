// Draws a `Diagram` as a Mermaid `stateDiagram-v2`.
//
// Each region is written as: its vertices (nested regions as `state X { ... }`, the
// regions of a parallel state separated by `--`), then its initial marker `[*] --> x`,
// then the transitions placed in it, then `f --> [*]` for its final states. Vertices are
// declared before any transition refers to them, so Mermaid never creates a stray copy of
// a nested state in an outer block.

extension Diagram {
    /// The Mermaid text, ending with a newline.
    package func mermaid() -> String {
        let names = MermaidNames(vertexIDs)
        var lines = ["stateDiagram-v2"]
        writeMermaid(root, depth: 1, names: names, into: &lines)
        return lines.joined(separator: "\n") + "\n"
    }

    private func writeMermaid(_ region: Region, depth: Int, names: MermaidNames, into lines: inout [String]) {
        let indent = String(repeating: "    ", count: depth)
        for vertex in region.vertices {
            writeMermaid(vertex, depth: depth, names: names, into: &lines)
        }
        for target in region.initial {
            lines.append("\(indent)[*] --> \(names[target])")
        }
        for transition in region.transitions {
            let arrow = "\(indent)\(names[transition.source]) --> \(names[transition.target])"
            lines.append(transition.label.isEmpty ? arrow : "\(arrow) : \(MermaidNames.escape(transition.label))")
        }
        for vertex in region.vertices where vertex.kind == .final {
            lines.append("\(indent)\(names[vertex.id]) --> [*]")
        }
    }

    private func writeMermaid(_ vertex: Vertex, depth: Int, names: MermaidNames, into lines: inout [String]) {
        let indent = String(repeating: "    ", count: depth)
        let name = names[vertex.id]
        switch vertex.kind {
        case .history(let deep):
            lines.append("\(indent)state \"\(deep ? "H*" : "H")\" as \(name)")
            return
        case .fork:
            lines.append("\(indent)state \(name) <<fork>>")
            return
        case .join:
            lines.append("\(indent)state \(name) <<join>>")
            return
        case .junction:
            lines.append("\(indent)state \(name) <<choice>>")
            return
        case .simple, .final, .composite, .parallel:
            break
        }
        let isAliased = name != vertex.id
        if isAliased {
            lines.append("\(indent)state \"\(MermaidNames.escape(vertex.id))\" as \(name)")
        }
        guard vertex.isContainer else {
            if !isAliased { lines.append("\(indent)\(name)") }
            writeNotes(of: vertex, name: name, indent: indent, into: &lines)
            return
        }
        writeNotes(of: vertex, name: name, indent: indent, into: &lines)
        lines.append("\(indent)state \(name) {")
        for (index, region) in vertex.regions.enumerated() {
            if index > 0 { lines.append("\(indent)    --") }
            writeMermaid(region, depth: depth + 1, names: names, into: &lines)
        }
        lines.append("\(indent)}")
    }
}

extension Diagram {
    /// `name : note` for each of the vertex's notes (Mermaid shows them under its name).
    fileprivate func writeNotes(of vertex: Vertex, name: String, indent: String, into lines: inout [String]) {
        for note in vertex.notes {
            lines.append("\(indent)\(name) : \(MermaidNames.escape(note))")
        }
    }
}

/// Mermaid identifiers for vertex ids: an id made of ASCII letters, digits and `_` (not
/// starting with a digit, not a keyword) is used as it is; any other gets a name of those
/// characters (others become `_`), made unique with a `_2`, `_3`... suffix, and is shown
/// with its real id through `state "id" as name`.
package struct MermaidNames {
    private var names: [String: String] = [:]

    private static let keywords: Set<String> = [
        "state", "note", "end", "direction", "classDef", "class", "style", "click", "as", "TB", "BT", "LR", "RL",
    ]

    /// Names for `ids`, in order (an earlier id keeps the plainer name).
    package init(_ ids: [String]) {
        var used = Set<String>()
        for id in ids where Self.isPlain(id) && names[id] == nil {
            names[id] = id
            used.insert(id)
        }
        for id in ids where names[id] == nil {
            var base = String(id.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
            if base.isEmpty || base.first!.isNumber { base = "_" + base }
            var candidate = base
            var suffix = 2
            while used.contains(candidate) || Self.keywords.contains(candidate) {
                candidate = "\(base)_\(suffix)"
                suffix += 1
            }
            names[id] = candidate
            used.insert(candidate)
        }
    }

    /// The Mermaid identifier of `id` (a sanitised one for an id the diagram does not know).
    package subscript(_ id: String) -> String {
        names[id] ?? MermaidNames([id]).names[id]!
    }

    private static func isPlain(_ id: String) -> Bool {
        guard let first = id.first, !first.isNumber, !keywords.contains(id) else { return false }
        return id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }

    /// `text` made safe for a description or a transition label: `#`, double quotes,
    /// semicolons and colons as Mermaid entity codes (`#35;`, `#quot;`, `#59;`, `#58;`), line
    /// breaks as spaces. A backslash has no meaning in Mermaid and stays as it is.
    package static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "#": result += "#35;"
            case "\"": result += "#quot;"
            case ";": result += "#59;"
            case ":": result += "#58;"
            case "\n", "\r", "\r\n": result += " "
            default: result.append(character)
            }
        }
        return result
    }
}
