// Phase 2 of compiling a chart: the pseudo states (forks, joins, junctions, histories),
// each checked against the flattened tree and given its index. Afterwards every pseudo state
// name is unique and non-empty, every state it names exists, and a fork's targets and a
// join's sources lie in distinct regions of one parallel state.

extension Statechart.Compiler {
    /// Reserves the pseudo state name `name` (`what` says which kind, for the error).
    private mutating func claim(_ name: String, _ what: String) throws {
        guard !name.isEmpty else {
            throw StatechartError.emptyName(what: what, location: "chart '\(definition.name)'")
        }
        guard pseudoNames.insert(name).inserted else { throw StatechartError.duplicatePseudoState(name: name) }
    }

    /// Checks every fork: its region is a parallel state, and its targets lie in distinct
    /// regions of it.
    mutating func compileForks() throws {
        for fork in definition.forks {
            try claim(fork.name, "A fork")
            let region = try parallelState(fork.region, pseudoState: fork.name)
            guard !fork.targets.isEmpty else {
                throw StatechartError.invalidCompoundTransition(
                    pseudoState: fork.name,
                    reason: "it has no target states"
                )
            }
            var targets: [Int32] = []
            var usedRegions: [Int32: Int32] = [:]
            for id in fork.targets {
                let target = try lookup(id, referencedBy: "fork '\(fork.name)'")
                let regionOfTarget = try regionInside(region, containing: target, pseudoState: fork.name)
                if let other = usedRegions[regionOfTarget] {
                    throw StatechartError.invalidCompoundTransition(
                        pseudoState: fork.name,
                        reason:
                            "targets '\(states[Int(other)].path)' and '\(states[Int(target)].path)' lie in the same region '\(regions[Int(regionOfTarget)].name)'"
                    )
                }
                usedRegions[regionOfTarget] = target
                targets.append(target)
            }
            forkInfo[fork.name] = (region, targets)
        }
    }

    /// Checks every join (its sources lie inside its parallel state) and numbers it; the
    /// parallel state resets the join's progress when it exits.
    mutating func compileJoins() throws {
        for join in definition.joins {
            try claim(join.name, "A join")
            let region = try parallelState(join.region, pseudoState: join.name)
            guard !join.sources.isEmpty else {
                throw StatechartError.invalidCompoundTransition(
                    pseudoState: join.name,
                    reason: "it has no source states"
                )
            }
            var sources: [Int32] = []
            for id in join.sources {
                let source = try lookup(id, referencedBy: "join '\(join.name)'")
                _ = try regionInside(region, containing: source, pseudoState: join.name)
                if !sources.contains(source) { sources.append(source) }
            }
            let target = try lookup(join.target, referencedBy: "join '\(join.name)'")
            let index = Int32(joins.count)
            joins.append(JoinNode(name: join.name, sources: sources))
            joinInfo[join.name] = (index, region, sources, target)
            states[Int(region)].joinsToReset.append(index)
        }
    }

    /// Checks every junction (it has outgoing paths, each to an existing state) and keeps
    /// its paths' guards and actions.
    mutating func compileJunctions() throws {
        for junction in definition.junctions {
            try claim(junction.name, "A junction")
            guard !junction.paths.isEmpty else {
                throw StatechartError.invalidJunction(junction: junction.name, reason: "it has no outgoing paths")
            }
            let targets = try junction.paths.map {
                try lookup($0.target, referencedBy: "junction '\(junction.name)'")
            }
            junctionInfo[junction.name] = (Int32(junctionNames.count), targets)
            junctionNames.append(junction.name)
            junctionGuards.append(junction.paths.map { GuardBlock($0.guardBlock) })
            junctionActions.append(junction.paths.map { ActionBlock.boxing($0.action) })
        }
    }

    /// Checks every history (its default lies inside its owner) and records the regions it
    /// remembers and where its default transition leads.
    mutating func compileHistories() throws {
        for ownerIndex in states.indices {
            let owner = Int32(ownerIndex)
            for history in states[ownerIndex].histories {
                try claim(history.name, "A history")
                var defaultTarget: Int32?
                if let id = history.defaultTarget {
                    let target = try lookup(id, referencedBy: "history '\(history.name)'")
                    guard target != owner, isAncestorOrSelf(owner, of: target) else {
                        throw StatechartError.invalidHistory(
                            history: history.name,
                            reason:
                                "its default '\(states[Int(target)].path)' is not inside '\(states[ownerIndex].path)'"
                        )
                    }
                    defaultTarget = target
                }
                var defaultPairs = defaultTarget.map { plan(below: states[ownerIndex].regions, to: $0) } ?? []
                for id in history.extraDefaultTargets {
                    let target = try lookup(id, referencedBy: "history '\(history.name)'")
                    defaultPairs += plan(below: states[ownerIndex].regions, to: target)
                }
                historyInfo[history.name] = (Int32(histories.count), owner, defaultTarget)
                histories.append(
                    HistoryNode(
                        name: history.name,
                        owner: owner,
                        kind: history.kind,
                        regions: history.kind == .shallow ? states[ownerIndex].regions : regionsBelow(owner),
                        defaultRegions: defaultPairs.map(\.0),
                        defaultStates: defaultPairs.map(\.1),
                        hasDefaultAction: history.defaultAction != nil
                    )
                )
                historyDefaultActions.append(ActionBlock.boxing(history.defaultAction))
            }
        }
    }

    /// The index of the state `id`; `referencedBy` names who asked, for the error.
    func lookup(_ id: StateID, referencedBy: String) throws -> Int32 {
        guard let index = stateIndex[id] else {
            throw StatechartError.unknownState(name: statechartName(id), referencedBy: referencedBy)
        }
        return index
    }

    /// The index of the parallel state `id` that pseudo state `pseudoState` names as its region.
    private func parallelState(_ id: StateID, pseudoState: String) throws -> Int32 {
        let index = try lookup(id, referencedBy: "pseudo state '\(pseudoState)'")
        guard states[Int(index)].kind == .parallel else {
            throw StatechartError.invalidCompoundTransition(
                pseudoState: pseudoState,
                reason: "its region '\(states[Int(index)].path)' is not a parallel state"
            )
        }
        return index
    }

    /// The region of the parallel state `parallel` that contains `state` (at any depth).
    private func regionInside(_ parallel: Int32, containing state: Int32, pseudoState: String) throws -> Int32 {
        var current = state
        while true {
            let region = states[Int(current)].parent
            let owner = regions[Int(region)].parent
            if owner == parallel { return region }
            if owner < 0 {
                throw StatechartError.invalidCompoundTransition(
                    pseudoState: pseudoState,
                    reason: "'\(states[Int(state)].path)' is not inside its region '\(states[Int(parallel)].path)'"
                )
            }
            current = owner
        }
    }

    /// Throws when `handler`, whose target is the pseudo state `pseudo`, is internal.
    func rejectInternal(_ handler: HandlerSpec, event: String, source: Int32, pseudo: String) throws {
        if handler.kind == .internal {
            throw StatechartError.internalTransitionTargetMismatch(
                event: event,
                source: states[Int(source)].path,
                target: pseudo
            )
        }
    }
}
