extension Statechart {
    /// Declares a state: simple, composite (`State("a") { ... }`) or parallel
    /// (`State(parallel: "b") { Region { ... }; Region { ... } }`).
    ///
    /// Modifiers such as ``on(_:to:kind:action:guard:)-(_,StateID,_,_,_)`` and ``onEnter(_:)`` return a
    /// changed copy, so a state reads as one expression.
    public struct State: Sendable {
        var spec: NodeSpec
        var pseudoStates: [Element]

        /// A simple state.
        public init(_ id: StateID) {
            spec = NodeSpec(id: id, content: .simple, enter: nil, exit: nil, handlers: [])
            pseudoStates = []
        }

        /// A final state: entering it completes its region. When every region of the
        /// parent state is complete, the `done.state.<parent>` event is raised (see
        /// ``onDone(of:to:kind:action:guard:)-(_,StateID,_,_,_)``); a final state of the root region
        /// finishes the chart (``Statechart/isFinished``). A final state has no
        /// children and no outgoing transitions.
        public init(final id: StateID) {
            spec = NodeSpec(id: id, content: .simple, enter: nil, exit: nil, handlers: [], isFinal: true)
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
            copy.spec.enterName = nil
            return copy
        }

        /// Runs `action` whenever the state is exited (after its children, before its parent).
        public func onExit(_ action: @escaping Action) -> State {
            var copy = self
            copy.spec.exit = action
            copy.spec.exitName = nil
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
                HandlerSpec(trigger: .event(event), target: target, kind: kind, guardBlock: guardBlock, action: action)
            )
            return copy
        }

        /// Adds an internal transition for `event`: only `action` runs, nothing exits or enters.
        public func onInternal(_ event: EventID, action: Action? = nil, guard guardBlock: Guard? = nil) -> State {
            on(event, to: .state(spec.id), kind: .internal, action: action, guard: guardBlock)
        }

        /// Adds an eventless (completion) transition: after every step, until the
        /// configuration is stable, each active state's eventless transitions are tried
        /// (inner states first, in the order added) and the first whose guard passes is
        /// taken. A chain that never settles fails the step with
        /// ``StatechartError/eventlessLoop(limit:cycle:)``.
        public func always(
            to target: Target,
            kind: StatechartTransitionKind = .external,
            action: Action? = nil,
            guard guardBlock: Guard? = nil
        ) -> State {
            adding(.eventless, target, kind, action, guardBlock)
        }

        /// Adds an eventless transition to the state `target`; see ``always(to:kind:action:guard:)-(Statechart<StateID,EventID,Payload>.Target,_,_,_)``.
        public func always(
            to target: StateID,
            kind: StatechartTransitionKind = .external,
            action: Action? = nil,
            guard guardBlock: Guard? = nil
        ) -> State {
            always(to: .state(target), kind: kind, action: action, guard: guardBlock)
        }

        /// Adds a delayed transition, taken once the state has been active for `delay`
        /// (and the guard, evaluated then, passes). The timer starts on entry, runs on the
        /// chart's ``StatechartClock`` and is cancelled when the state exits, so a
        /// transition from an exited state is never taken.
        public func after(
            _ delay: Duration,
            to target: Target,
            kind: StatechartTransitionKind = .external,
            action: Action? = nil,
            guard guardBlock: Guard? = nil
        ) -> State {
            adding(.after(delay), target, kind, action, guardBlock)
        }

        /// Adds a delayed transition to the state `target`; see ``after(_:to:kind:action:guard:)-(_,Statechart<StateID,EventID,Payload>.Target,_,_,_)``.
        public func after(
            _ delay: Duration,
            to target: StateID,
            kind: StatechartTransitionKind = .external,
            action: Action? = nil,
            guard guardBlock: Guard? = nil
        ) -> State {
            after(delay, to: .state(target), kind: kind, action: action, guard: guardBlock)
        }

        /// Adds a handler for the `done.state.<id>` event of `state` (this state when nil):
        /// raised when every region of that composite or parallel state has reached a
        /// final state. Done events go to the internal queue, ahead of queued events.
        public func onDone(
            of state: StateID? = nil,
            to target: Target,
            kind: StatechartTransitionKind = .external,
            action: Action? = nil,
            guard guardBlock: Guard? = nil
        ) -> State {
            adding(.done(state), target, kind, action, guardBlock)
        }

        /// Adds a handler for a done event with the state `target`; see ``onDone(of:to:kind:action:guard:)-(_,Statechart<StateID,EventID,Payload>.Target,_,_,_)``.
        public func onDone(
            of state: StateID? = nil,
            to target: StateID,
            kind: StatechartTransitionKind = .external,
            action: Action? = nil,
            guard guardBlock: Guard? = nil
        ) -> State {
            onDone(of: state, to: .state(target), kind: kind, action: action, guard: guardBlock)
        }

        /// Declares a history pseudo state named `name` in this composite or parallel
        /// state. Target it with ``Statechart/Target/history(_:)``: the state is entered
        /// with what it had active when it last exited (its children for `.shallow`, its
        /// whole sub-configuration for `.deep`), or, before it has ever exited, through
        /// `defaultTarget` (a state inside it) or its initial states.
        public func history(
            _ name: String,
            _ kind: StatechartHistoryKind = .shallow,
            default defaultTarget: StateID? = nil
        ) -> State {
            var copy = self
            copy.spec.histories.append(HistorySpec(name: name, kind: kind, defaultTarget: defaultTarget))
            return copy
        }

        /// Starts `work` each time the state is entered (with the payload of the entering
        /// step) and cancels it when the state exits. The event it returns, if any, is
        /// queued like an event from outside, unless the state has exited by then: a
        /// cancelled or outdated task never triggers a transition. Errors are the work's
        /// to turn into events. The statechart form of an invoked actor.
        public func task(_ work: @escaping @Sendable (Payload?) async -> Event?) -> State {
            var copy = self
            copy.spec.task = work
            return copy
        }

        /// Defers `events` while this state is active (UML deferral): an event that no
        /// active state handles, and that an active state defers, is kept instead of
        /// dropped, and replayed, in arrival order and ahead of queued events, after the
        /// first step that leaves no active state deferring it.
        public func deferring(_ events: EventID...) -> State {
            var copy = self
            copy.spec.deferred += events
            return copy
        }

        private func adding(
            _ trigger: Trigger,
            _ target: Target,
            _ kind: StatechartTransitionKind,
            _ action: Action?,
            _ guardBlock: Guard?
        ) -> State {
            var copy = self
            copy.spec.handlers.append(
                HandlerSpec(trigger: trigger, target: target, kind: kind, guardBlock: guardBlock, action: action)
            )
            return copy
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
