// Draws a `Diagram` in Graphviz's DOT language.
//
// A composite or parallel state is a `subgraph cluster_N` labelled with its id (each
// region of a parallel state a dashed cluster inside it), holding an invisible node named
// after the state: arrows to or from the state end at that node and are clipped to the
// cluster's border (`lhead`/`ltail`, with `compound=true`); an arrow from a state to itself
// or to a state inside it goes out through an invisible point beside the cluster and back,
// so that it too starts at the border. A simple state's loops are one arrow with a line of
// label each, so that no loop crosses another's label. As UML draws them: initial
// markers are small filled points, final states a bull's eye with their name beside it,
// history states small `H`/`H*` circles, forks and joins black bars, junctions diamonds.
// Every id is a quoted DOT string, so dots, dashes, spaces, quotes and backslashes are safe.
// A vertex's notes (a table's entry and exit actions) are lines of its label.

extension Diagram {
    /// The DOT text, ending with a newline.
    package func dot() -> String {
        writeDOT(elementIDs: false).text
    }

    /// The DOT text with an `id` on every state (`s0`, `s1`... in document order; a
    /// cluster's id for a composite or parallel state) and every arrow (`t0`, `t1`...), which
    /// Graphviz's SVG keeps as the ids of their elements; and what each id stands for.
    package func dotWithElementIDs() -> DOTWithElementIDs {
        writeDOT(elementIDs: true)
    }

    private func writeDOT(elementIDs: Bool) -> DOTWithElementIDs {
        var writer = DOTWriter(diagram: self, elementIDs: elementIDs)
        writer.lines.append("digraph \(DOTWriter.quote(name)) {")
        writer.lines.append("    compound=true;")
        writer.lines.append("    fontname=\"Helvetica\";")
        writer.lines.append("    node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=11];")
        writer.lines.append("    edge [fontname=\"Helvetica\", fontsize=9];")
        writer.write(root, depth: 1)
        writer.lines.append("}")
        return DOTWithElementIDs(
            text: writer.lines.joined(separator: "\n") + "\n",
            states: writer.stateIDs,
            transitions: writer.transitionIDs
        )
    }
}

/// A diagram's DOT text whose states and arrows carry ids, and the ids.
package struct DOTWithElementIDs: Sendable {
    /// The DOT text.
    package var text: String
    /// Each vertex's id (the key) and its element's id.
    package var states: [String: String]
    /// Each arrow's element id and the transition it draws, in the order written.
    package var transitions: [(id: String, transition: Diagram.Transition)]
}

/// The state of one DOT rendering: the lines so far, and the cluster and initial-point
/// names handed out (in document order, so the output is stable).
private struct DOTWriter {
    let diagram: Diagram
    let elementIDs: Bool
    var lines: [String] = []
    /// With `elementIDs`: each vertex's element id, and each arrow's.
    var stateIDs: [String: String] = [:]
    var transitionIDs: [(id: String, transition: Diagram.Transition)] = []
    private var clusters: [String: String] = [:]
    private var nextCluster = 0
    private var nextInitial = 0
    private var nextArrow = 0
    private var nextAround = 0
    private let ids: Set<String>

