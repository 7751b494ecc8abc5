extension Statechart {
    /// A statechart's declaration before it is compiled into a running ``Statechart``.
    ///
    /// Build one with the DSL (``init(name:initial:_:)``) or from JSON
    /// (``Statechart/definition(fromJSON:)-(String)``), then refine it by path: attach enter and exit
    /// blocks, add transitions, or give guards and actions to transitions by name.
    /// Editing is cheap; validation happens once, when ``Statechart/init(_:options:clock:)`` compiles it.
    ///
    /// Charts made from one definition (or from unedited copies of it) share its compiled
    /// form: the first compiles it, the others reuse the result, so each chart holds only
    /// its own configuration, histories, timers and queue.
    public struct Definition: Sendable {
        /// The root region's name (TBStateMachine's root machine name).
        public var name: String { didSet { compiled = CompiledCache() } }
        /// Edited only through ``modify(at:_:)``, which starts a new compiled cache (an
        /// observer here would copy the whole tree on every edit, as `modify` edits in place).
        var root: RegionSpec
        var forks: [ForkSpec] = [] { didSet { compiled = CompiledCache() } }
        var joins: [JoinSpec] = [] { didSet { compiled = CompiledCache() } }
        var junctions: [JunctionSpec] = [] { didSet { compiled = CompiledCache() } }
        /// Read from an SCXML document: its charts keep an SCXML session's sends and send
        /// ids (`SCXMLSends`), which other charts do without.
        package var isSCXMLSession = false { didSet { compiled = CompiledCache() } }
        /// What this declaration compiled to, shared by its unedited copies; every edit
        /// starts a new, empty one.
        private var compiled = CompiledCache()
        /// A definition named `name` whose root region holds `states` (and any pseudo
        /// states declared among them). The first state is the initial one unless
        /// `initial` names another.
        public init(name: String, initial: StateID? = nil, @StatesBuilder _ states: () -> [Element]) {
            self.name = name
            let elements = states()
            root = RegionSpec(states: Statechart.nodes(in: elements), initial: initial)
            for element in Statechart.pseudoStates(in: elements) {
                add(element)
            }
        }

        package init(name: String, root: RegionSpec) {
            self.name = name
            self.root = root
        }

        /// The compiled form under `options`: compiled the first time, then shared.
        /// - Throws: ``StatechartError`` naming the state, event or pseudo state at fault.
        package func compiledModel(options: StatechartOptions) throws -> Model {
            let key = CompiledCache.Key(options)
            if let model = compiled.models.withLock({ $0[key] }) { return model }
            var compiler = Compiler(self, options: options)
            let model = try compiler.compile()
            // Two threads may both compile a new definition; the first stored is the one kept.
            return compiled.models.withLock { models in
                if let stored = models[key] { return stored }
                models[key] = model
                return model
            }
        }

        private mutating func add(_ element: Element) {
            switch element.kind {
            case .node: break
            case .fork(let spec): forks.append(spec)
            case .join(let spec): joins.append(spec)
            case .junction(let spec): junctions.append(spec)
            }
        }

        // MARK: Editing by path

        /// The identifier of the state at `path` (for example `c/c2@1/c222`).
        /// - Throws: ``StatechartError/invalidPath(path:component:reason:)``.
        public func state(at path: String) throws -> StateID {
            try locateState(path).id
        }

        func isParallel(at path: String) throws -> Bool {
            if case .parallel = node(at: try locate(path)).content { return true }
            return false
        }

        func isSimple(at path: String) throws -> Bool {
            if case .simple = node(at: try locate(path)).content { return true }
            return false
        }

        /// Adds a handler with any trigger (the JSON builder's eventless, delayed and done transitions).
        mutating func addTransition(from source: String, trigger: Trigger, to target: Target) throws {
            let location = try locate(source)
            let handler = HandlerSpec(trigger: trigger, target: target, kind: .external, guardBlock: nil, action: nil)
            modify(at: location) { $0.handlers.append(handler) }
        }

        /// Changes the history pseudo state `name`, wherever it is declared.
        mutating func modifyHistory(named name: String, _ body: (inout HistorySpec) -> Void) throws {
            var found: [Step]?
            visit(root, location: [], path: "") { location, _, node in
                if node.histories.contains(where: { $0.name == name }) { found = location }
            }
            guard let location = found else {
                throw StatechartError.unknownPseudoState(name: name, referencedBy: "JSON")
            }
            modify(at: location) { node in
                for index in node.histories.indices where node.histories[index].name == name {
                    body(&node.histories[index])
                }
            }
        }

        /// Sets the block run when the state at `path` is entered, replacing any earlier one.
        public mutating func onEnter(at path: String, _ action: @escaping Action) throws {
            let location = try locate(path)
            modify(at: location) {
                $0.enter = action
                $0.enterName = nil
            }
        }

        /// Sets the block run when the state at `path` is exited, replacing any earlier one.
        public mutating func onExit(at path: String, _ action: @escaping Action) throws {
            let location = try locate(path)
            modify(at: location) {
                $0.exit = action
                $0.exitName = nil
            }
        }

        /// Adds a handler for `event` on the state at `source` that transitions to the state
        /// at `target`. It is tried after the handlers the state already has.
        public mutating func addTransition(
            from source: String,
            on event: EventID,
            to target: String,
            kind: StatechartTransitionKind = .external,
            action: Action? = nil,
            guard guardBlock: Guard? = nil
        ) throws {
            let targetID = try state(at: target)
            try addTransition(
                from: source,
                on: event,
                to: .state(targetID),
                kind: kind,
                action: action,
                guard: guardBlock
            )
        }

        /// Adds a handler for `event` on the state at `source` whose target is a state
        /// (by identifier) or a pseudo state (by name).
        public mutating func addTransition(
            from source: String,
            on event: EventID,
            to target: Target,
            kind: StatechartTransitionKind = .external,
            action: Action? = nil,
            guard guardBlock: Guard? = nil
        ) throws {
            addTransition(at: try locate(source), on: event, to: target, kind: kind, action: action, guard: guardBlock)
        }

        /// ``addTransition(from:on:to:kind:action:guard:)-(String,_,Target,_,_,_)`` for a
        /// source already located (the JSON reader resolves it once, to check it).
        mutating func addTransition(
            at location: [Step],
            on event: EventID,
            to target: Target,
            kind: StatechartTransitionKind,
            action: Action? = nil,
            guard guardBlock: Guard? = nil
        ) {
            let handler = HandlerSpec(
                trigger: .event(event),
                target: target,
                kind: kind,
                guardBlock: guardBlock,
                action: action
            )
            modify(at: location) { $0.handlers.append(handler) }
        }

        /// Declares a fork.
        public mutating func add(_ fork: Fork) { forks.append(fork.spec) }
        /// Declares a join.
        public mutating func add(_ join: Join) { joins.append(join.spec) }
        /// Declares a junction.
        public mutating func add(_ junction: Junction) { junctions.append(junction.spec) }

        /// Sets the guard of the transition(s) for event `name`: the JSON format names a
        /// transition by its event. Pass `source` when several states handle that event.
        /// - Throws: ``StatechartError/unknownTransition(name:)`` or
        ///   ``StatechartError/ambiguousTransition(name:sources:)``.
        public mutating func setGuard(
            forTransition name: EventID,
            from source: String? = nil,
            _ guardBlock: @escaping Guard
        ) throws {
            try modifyHandler(named: name, from: source) { $0.guardBlock = guardBlock }
        }

        /// Sets the action of the transition for event `name`; see ``setGuard(forTransition:from:_:)``.
        public mutating func setAction(
            forTransition name: EventID,
            from source: String? = nil,
            _ action: @escaping Action
        ) throws {
            try modifyHandler(named: name, from: source) {
                $0.action = action
                $0.actionName = nil
            }
        }

        mutating func modifyHandler(
            named name: EventID,
            from source: String?,
            _ body: (inout HandlerSpec) -> Void
        ) throws {
            var matches: [(location: [Step], index: Int, path: String)] = []
            if let source {
                let location = try locate(source)
                for (index, handler) in node(at: location).handlers.enumerated() where handler.event == name {
                    matches.append((location, index, source))
                }
            } else {
                visit(root, location: [], path: "") { location, path, node in
                    for (index, handler) in node.handlers.enumerated() where handler.event == name {
                        matches.append((location, index, path))
                    }
                }
            }
            guard let first = matches.first else {
                throw StatechartError.unknownTransition(name: statechartName(name))
            }
            guard matches.count == 1 else {
                throw StatechartError.ambiguousTransition(name: statechartName(name), sources: matches.map(\.path))
            }
            modify(at: first.location) { body(&$0.handlers[first.index]) }
        }

        // MARK: Locations

        /// One step down the tree: which region of the current node, then which state in it.
        struct Step {
            var region: Int
            var state: Int
        }

        func locate(_ text: String) throws -> [Step] {
            try locateState(text).location
        }

        /// Where the state at path `text` is, and its identifier, read where the walk ends
        /// (no state is copied on the way: a JSON chart resolves a path per transition end).
        func locateState(_ text: String) throws -> (location: [Step], id: StateID) {
            var location: [Step] = []
            let found = try StatechartPath.walk(text, over: self) { regionIndex, state in
                location.append(Step(region: regionIndex, state: state.index))
            }
            return (location, found.region.states[found.index].id)
        }

        func node(at location: [Step]) -> NodeSpec {
            var region = root
            var node = region.states[location[0].state]
            for step in location.dropFirst() {
                switch node.content {
                case .simple: preconditionFailure("locations come from locate(_:), which only descends into containers")
                case .composite(let inner): region = inner
                case .parallel(let regions): region = regions[step.region]
                }
                node = region.states[step.state]
            }
            return node
        }

        mutating func modify(at location: [Step], _ body: (inout NodeSpec) -> Void) {
            compiled = CompiledCache()
            Self.modify(&root, location[...], body)
        }

        private static func modify(
            _ region: inout RegionSpec,
            _ location: ArraySlice<[Step].Element>,
            _ body: (inout NodeSpec) -> Void
        ) {
            let step = location.first!
            let rest = location.dropFirst()
            if rest.isEmpty {
                body(&region.states[step.state])
                return
            }
            let next = rest.first!
            switch region.states[step.state].content {
            case .simple:
                preconditionFailure("locations come from locate(_:), which only descends into containers")
            case .composite(var inner):
                modify(&inner, rest, body)
                region.states[step.state].content = .composite(inner)
            case .parallel(var regions):
                modify(&regions[next.region], rest, body)
                region.states[step.state].content = .parallel(regions)
            }
        }

        private func visit(
            _ region: RegionSpec,
            location: [Step],
            path: String,
            _ body: ([Step], String, NodeSpec) -> Void
        ) {
            visitRegion(region, regionIndex: 0, location: location, prefix: path, body)
        }

        private func visitRegion(
            _ region: RegionSpec,
            regionIndex: Int,
            location: [Step],
            prefix: String,
            _ body: ([Step], String, NodeSpec) -> Void
        ) {
            for (index, node) in region.states.enumerated() {
                let here = location + [Step(region: regionIndex, state: index)]
                let path = prefix + statechartName(node.id)
                body(here, path, node)
                switch node.content {
                case .simple: break
                case .composite(let inner):
                    visitRegion(inner, regionIndex: 0, location: here, prefix: path + "/", body)
                case .parallel(let regions):
                    for (ri, inner) in regions.enumerated() {
                        visitRegion(inner, regionIndex: ri, location: here, prefix: path + "@\(ri)/", body)
                    }
                }
            }
        }
    }
}

/// A definition's tree as a path walks it: a state is its position in a region, so that
/// nothing is copied on the way.
extension Statechart.Definition: StatechartPathTree {
    /// A state found by a path walk: its region and its position there.
    struct PathState {
        let region: Statechart.RegionSpec
        let index: Int
    }

    var rootRegion: Statechart.RegionSpec { root }

    var rootRegionName: String { name }

    func state(named name: String, in region: Statechart.RegionSpec) -> PathState? {
        region.index(ofStateNamed: name).map { PathState(region: region, index: $0) }
    }

    func content(of state: PathState) -> StatechartPathContent<Statechart.RegionSpec> {
        switch state.region.states[state.index].content {
        case .simple: .simple
        case .composite(let inner): .composite(inner)
        case .parallel(let regions): .parallel(regions)
        }
    }
}
