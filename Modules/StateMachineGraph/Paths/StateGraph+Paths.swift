extension StateGraph {
    /// The path type of this graph.
    public typealias Path = StatePath<StateValue, EventValue>

    /// A shortest path to every node, in node order (the first, to the initial node, has no
    /// step). Ties are broken by edge order, so the paths are the same on every run.
    ///
    /// Cost: one breadth-first search, O(nodes + edges).
    public func shortestPaths() -> [Path] {
        let parents = breadthFirst(from: initial.index, outgoing: outgoingEdges()).parents
        return nodes.map { path(from: initial.index, walk(to: $0.index, parents: parents)) }
    }

    /// A set of paths from the initial node that together take every edge at least once
    /// (XState's transition coverage): each path keeps going to the nearest edge not taken
    /// yet, and a new path starts from the initial node when none is reachable any more.
    ///
    /// Cost: one breadth-first search per edge, O(edges × (nodes + edges)).
    public func transitionCover() -> [Path] {
        var taken = [Bool](repeating: false, count: edges.count)
        var remaining = edges.count
        var paths: [Path] = []
        let outgoing = outgoingEdges()
        while remaining > 0 {
            var walk: [Int] = []
            var current = initial.index
            while remaining > 0,
                let (prefix, edge) = nearestUntaken(from: current, taken: taken, outgoing: outgoing)
            {
                for index in prefix + [edge] where !taken[index] {
                    taken[index] = true
                    remaining -= 1
                }
                walk += prefix + [edge]
                current = edges[edge].target
            }
            // Every node is reachable from the initial one, so a fresh walk always takes an
            // edge; an empty walk would mean the graph is not what exploration makes.
            guard !walk.isEmpty else { break }
            paths.append(path(from: initial.index, walk))
        }
        return paths
    }

    /// Every path from the initial node that visits no node twice, with 1 to `maxLength`
    /// steps, depth first in edge order (each path is listed before its extensions).
    ///
    /// Cost: the number of such paths, which grows quickly with `maxLength` in a graph with
    /// many edges per node.
    /// - Throws: ``StateGraphError/invalidBound(name:value:)`` when `maxLength` is below 1.
    public func simplePaths(maxLength: Int) throws -> [Path] {
        guard maxLength >= 1 else { throw StateGraphError.invalidBound(name: "maxLength", value: maxLength) }
        let outgoing = outgoingEdges()
        var paths: [Path] = []
        var visited = [Bool](repeating: false, count: nodes.count)
        var walk: [Int] = []
        func extend(_ node: Int) {
            guard walk.count < maxLength else { return }
            for edge in outgoing[node] where !visited[edges[edge].target] {
                let target = edges[edge].target
                walk.append(edge)
                visited[target] = true
                paths.append(path(from: initial.index, walk))
                extend(target)
                visited[target] = false
                walk.removeLast()
            }
        }
        visited[initial.index] = true
        extend(initial.index)
        return paths
    }

    /// The indices of the edges leaving each node, in edge order.
    private func outgoingEdges() -> [[Int]] {
        var outgoing = [[Int]](repeating: [], count: nodes.count)
        for (index, edge) in edges.enumerated() { outgoing[edge.source].append(index) }
        return outgoing
    }

    /// A breadth-first search from `start`, in edge order, that ends early at the first node
    /// `stop` accepts (`start` included): for each node reached, the edge that first reached
    /// it (nil for `start` and the nodes not reached), and the node it stopped at.
    private func breadthFirst(
        from start: Int,
        outgoing: [[Int]],
        stoppingAt stop: (Int) -> Bool = { _ in false }
    ) -> (parents: [Int?], stoppedAt: Int?) {
        var parents = [Int?](repeating: nil, count: nodes.count)
        var seen = [Bool](repeating: false, count: nodes.count)
        seen[start] = true
        var queue = [start]
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            if stop(node) { return (parents, node) }
            for edge in outgoing[node] where !seen[edges[edge].target] {
                seen[edges[edge].target] = true
                parents[edges[edge].target] = edge
                queue.append(edges[edge].target)
            }
        }
        return (parents, nil)
    }

    /// The edges from the search's start to `node`, along the search's `parents`.
    private func walk(to node: Int, parents: [Int?]) -> [Int] {
        var edgeIndices: [Int] = []
        var current = node
        while let edge = parents[current] {
            edgeIndices.append(edge)
            current = edges[edge].source
        }
        return edgeIndices.reversed()
    }

    /// The shortest walk from `start` to a node with an edge not taken yet, and that edge
    /// (the node's first such edge); nil when no such edge is reachable.
    private func nearestUntaken(from start: Int, taken: [Bool], outgoing: [[Int]]) -> ([Int], Int)? {
        let search = breadthFirst(from: start, outgoing: outgoing) { node in
            outgoing[node].contains { !taken[$0] }
        }
        guard let node = search.stoppedAt, let edge = outgoing[node].first(where: { !taken[$0] }) else { return nil }
        return (walk(to: node, parents: search.parents), edge)
    }

    /// The path from `start` along the edges `edgeIndices`.
    private func path(from start: Int, _ edgeIndices: [Int]) -> Path {
        Path(
            start: nodes[start],
            steps: edgeIndices.map { index in
                let edge = edges[index]
                return Path.Step(
                    event: edge.event,
                    label: edge.label,
                    target: nodes[edge.target],
                    isConditional: edge.isConditional
                )
            },
            identity: identity,
            naming: naming
        )
    }
}