    init(diagram: Diagram, elementIDs: Bool) {
        self.diagram = diagram
        self.elementIDs = elementIDs
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
                "\(indent)\(Self.quote(point)) -> \(Self.quote(target))\(attributes(label: "", source: nil, target: target, id: nil));"
            )
        }
        // A simple state's loops are one arrow with a line per transition: Graphviz nests
        // several loops of one node, and each outer loop crosses the labels of those inside.
        var loops: [String: [Diagram.Transition]] = [:]
        for transition in region.transitions where isSimpleLoop(transition) {
            loops[transition.source, default: []].append(transition)
        }
        for transition in region.transitions {
            if isSimpleLoop(transition) {
                guard let group = loops.removeValue(forKey: transition.source) else { continue }
                let id = elementIDs ? nextTransitionID(for: group) : nil
                // A line each, with a space each side as every label has.
                let label = group.map(\.label).filter { !$0.isEmpty }.joined(separator: " \n ")
                lines.append(
                    "\(indent)\(Self.quote(transition.source)) -> \(Self.quote(transition.target))"
                        + "\(attributes(label: label, source: transition.source, target: transition.target, id: id));"
                )
            } else if clusters[transition.source] != nil,
                transition.source == transition.target || diagram.isInside(transition.target, transition.source)
            {
                writeAround(transition, indent: indent)
            } else {
                let id = elementIDs ? nextTransitionID(for: [transition]) : nil
                lines.append(
                    "\(indent)\(Self.quote(transition.source)) -> \(Self.quote(transition.target))"
                        + "\(attributes(label: transition.label, source: transition.source, target: transition.target, id: id));"
                )
            }
        }
    }

    /// Whether `transition` loops on a state drawn as a node (not a cluster).
    private func isSimpleLoop(_ transition: Diagram.Transition) -> Bool {
        transition.source == transition.target && clusters[transition.source] == nil
    }

    /// The id of the next arrow, which draws `transitions`.
    private mutating func nextTransitionID(for transitions: [Diagram.Transition]) -> String {
        let id = "t\(nextArrow)"
        nextArrow += 1
        for transition in transitions { transitionIDs.append((id, transition)) }
        return id
    }

    /// A transition from a container to itself or to a state inside it. Graphviz clips an
    /// arrow to a cluster's border only when its other end is outside the cluster, so the
    /// arrow leaves the border for an invisible point beside the cluster and comes back in
    /// from there: it starts at the state's border, not at the anchor inside it, and never
    /// in empty space. Both halves carry the arrow's id (`tN` and `tN-in`).
    private mutating func writeAround(_ transition: Diagram.Transition, indent: String) {
        var point = "\(transition.source)~\(nextAround)"
        nextAround += 1
        while ids.contains(point) { point += "'" }
        var id: String?
        if elementIDs {
            id = nextTransitionID(for: [transition])
            transitionIDs.append((id! + "-in", transition))
        }
        var out = attributes(label: transition.label, source: transition.source, target: point, id: id)
        out = out.isEmpty ? " [arrowhead=none]" : String(out.dropLast()) + ", arrowhead=none]"
        lines.append("\(indent)\(Self.quote(point)) [shape=point, style=invis, width=0.01, height=0.01];")
        lines.append("\(indent)\(Self.quote(transition.source)) -> \(Self.quote(point))\(out);")
        lines.append(
            "\(indent)\(Self.quote(point)) -> \(Self.quote(transition.target))"
                + "\(attributes(label: "", source: point, target: transition.target, id: id.map { $0 + "-in" }));"
        )
    }

    private mutating func write(_ vertex: Diagram.Vertex, depth: Int) {
        let indent = String(repeating: "    ", count: depth)
        let name = Self.quote(vertex.id)
        var id = ""
        if elementIDs, stateIDs[vertex.id] == nil {
            stateIDs[vertex.id] = "s\(stateIDs.count)"
            id = "id=\(Self.quote(stateIDs[vertex.id]!))"
        }
        guard vertex.isContainer, let cluster = clusters[vertex.id] else {
            var attributes: [String]
            switch vertex.kind {
            case .simple, .composite, .parallel:
                attributes = vertex.notes.isEmpty ? [] : ["label=\(Self.quote(Self.label(of: vertex)))"]
            case .final:
                attributes = [
                    "shape=doublecircle", "style=filled", "fillcolor=black", "label=\"\"", "width=0.12", "height=0.12",
                    "xlabel=\(name)",
                ]
            case .history(let deep):
                attributes = ["shape=circle", "label=\"\(deep ? "H*" : "H")\"", "width=0.3", "fixedsize=true"]
            case .fork, .join:
                attributes = ["shape=box", "style=filled", "fillcolor=black", "label=\"\"", "height=0.1", "width=0.8"]
            case .junction:
                attributes = ["shape=diamond", "label=\"\"", "width=0.3", "height=0.3"]
            }
            if !id.isEmpty { attributes.append(id) }
            lines.append("\(indent)\(name)\(attributes.isEmpty ? "" : " [\(attributes.joined(separator: ", "))]");")
            return
        }
        lines.append("\(indent)subgraph \(Self.quote(cluster)) {")
        lines.append("\(indent)    label=\(Self.quote(Self.label(of: vertex)));")
        if !id.isEmpty { lines.append("\(indent)    \(id);") }
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
    private func attributes(label: String, source: String?, target: String, id: String?) -> String {
        var parts: [String] = []
        // A space each side: Graphviz places the labels of two opposite arrows side by
        // side, and without it their words run together.
        if !label.isEmpty { parts.append("label=\(Self.quote(" \(label) "))") }
        if let id { parts.append("id=\(Self.quote(id))") }
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
