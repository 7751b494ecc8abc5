// Draws a `Diagram` in Graphviz's DOT language.
//
// A composite or parallel state is a `subgraph cluster_N` labelled with its id (each
// region of a parallel state a dashed cluster inside it), holding an invisible node named
// after the state: arrows to or from the state end at that node and are clipped to the
// cluster's border (`lhead`/`ltail`, with `compound=true`). Initial markers are small
// filled points; final states are double circles; history states `H`/`H*` circles.
// Every id is a quoted DOT string, so dots, dashes, spaces, quotes and backslashes are safe.
// A vertex's notes (a table's entry and exit actions) are lines of its label.

extension Diagram {
    /// The DOT text, ending with a newline.
    package func dot() -> String {
        var writer = DOTWriter(diagram: self)
        writer.lines.append("digraph \(DOTWriter.quote(name)) {")
        writer.lines.append("    compound=true;")
        writer.lines.append("    node [shape=box, style=rounded];")
        writer.write(root, depth: 1)
        writer.lines.append("}")
        return writer.lines.joined(separator: "\n") + "\n"
    }
}

/// The state of one DOT rendering: the lines so far, and the cluster and initial-point
/// names handed out (in document order, so the output is stable).
private struct DOTWriter {
    let diagram: Diagram
    var lines: [String] = []
    private var clusters: [String: String] = [:]
    private var nextCluster = 0
    private var nextInitial = 0
    private let ids: Set<String>

    init(diagram: Diagram) {
        self.diagram = diagram
        ids = Set(diagram.vertexIDs)
        // Number the clusters up front: an arrow may refer to a cluster drawn later.
        var clusters: [String: String] = [:]
        var next = 0
        func visit(_ region: Diagram.Region) {
            for vertex in region.vertices {
                if vertex.isContainer, clusters[vertex.id] == nil {
                    clusters[vertex.id] = "cluster_\(next)"
                    next += 1
                    if vertex.kind == .parallel { next += vertex.regions.count }
                }
                vertex.regions.forEach(visit)
            }
        }
        visit(diagram.root)
        self.clusters = clusters
    }

    mutating func write(_ region: Diagram.Region, depth: Int) {
        let indent = String(repeating: "    ", count: depth)
        for vertex in region.vertices {
            write(vertex, depth: depth)
        }
        for target in region.initial {
            let point = initialName()
            lines.append("\(indent)\(Self.quote(point)) [shape=point, width=0.15, label=\"\"];")
            lines.append(
                "\(indent)\(Self.quote(point)) -> \(Self.quote(target))\(attributes(label: "", source: nil, target: target));"
            )
        }
        for transition in region.transitions {
            lines.append(
                "\(indent)\(Self.quote(transition.source)) -> \(Self.quote(transition.target))"
                    + "\(attributes(label: transition.label, source: transition.source, target: transition.target));"
            )
        }
    }

    private mutating func write(_ vertex: Diagram.Vertex, depth: Int) {
        let indent = String(repeating: "    ", count: depth)
        let name = Self.quote(vertex.id)
        guard vertex.isContainer, let cluster = clusters[vertex.id] else {
            switch vertex.kind {
            case .simple, .composite, .parallel:
                if vertex.notes.isEmpty {
                    lines.append("\(indent)\(name);")
                } else {
                    lines.append("\(indent)\(name) [label=\(Self.quote(Self.label(of: vertex)))];")
                }
            case .final:
                lines.append("\(indent)\(name) [shape=doublecircle];")
            case .history(let deep):
                lines.append("\(indent)\(name) [shape=circle, label=\"\(deep ? "H*" : "H")\"];")
            case .fork, .join:
                lines.append(
                    "\(indent)\(name) [shape=box, style=filled, fillcolor=black, label=\"\", height=0.1, width=0.8];"
                )
            case .junction:
                lines.append("\(indent)\(name) [shape=diamond, label=\"\", width=0.3, height=0.3];")
            }
            return
        }
        lines.append("\(indent)subgraph \(Self.quote(cluster)) {")
        lines.append("\(indent)    label=\(Self.quote(Self.label(of: vertex)));")
        lines.append("\(indent)    \(name) [shape=point, style=invis];")
        if vertex.kind == .parallel {
            let number = Int(cluster.dropFirst("cluster_".count))!
            for (index, region) in vertex.regions.enumerated() {
                lines.append("\(indent)    subgraph \(Self.quote("cluster_\(number + 1 + index)")) {")
                lines.append("\(indent)        label=\"\";")
                lines.append("\(indent)        style=dashed;")
                write(region, depth: depth + 2)
                lines.append("\(indent)    }")
            }
        } else {
            for region in vertex.regions { write(region, depth: depth + 1) }
        }
        lines.append("\(indent)}")
    }

    /// A name for the next initial point that no vertex uses.
    private mutating func initialName() -> String {
        var name = "[*]\(nextInitial)"
        nextInitial += 1
        while ids.contains(name) { name += "'" }
        return name
    }

    /// ` [label=..., ltail=..., lhead=...]`, or nothing when no attribute applies. An end
    /// that is a cluster is clipped to the cluster's border, unless the other end lies
    /// inside it (Graphviz cannot clip an arrow to a cluster it starts or ends in).
    private func attributes(label: String, source: String?, target: String) -> String {
        var parts: [String] = []
        if !label.isEmpty { parts.append("label=\(Self.quote(label))") }
        if let source, let cluster = clusters[source], source != target, !diagram.isInside(target, source) {
            parts.append("ltail=\(Self.quote(cluster))")
        }
        if let cluster = clusters[target], source != target, source.map({ !diagram.isInside($0, target) }) ?? true {
            parts.append("lhead=\(Self.quote(cluster))")
        }
        return parts.isEmpty ? "" : " [\(parts.joined(separator: ", "))]"
    }

    /// The vertex's name with its notes, one per line.
    private static func label(of vertex: Diagram.Vertex) -> String {
        ([vertex.id] + vertex.notes).joined(separator: "\n")
    }

    /// `text` as a DOT quoted string: `"` and `\` escaped, a line break as DOT's `\n`.
    static func quote(_ text: String) -> String {
        var result = "\""
        for character in text {
            switch character {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n", "\r\n": result += "\\n"
            case "\r": break
            default: result.append(character)
            }
        }
        return result + "\""
    }
}
