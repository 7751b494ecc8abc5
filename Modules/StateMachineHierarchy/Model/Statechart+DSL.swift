extension Statechart {
    /// Declares a state: simple, composite (`State("a") { ... }`) or parallel
    /// (`State(parallel: "b") { Region { ... }; Region { ... } }`).
    ///
    /// Modifiers such as ``on(_:to:kind:guard:action:)`` and ``onEnter(_:)`` return a
    /// changed copy, so a state reads as one expression.
    public struct State: Sendable {
        var spec: NodeSpec
        var pseudoStates: [Element]

        /// A simple state.
        public init(_ id: StateID) {
            spec = NodeSpec(id: id, content: .simple, enter: nil, exit: nil, handlers: [])
            pseudoStates = []
        }

        /// A composite state with one nested region. Its initial state is `initial`, or the
        /// first state when `initial` is nil. Forks, joins and junctions may be declared
        /// among the children; they belong to the whole chart.
        public init(_ id: StateID, initial: StateID? = nil, @StatesBuilder _ children: () -> [Element]) {
            let elements = children()
            spec = NodeSpec(
                id: id,
                content: .composite(RegionSpec(states: Statechart.nodes(in: elements), initial: initial)),
                enter: nil,
                exit: nil,
                handlers: []
            )
            pseudoStates = Statechart.pseudoStates(in: elements)
        }

        /// A parallel (orthogonal) state with one region per ``Region``, entered and exited
        /// in declaration order.
        public init(parallel id: StateID, @RegionsBuilder _ regions: () -> [Region]) {
            let regions = regions()
            spec = NodeSpec(
                id: id,
                content: .parallel(
                    regions.map { RegionSpec(states: Statechart.nodes(in: $0.elements), initial: $0.initial) }
                ),
                enter: nil,
                exit: nil,
                handlers: []
            )
            pseudoStates = regions.flatMap { Statechart.pseudoStates(in: $0.elements) }
        }

        /// Runs `action` whenever the state is entered (after its parent, before its children).
        public func onEnter(_ action: @escaping Action) -> State {
            var copy = self
            copy.spec.enter = action
            return copy
        }

        /// Runs `action` whenever the state is exited (after its children, before its parent).
        public func onExit(_ action: @escaping Action) -> State {
            var copy = self
            copy.spec.exit = action
            return copy
        }

        /// Adds a handler for `event` that transitions to the state `target`.
        ///
        /// Handlers of one state are tried in the order they are added; the first whose
        /// guard passes fires. Handlers of inner states take priority over outer ones.
        public func on(
            _ event: EventID,
            to target: StateID,
            kind: StatechartTransitionKind = .external,
            action: Action? = nil,
            guard guardBlock: Guard? = nil
        ) -> State {
            on(event, to: .state(target), kind: kind, action: action, guard: guardBlock)
        }

        /// Adds a handler for `event` whose target is a state or a pseudo state.
        /// Transitions to pseudo states always behave as external ones.
        public func on(
            _ event: EventID,
            to target: Target,
            kind: StatechartTransitionKind = .external,
            action: Action? = nil,
            guard guardBlock: Guard? = nil
        ) -> State {
            var copy = self
            copy.spec.handlers.append(
                HandlerSpec(event: event, target: target, kind: kind, guardBlock: guardBlock, action: action)
            )
            return copy
        }

        /// Adds an internal transition for `event`: only `action` runs, nothing exits or enters.
        public func onInternal(_ event: EventID, action: Action? = nil, guard guardBlock: Guard? = nil) -> State {
            on(event, to: .state(spec.id), kind: .internal, action: action, guard: guardBlock)
        }
    }

    /// One region of a parallel state.
    public struct Region: Sendable {
        var elements: [Element]
        var initial: StateID?

        /// A region whose initial state is `initial`, or its first state when nil.
        public init(initial: StateID? = nil, @StatesBuilder _ states: () -> [Element]) {
            self.elements = states()
            self.initial = initial
        }
    }

    /// A fork: one transition into several regions of a parallel state at once.
    /// Regions without a target are entered through their initial state.
    public struct Fork: Sendable {
        var spec: ForkSpec

        /// A fork named `name` into the parallel state `region`, entering `targets`
        /// (at most one per region; they may sit deeper than the region's direct children).
        public init(_ name: String, region: StateID, targets: [StateID]) {
            spec = ForkSpec(name: name, region: region, targets: targets)
        }
    }

    /// A join: fires once every source (each in a region of `region`) has taken its
    /// handler to the join, then makes an external transition to `target`.
    public struct Join: Sendable {
        var spec: JoinSpec

        /// A join named `name` waiting for `sources` inside the parallel state `region`.
        /// Each source needs its own handler whose target is `.join(name)`.
        public init(_ name: String, region: StateID, sources: [StateID], target: StateID) {
            spec = JoinSpec(name: name, region: region, sources: sources, target: target)
        }
    }

    /// A junction (static conditional branch): its outgoing paths' guards are evaluated
    /// in order before anything exits, and the first that passes is taken.
    public struct Junction: Sendable {
        /// One outgoing path of a junction.
        public struct Path: Sendable {
            var target: StateID
            var guardBlock: Guard
            var action: Action?

            /// A path to `target`, taken when `guard` passes; `action` runs after the
            /// incoming transition's own action.
            public init(to target: StateID, guard guardBlock: @escaping Guard, action: Action? = nil) {
                self.target = target
                self.guardBlock = guardBlock
                self.action = action
            }
        }

        var spec: JunctionSpec

        /// A junction named `name` with its outgoing `paths`.
        public init(_ name: String, paths: [Path]) {
            spec = JunctionSpec(name: name, paths: paths)
        }
    }

    /// Collects the states (and pseudo states) of a region.
    @resultBuilder
    public enum StatesBuilder {
        /// A state.
        public static func buildExpression(_ state: State) -> [Element] {
            [Element(kind: .node(state.spec))] + state.pseudoStates
        }
        /// A fork.
        public static func buildExpression(_ fork: Fork) -> [Element] { [Element(kind: .fork(fork.spec))] }
        /// A join.
        public static func buildExpression(_ join: Join) -> [Element] { [Element(kind: .join(join.spec))] }
        /// A junction.
        public static func buildExpression(_ junction: Junction) -> [Element] {
            [Element(kind: .junction(junction.spec))]
        }
        /// Concatenates the declarations in order.
        public static func buildBlock(_ parts: [Element]...) -> [Element] { parts.flatMap { $0 } }
        /// An `if` without `else`.
        public static func buildOptional(_ part: [Element]?) -> [Element] { part ?? [] }
        /// The first branch of an `if`/`else`.
        public static func buildEither(first part: [Element]) -> [Element] { part }
        /// The second branch of an `if`/`else`.
        public static func buildEither(second part: [Element]) -> [Element] { part }
        /// A `for` loop.
        public static func buildArray(_ parts: [[Element]]) -> [Element] { parts.flatMap { $0 } }
    }

    /// Collects the regions of a parallel state.
    @resultBuilder
    public enum RegionsBuilder {
        /// A single region.
        public static func buildExpression(_ region: Region) -> [Region] { [region] }
        /// Concatenates the regions in order.
        public static func buildBlock(_ parts: [Region]...) -> [Region] { parts.flatMap { $0 } }
        /// A `for` loop.
        public static func buildArray(_ parts: [[Region]]) -> [Region] { parts.flatMap { $0 } }
    }
}

extension Statechart {
    static func nodes(in elements: [Element]) -> [NodeSpec] {
        elements.compactMap { if case .node(let node) = $0.kind { node } else { nil } }
    }

    static func pseudoStates(in elements: [Element]) -> [Element] {
        elements.filter { if case .node = $0.kind { false } else { true } }
    }
}
