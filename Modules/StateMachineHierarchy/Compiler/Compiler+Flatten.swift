// Phase 1 of compiling a chart: the tree of regions and states flattened into arrays, depth
// first in document order, so that a region's index is smaller than those of the regions
// below it (the engine relies on this for SCXML's document order). Afterwards every state
// has a unique, non-empty name without `/` or `@`, every region has states and a known
// initial state, and the nesting is within `StatechartLimits.maxNestingDepth`.

extension Statechart.Compiler {
    /// Adds `spec`'s states (depth first, document order) and returns the new region's index.
    mutating func flatten(
        _ spec: RegionSpec,
        name: String,
        owner: Int32,
        pathPrefix: String,
        depth: Int
    ) throws -> Int32 {
        guard !spec.states.isEmpty else { throw StatechartError.noInitialState(region: name) }
        guard depth <= StatechartLimits.maxNestingDepth else {
            throw StatechartError.nestingTooDeep(
                path: pathPrefix + statechartName(spec.states[0].id),
                limit: StatechartLimits.maxNestingDepth
            )
        }
        let regionIndex = Int32(regions.count)
        // Reserve the slot; the state list is known only after the children are flattened.
        regions.append(RegionNode(name: name, parent: owner, states: [], initial: -1))
        if !spec.initialTargets.isEmpty || spec.initialAction != nil { regionSpecs.append((regionIndex, spec)) }
        var members: [Int32] = []
        var initial: Int32?
        for node in spec.states {
            let stateName = statechartName(node.id)
            let path = pathPrefix + stateName
            guard !stateName.isEmpty else {
                throw StatechartError.emptyName(what: "A state", location: "region '\(name)'")
            }
            // Paths name states as `a/b@1/c`: a name with either character would make
            // its own path (snapshots, `state(at:)`) mean another state or none.
            if StatechartPath.hasSeparator(stateName) {
                throw StatechartError.invalidPath(
                    path: path,
                    component: stateName,
                    reason: "a state name may not contain '/' or '@', which separate the parts of a path"
                )
            }
            let index = Int32(states.count)
            if let existing = stateIndex[node.id] {
                throw StatechartError.duplicateState(
                    name: stateName,
                    firstPath: states[Int(existing)].path,
                    secondPath: path
                )
            }
            stateIndex[node.id] = index
            let kind: StateKind
            switch node.content {
            case .simple: kind = .simple
            case .composite: kind = .composite
            case .parallel: kind = .parallel
            }
            states.append(
                CompiledStateDraft(
                    id: node.id,
                    name: stateName,
                    path: path,
                    parent: regionIndex,
                    kind: kind,
                    regions: [],
                    enter: node.enter,
                    exit: node.exit,
                    handlers: node.handlers,
                    isFinal: node.isFinal,
                    histories: node.histories,
                    deferred: node.deferred,
                    task: node.task
                )
            )
            if node.namesWithoutTransition {
                throw StatechartError.invalidTransition(
                    source: path,
                    reason: "naming(action:guard:) names the transition added before it, and the state has none there"
                )
            }
            if node.isFinal, !node.handlers.isEmpty {
                throw StatechartError.invalidTransition(
                    source: path,
                    reason: "a final state has no outgoing transitions"
                )
            }
            if case .simple = node.content, let history = node.histories.first {
                throw StatechartError.invalidHistory(
                    history: history.name,
                    reason: "'\(path)' is a simple state; only composite and parallel states have a history"
                )
            }
            members.append(index)
            if let wanted = spec.initial, wanted == node.id { initial = index }
            switch node.content {
            case .simple:
                break
            case .composite(let inner):
                let child = try flatten(
                    inner,
                    name: "\(stateName)SubMachine",
                    owner: index,
                    pathPrefix: path + "/",
                    depth: depth + 1
                )
                states[Int(index)].regions = [child]
            case .parallel(let inners):
                guard !inners.isEmpty else {
                    throw StatechartError.noInitialState(region: "\(stateName)SubMachine-0")
                }
                var children: [Int32] = []
                for (position, inner) in inners.enumerated() {
                    children.append(
                        try flatten(
                            inner,
                            name: "\(stateName)SubMachine-\(position)",
                            owner: index,
                            pathPrefix: path + "@\(position)/",
                            depth: depth + 1
                        )
                    )
                }
                states[Int(index)].regions = children
            }
        }
        if let wanted = spec.initial, initial == nil {
            throw StatechartError.unknownInitialState(region: name, state: statechartName(wanted))
        }
        regions[Int(regionIndex)] = RegionNode(
            name: name,
            parent: owner,
            states: members,
            initial: initial ?? members[0]
        )
        return regionIndex
    }

    /// The histories owned by the state at `path`.
    func historyIndexes(of path: String, in histories: [HistoryNode]) -> [Int32] {
        histories.indices.filter { states[Int(histories[$0].owner)].path == path }.map(Int32.init)
    }

    /// Every region below `state`, at any depth, in document order.
    func regionsBelow(_ state: Int32) -> [Int32] {
        var result: [Int32] = []
        for region in states[Int(state)].regions {
            result.append(region)
            for member in regions[Int(region)].states { result += regionsBelow(member) }
        }
        return result
    }
}
