// The one intermediate model every diagram is drawn from: `Statechart` and
// `SCXMLDocument` each translate themselves into a `StatechartDiagram`, and one renderer
// per format (Mermaid, DOT) draws it. So both runtimes are drawn the same way, and a new
// format or a new kind of state is added in one place.

/// A statechart as a diagram sees it: nested regions of states, initial markers and
/// labelled transitions, with every transition placed in the innermost region that
/// contains both its ends (where the renderers draw it).
struct StatechartDiagram: Sendable, Equatable {
    /// What a vertex is, which decides how it is drawn.
    enum Kind: Sendable, Equatable {
        /// A state without sub states.
        case simple
        /// A state with one nested region.
        case composite
        /// A state with orthogonal regions.
        case parallel
        /// A final state.
        case final
        /// A history pseudo state; `deep` remembers nested configurations (`H*`), else `H`.
        case history(deep: Bool)
        /// A fork pseudo state (one transition into several regions).
        case fork
        /// A join pseudo state (several regions into one transition).
        case join
        /// A junction (static conditional branch).
        case junction
    }

    /// A state or pseudo state, with its nested regions (empty unless composite or parallel).
    struct Vertex: Sendable, Equatable {
        var id: String
        var kind: Kind
        var regions: [Region] = []

        /// Whether the vertex is drawn as a container of other vertices.
        var isContainer: Bool { !regions.isEmpty }
    }

    /// One region: its vertices, the targets of its initial marker, and (once placed) the
    /// transitions drawn inside it.
    struct Region: Sendable, Equatable {
        var vertices: [Vertex]
        /// The states the region's initial marker points at; empty for none.
        var initial: [String]
        var transitions: [Transition] = []
    }

    /// One arrow.
    struct Transition: Sendable, Equatable {
        var source: String
        var target: String
        /// `event [guard]`, `event`, `[guard]` or empty.
        var label: String

        init(source: String, target: String, events: [String] = [], guardLabel: String? = nil) {
            self.source = source
            self.target = target
            var parts: [String] = []
            if !events.isEmpty { parts.append(events.joined(separator: " ")) }
            if let guardLabel { parts.append("[\(guardLabel)]") }
            label = parts.joined(separator: " ")
        }
    }

    /// The chart's name (the DOT graph's name).
    var name: String
    /// The outermost region.
    var root: Region

    /// A diagram of `root` with `transitions` placed, each in the innermost region that
    /// holds both its source and its target (the outermost region when an end is unknown).
    init(name: String, root: Region, transitions: [Transition]) {
        self.name = name
        var chains: [String: [Int]] = [:]
        var counter = 0
        Self.collectChains(root, chain: [], counter: &counter, into: &chains)
        var placed: [Int: [Transition]] = [:]
        for transition in transitions {
            let source = chains[transition.source] ?? [0]
            let target = chains[transition.target] ?? [0]
            var common = 0
            for (a, b) in zip(source, target) where a == b { common = a }
            placed[common, default: []].append(transition)
        }
        counter = 0
        self.root = Self.placing(root, placed, counter: &counter)
    }

    /// Numbers the regions in pre-order and records, for every vertex, the numbers of the
    /// regions from the outermost one down to the vertex's own.
    private static func collectChains(
        _ region: Region,
        chain: [Int],
        counter: inout Int,
        into chains: inout [String: [Int]]
    ) {
        let here = chain + [counter]
        counter += 1
        for vertex in region.vertices {
            if chains[vertex.id] == nil { chains[vertex.id] = here }
            for inner in vertex.regions {
                collectChains(inner, chain: here, counter: &counter, into: &chains)
            }
        }
    }

    /// `region` with the transitions placed in it, numbering regions as `collectChains` does.
    private static func placing(_ region: Region, _ placed: [Int: [Transition]], counter: inout Int) -> Region {
        var copy = region
        copy.transitions += placed[counter] ?? []
        counter += 1
        for index in copy.vertices.indices {
            copy.vertices[index].regions = copy.vertices[index].regions.map {
                placing($0, placed, counter: &counter)
            }
        }
        return copy
    }

    /// Every vertex id, in document order.
    var vertexIDs: [String] {
        var ids: [String] = []
        func visit(_ region: Region) {
            for vertex in region.vertices {
                ids.append(vertex.id)
                vertex.regions.forEach(visit)
            }
        }
        visit(root)
        return ids
    }

    /// Whether `id` lies inside the vertex `container` (at any depth).
    func isInside(_ id: String, _ container: String) -> Bool {
        guard let vertex = find(container, in: root) else { return false }
        func contains(_ region: Region) -> Bool {
            region.vertices.contains { $0.id == id || $0.regions.contains(where: contains) }
        }
        return vertex.regions.contains(where: contains)
    }

    /// The vertex `id`, if the diagram has one.
    func vertex(_ id: String) -> Vertex? { find(id, in: root) }

    private func find(_ id: String, in region: Region) -> Vertex? {
        for vertex in region.vertices {
            if vertex.id == id { return vertex }
            for inner in vertex.regions {
                if let found = find(id, in: inner) { return found }
            }
        }
        return nil
    }
}
