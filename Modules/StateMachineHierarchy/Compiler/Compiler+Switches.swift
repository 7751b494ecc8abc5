// What every phase uses to turn a transition into a `Switch`: the regions it exits and
// re-enters (its scope: TBStateMachine's least common region, SCXML's transition domain, or
// the inside of a local transition's container) and the states it enters instead of initial
// ones on the way to its target(s) (its plan).

extension Statechart.Compiler {
    /// The regions from the root down to (and including) the region holding `state`.
    func regionChain(_ state: Int32) -> [Int32] {
        var chain: [Int32] = []
        var region = states[Int(state)].parent
        while region >= 0 {
            chain.append(region)
            let owner = regions[Int(region)].parent
            region = owner < 0 ? -1 : states[Int(owner)].parent
        }
        return chain.reversed()
    }

    /// Whether `ancestor` is `state` or contains it at any depth.
    func isAncestorOrSelf(_ ancestor: Int32, of state: Int32) -> Bool {
        var current = state
        while true {
            if current == ancestor { return true }
            let owner = regions[Int(states[Int(current)].parent)].parent
            if owner < 0 { return false }
            current = owner
        }
    }

    /// TBStateMachine's LCA: walking the source's ancestry upwards, the first region that
    /// also contains the target. Only regions (machines) can be an LCA, never a state.
    func leastCommonRegion(_ source: Int32, _ target: Int32) -> Int32 {
        let targetChain = Set(regionChain(target))
        for region in regionChain(source).reversed() where targetChain.contains(region) {
            return domain(region)
        }
        return 0  // Every state lies under the root region.
    }

    /// With `TransitionDomain.leastCommonCompoundAncestor` a transition's scope is the
    /// region of its least common *compound* ancestor: a parallel state's region (SCXML's
    /// child of `<parallel>`) widens to the region holding the parallel state.
    private func domain(_ region: Int32) -> Int32 {
        guard compoundDomains else { return region }
        var current = region
        while true {
            let owner = regions[Int(current)].parent
            guard owner >= 0, states[Int(owner)].kind == .parallel else { return current }
            current = states[Int(owner)].parent
        }
    }

    /// A target as the compiler resolves it: a state or a history pseudo state.
    enum ResolvedTarget: Equatable {
        case state(Int32)
        case history(Int32)
    }

    /// `target` resolved: a state, or a history pseudo state (another pseudo state among
    /// several targets is an error).
    func resolveTarget(_ target: Target, referencedBy: String) throws -> ResolvedTarget {
        switch target {
        case .state(let id):
            return .state(try lookup(id, referencedBy: referencedBy))
        case .history(let name):
            guard let history = historyInfo[name] else {
                throw StatechartError.unknownPseudoState(name: name, referencedBy: referencedBy)
            }
            return .history(history.index)
        case .fork(let name), .join(let name), .junction(let name):
            throw StatechartError.invalidCompoundTransition(
                pseudoState: name,
                reason: "it is one of several targets of \(referencedBy); only states and histories can be"
            )
        }
    }

    /// The name of a resolved target, for traces.
    func describe(_ target: ResolvedTarget) -> String {
        switch target {
        case .state(let state): states[Int(state)].name
        case .history(let history): histories[Int(history)].name
        }
    }

