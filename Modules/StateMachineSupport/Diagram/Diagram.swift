// The one intermediate model every diagram of the package is drawn from: a table
// (`FSM`), a `Statechart` and an `SCXMLDocument` each translate themselves into a
// `Diagram`, and one renderer per format (Mermaid, DOT) draws it. So every product is
// drawn, and escaped, the same way, and a new format or a new kind of state is added in
// one place.

/// A state machine as a diagram sees it: nested regions of states, initial markers and
/// labelled transitions, with every transition placed in the innermost region that
/// contains both its ends (where the renderers draw it).
package struct Diagram: Sendable, Equatable {
    /// What a vertex is, which decides how it is drawn.
    package enum Kind: Sendable, Equatable {
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
    package struct Vertex: Sendable, Equatable {
        /// The vertex's name, shown as it is (renderers escape it).
        package var id: String
        /// What the vertex is, which decides how it is drawn.
        package var kind: Kind
        /// The nested regions: one for a composite state, one per region for a parallel
        /// state, none otherwise.
        package var regions: [Region]
        /// Lines shown under the name, such as `entry / lock` (a table's entry and exit
        /// actions).
        package var notes: [String]

        /// A vertex `id` of `kind`, holding `regions`, with `notes` under its name.
        package init(id: String, kind: Kind, regions: [Region] = [], notes: [String] = []) {
            self.id = id
            self.kind = kind
            self.regions = regions
            self.notes = notes
        }

        /// Whether the vertex is drawn as a container of other vertices.
        package var isContainer: Bool { !regions.isEmpty }
    }

    /// One region: its vertices, the targets of its initial marker, and (once placed) the
    /// transitions drawn inside it.
    package struct Region: Sendable, Equatable {
        /// The region's states and pseudo states, in declaration order.
        package var vertices: [Vertex]
        /// The states the region's initial marker points at; empty for none.
        package var initial: [String]
        /// The transitions drawn inside this region (filled in by ``Diagram/init(name:root:transitions:)``).
        package var transitions: [Transition]

        /// A region of `vertices` whose initial marker points at `initial`.
        package init(vertices: [Vertex], initial: [String], transitions: [Transition] = []) {
            self.vertices = vertices
            self.initial = initial
            self.transitions = transitions
        }
    }

    /// One arrow.
    package struct Transition: Sendable, Equatable {
        /// The id of the vertex the arrow starts at.
        package var source: String
        /// The id of the vertex the arrow ends at.
        package var target: String
        /// `event [guard] / actions`, `event`, `[guard]`, a table row's label, or empty.
        package var label: String
        /// The events that trigger the arrow, when it was made from them (empty for an
        /// eventless one, or one made from a label): what a step-through page matches a
        /// step's event against.
        package var events: [String]

        /// An arrow labelled `label`.
        package init(source: String, target: String, label: String) {
            self.source = source
            self.target = target
            self.label = label
            self.events = []
        }

        /// An arrow labelled `events [guardLabel] / actions`.
        package init(
            source: String,
            target: String,
            events: [String] = [],
            guardLabel: String? = nil,
            actions: [String] = []
        ) {
            self.source = source
            self.target = target
            self.events = events
            var parts: [String] = []
            if !events.isEmpty { parts.append(events.joined(separator: " ")) }
            if let guardLabel { parts.append("[\(guardLabel)]") }
            if !actions.isEmpty { parts.append("/ " + actions.joined(separator: ", ")) }
            label = parts.joined(separator: " ")
        }
    }

    /// The machine's name (the DOT graph's name).
    package var name: String
    /// The outermost region.
    package var root: Region

    /// A diagram of `root` with `transitions` placed, each in the innermost region that
    /// holds both its source and its target (the outermost region when an end is unknown).
    package init(name: String, root: Region, transitions: [Transition]) {
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
    package var vertexIDs: [String] {
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
    package func isInside(_ id: String, _ container: String) -> Bool {
        guard let vertex = find(container, in: root) else { return false }
        func contains(_ region: Region) -> Bool {
            region.vertices.contains { $0.id == id || $0.regions.contains(where: contains) }
        }
        return vertex.regions.contains(where: contains)
    }

    /// The vertex `id`, if the diagram has one.
    package func vertex(_ id: String) -> Vertex? { find(id, in: root) }

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
