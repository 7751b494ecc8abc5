/// A tree of regions holding named states, which a ``StatechartPath`` is walked down: the
/// definition before it is compiled (`Statechart.Definition`, whose refinements find states
/// by path) and the compiled topology (`Topology`, for ``Statechart/state(at:)``, snapshots
/// and subscriptions). Both walk with ``StatechartPath/walk(_:over:visit:)``, so a path means
/// the same state, and a bad path the same error, before and after compiling.
protocol StatechartPathTree {
    /// A region: where a component's name is looked up.
    associatedtype Region
    /// A state found by name in a region.
    associatedtype State

    /// The top region.
    var rootRegion: Region { get }
    /// The top region's name, which errors about it show (the chart's name).
    var rootRegionName: String { get }
    /// The state named `name` in `region`, or nil.
    func state(named name: String, in region: Region) -> State?
    /// What `state` holds below it.
    func content(of state: State) -> StatechartPathContent<Region>
}

/// What a state holds below it, as a path walk sees it.
enum StatechartPathContent<Region> {
    case simple
    case composite(Region)
    /// The regions, in order: a path picks one with `@<region index>`.
    case parallel([Region])
}

extension StatechartPath {
    /// Walks `text` down `tree`: calls `visit` with each state on the way, and the index of
    /// the region it was found in among its owner's regions (0 at the top and below a
    /// composite state), and returns the last.
    ///
    /// A top-level name, the usual path of a flat chart, is its own one component: it is not
    /// parsed (a JSON chart resolves a path per transition end).
    /// - Throws: ``StatechartError/invalidPath(path:component:reason:)`` naming the component
    ///   that is unknown, goes below a simple state, lacks its `@index` or has one it may not.
    static func walk<Tree: StatechartPathTree>(
        _ text: String,
        over tree: Tree,
        visit: (_ regionIndex: Int, _ state: Tree.State) -> Void = { _, _ in }
    ) throws -> Tree.State {
        let components =
            !text.isEmpty && !hasSeparator(text)
            ? [Component(name: text, region: nil)] : try StatechartPath(text).components
        var region = tree.rootRegion
        var regionIndex = 0
        // The region's owner, for its name in an error: nil for the top region.
        var owner: Component?
        func find(_ component: Component) throws -> Tree.State {
            guard let state = tree.state(named: component.name, in: region) else {
                // TBStateMachine's machine names, which the compiler gives its regions too.
                let regionName =
                    switch (owner, owner?.region) {
                    case (nil, _): tree.rootRegionName
                    case (let owner?, nil): "\(owner.name)SubMachine"
                    case (let owner?, let index?): "\(owner.name)SubMachine-\(index)"
                    }
                throw StatechartError.invalidPath(
                    path: text,
                    component: component.name,
                    reason: "region '\(regionName)' has no state named '\(component.name)'"
                )
            }
            visit(regionIndex, state)
            return state
        }
        for component in components.dropLast() {
            let state = try find(component)
            switch tree.content(of: state) {
            case .simple:
                throw StatechartError.invalidPath(
                    path: text,
                    component: component.name,
                    reason: "'\(component.name)' is a simple state and has no sub states"
                )
            case .composite(let inner):
                if component.region != nil {
                    throw StatechartError.invalidPath(
                        path: text,
                        component: component.name,
                        reason: "'\(component.name)' is not a parallel state, so it takes no region index"
                    )
                }
                region = inner
                regionIndex = 0
            case .parallel(let regions):
                guard let chosen = component.region else {
                    throw StatechartError.invalidPath(
                        path: text,
                        component: component.name,
                        reason: "'\(component.name)' is a parallel state; add '@<region index>' (0..<\(regions.count))"
                    )
                }
                guard chosen < regions.count else {
                    throw StatechartError.invalidPath(
                        path: text,
                        component: "\(component.name)@\(chosen)",
                        reason: "'\(component.name)' has \(regions.count) regions"
                    )
                }
                region = regions[chosen]
                regionIndex = chosen
            }
            owner = component
        }
        // A parsed path has at least one component, as has a top-level name.
        return try find(components[components.count - 1])
    }
}