    /// A transition to several targets (states or histories) entered together: its scope
    /// is the least common region of the source and every target (a history counts as
    /// its owner, or as the owner's region when the source lies inside the owner), and
    /// its plan leads to each target.
    func makeTargetSwitch(
        from source: Int32,
        to targets: [ResolvedTarget],
        kind: StatechartTransitionKind
    ) -> Switch {
        var chains: [[Int32]] = []
        var anchors: [Int32] = []
        var entered: [Int32] = []
        for target in targets {
            switch target {
            case .state(let state):
                chains.append(regionChain(state))
                anchors.append(state)
            case .history(let history):
                let owner = histories[Int(history)].owner
                entered.append(history)
                anchors.append(owner)
                let ownerRegions = states[Int(owner)].regions
                if isAncestorOrSelf(owner, of: source), states[Int(owner)].kind == .composite {
                    chains.append(regionChain(owner) + ownerRegions)
                } else {
                    chains.append(regionChain(owner))
                }
            }
        }
        var scope: [Int32]
        let sourceIsContainer = states[Int(source)].kind == .composite
        if kind == .local, sourceIsContainer,
            targets.allSatisfy({ target in
                switch target {
                case .state(let state): state != source && isAncestorOrSelf(source, of: state)
                case .history(let history): isAncestorOrSelf(source, of: histories[Int(history)].owner)
                }
            })
        {
            scope = states[Int(source)].regions
        } else {
            let sourceChain = regionChain(source)
            var common = 0
            for (depth, region) in sourceChain.enumerated().reversed()
            where chains.allSatisfy({ $0.count > depth && $0[depth] == region }) {
                common = Int(region)
                break
            }
            scope = [domain(Int32(common))]
        }
        var pairs: [(Int32, Int32)] = []
        for anchor in anchors { pairs += plan(below: scope, to: anchor) }
        return makeSwitch(scope: scope, plan: pairs, histories: entered)
    }

    /// The (region, state) pairs from just below one of `scope` down to `target`; empty
    /// when the target is not below the scope (it is then entered through initial states).
    func plan(below scope: [Int32], to target: Int32) -> [(Int32, Int32)] {
        var pairs: [(Int32, Int32)] = []
        var current = target
        while true {
            let region = states[Int(current)].parent
            pairs.append((region, current))
            if scope.contains(region) { return pairs.reversed() }
            let owner = regions[Int(region)].parent
            if owner < 0 { return [] }
            current = owner
        }
    }

    /// The switch of a transition from `source` to `target` of `kind`: TBStateMachine's
    /// least common region, or for a local transition the region(s) inside the container.
    func makeSwitch(from source: Int32, to target: Int32, kind: StatechartTransitionKind) -> Switch {
        var scope = [leastCommonRegion(source, target)]
        if kind == .local {
            let sourceContainsTarget = isAncestorOrSelf(source, of: target)
            if sourceContainsTarget || isAncestorOrSelf(target, of: source) {
                let container = sourceContainsTarget ? source : target
                let contained = sourceContainsTarget ? target : source
                switch states[Int(container)].kind {
                case .composite:
                    scope = states[Int(container)].regions
                case .parallel where container == contained:
                    // Semantics and decisions, "Local transitions on parallel states": a local
                    // self-transition on a parallel state keeps the state and restarts every region.
                    scope = states[Int(container)].regions
                case .parallel:
                    // Same decision: only the region holding the contained vertex is left.
                    scope = [regionChain(contained).first { regions[Int($0)].parent == container }!]
                case .simple:
                    // A local self-transition on a simple state behaves as an external one (same decision).
                    break
                }
            }
        }
        return makeSwitch(scope: scope, plan: plan(below: scope, to: target))
    }

    /// The switch of a transition into fork targets below `parallel`.
    func makeForkSwitch(from source: Int32, into parallel: Int32, targets: [Int32]) -> Switch {
        let scope = [leastCommonRegion(source, parallel)]
        var pairs = plan(below: scope, to: parallel)
        for target in targets {
            pairs += plan(below: states[Int(parallel)].regions, to: target)
        }
        return makeSwitch(scope: scope, plan: pairs)
    }

    /// Stores `change` in the switch table and returns its index.
    mutating func register(_ change: Switch) -> Int32 {
        switches.append(change)
        return Int32(switches.count - 1)
    }

    /// A switch of `scope` and `plan`, named after its first scope region.
    func makeSwitch(scope: [Int32], plan: [(Int32, Int32)], histories: [Int32] = []) -> Switch {
        Switch(
            scope: scope,
            planRegions: plan.map(\.0),
            planStates: plan.map(\.1),
            scopeName: regions[Int(scope[0])].name,
            histories: histories
        )
    }
}
