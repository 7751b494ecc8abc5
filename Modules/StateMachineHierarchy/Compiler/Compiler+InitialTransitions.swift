// Phase 5 of compiling a chart: default entries through an initial transition (SCXML's
// `<initial>` with content or several targets). Each such region gets a switch of its own,
// whose plan leads to the targets (states anywhere below, or histories), and its initial
// state becomes the first state that plan enters in it.

extension Statechart.Compiler {
    /// Compiles the initial transitions of the regions that have one.
    mutating func compileInitialTransitions() throws {
        regionDefaults = [Int32](repeating: -1, count: regions.count)
        initialActions = [ActionBlock?](repeating: nil, count: regions.count)
        for (region, spec) in regionSpecs where !spec.initialTargets.isEmpty || spec.initialAction != nil {
            let owner = regions[Int(region)].parent
            let described = "the initial transition of region '\(regions[Int(region)].name)'"
            let targets = try spec.initialTargets.map {
                try resolveTarget($0, referencedBy: described)
            }
            var pairs: [(Int32, Int32)] = []
            var entered: [Int32] = []
            for target in targets {
                switch target {
                case .state(let state):
                    let path = plan(below: [region], to: state)
                    guard !path.isEmpty else {
                        throw StatechartError.invalidTransition(
                            source: owner >= 0 ? states[Int(owner)].path : definition.name,
                            reason: "its initial state '\(states[Int(state)].path)' is not inside it"
                        )
                    }
                    pairs += path
                case .history(let history):
                    entered.append(history)
                    let historyOwner = histories[Int(history)].owner
                    if historyOwner != owner { pairs += plan(below: [region], to: historyOwner) }
                }
            }
            regionDefaults[Int(region)] = register(makeSwitch(scope: [region], plan: pairs, histories: entered))
            initialActions[Int(region)] = ActionBlock.boxing(spec.initialAction)
            if let first = pairs.first(where: { $0.0 == region })?.1 {
                regions[Int(region)] = regions[Int(region)].withInitial(first)
            } else if let history = entered.first,
                let first = zip(histories[Int(history)].defaultRegions, histories[Int(history)].defaultStates)
                    .first(where: { $0.0 == region })?.1
            {
                regions[Int(region)] = regions[Int(region)].withInitial(first)
            }
        }
    }
}
