// The declarative model a chart is compiled from. The DSL, the JSON builder and the
// path-based editing API of `Definition` all produce these values; `Statechart.init`
// validates them and flattens them into the indexed tree the runtime steps through.

import StateMachineSupport

extension Statechart {
    package struct RegionSpec: Sendable {
        var states: [NodeSpec]
        package var initial: StateID?
        /// SCXML's initial transition: targets anywhere below the region (several, for
        /// parallel descendants, or history pseudo states), overriding `initial`.
        package var initialTargets: [Target] = []
        /// The initial transition's executable content, run after the owner's enter block.
        package var initialAction: Action? = nil
        /// The states' positions by name, made on the first lookup and shared by copies.
        private let names = StateNameIndex()

        /// Memberwise, for the whole package: the SCXML layer builds specs from documents.
        package init(
            states: [NodeSpec],
            initial: StateID?,
            initialTargets: [Target] = [],
            initialAction: Action? = nil
        ) {
            self.states = states
            self.initial = initial
            self.initialTargets = initialTargets
            self.initialAction = initialAction
        }

        /// The position of the state named `name`, as `states.firstIndex` finds it, in
        /// constant time once the region has been searched by name (paths are resolved one
        /// component at a time, so a JSON chart's transitions would otherwise cost states x
        /// transitions). An index that no longer fits `states` is not trusted.
        func index(ofStateNamed name: String) -> Int? {
            let index = names.positions.withLock { positions in
                if positions == nil {
                    var made: [String: Int] = [:]
                    for (position, state) in states.enumerated() where made[statechartName(state.id)] == nil {
                        made[statechartName(state.id)] = position
                    }
                    positions = made
                }
                return positions?[name]
            }
            if let index, index < states.count, statechartName(states[index].id) == name { return index }
            return states.firstIndex { statechartName($0.id) == name }
        }
    }

    /// A region's state positions by name (see `RegionSpec.index(ofStateNamed:)`).
    final class StateNameIndex: Sendable {
        let positions = Lock<[String: Int]?>(nil)
    }

    /// What a state holds. A composite's region is boxed (`indirect`), so that the many
    /// simple states of a large chart do not each carry a region's worth of inline space.
    package enum ContentSpec: Sendable {
        case simple
        indirect case composite(RegionSpec)
        case parallel([RegionSpec])
    }

    package struct NodeSpec: Sendable {
        var id: StateID
        var content: ContentSpec
        package var enter: Action?
        package var exit: Action?
        var handlers: [HandlerSpec]
        /// A final state: entering it completes its region (`done.state.<parent>`).
        package var isFinal = false
        /// What few states have, boxed (nil when all of it is empty), so that the many plain
        /// states of a large chart do not each carry its inline space.
        private var rare: SpecBox<RareNodeParts>?

        /// History pseudo states of this (composite or parallel) state.
        package var histories: [HistorySpec] {
            get { rare?.value.histories ?? [] }
            set { rare.updateParts { $0.histories = newValue } }
        }
        /// Events this state defers while it is active.
        var deferred: [EventID] {
            get { rare?.value.deferred ?? [] }
            set { rare.updateParts { $0.deferred = newValue } }
        }
        /// Work started on entry and cancelled on exit; its result is sent as an event.
        var task: StateTask? {
            get { rare?.value.task }
            set { rare.updateParts { $0.task = newValue } }
        }
        /// The names of the enter and exit blocks (``Statechart/State/onEnter(named:_:)``),
        /// which the SCXML export writes; nil for a block given without a name.
        var enterName: String? {
            get { rare?.value.enterName }
            set { rare.updateParts { $0.enterName = newValue } }
        }
        var exitName: String? {
            get { rare?.value.exitName }
            set { rare.updateParts { $0.exitName = newValue } }
        }
        /// `naming(action:guard:)` was used before the state had a transition: the
        /// compiler reports it (there is no transition to name).
        var namesWithoutTransition: Bool {
            get { rare?.value.namesWithoutTransition ?? false }
            set { rare.updateParts { $0.namesWithoutTransition = newValue } }
        }

        /// Memberwise, for the whole package: the SCXML layer builds specs from documents.
        package init(
            id: StateID,
            content: ContentSpec,
            enter: Action?,
            exit: Action?,
            handlers: [HandlerSpec],
            isFinal: Bool = false,
            histories: [HistorySpec] = [],
            deferred: [EventID] = [],
            task: StateTask? = nil
        ) {
            self.id = id
            self.content = content
            self.enter = enter
            self.exit = exit
            self.handlers = handlers
            self.isFinal = isFinal
            if !histories.isEmpty || !deferred.isEmpty || task != nil {
                rare = SpecBox(RareNodeParts(histories: histories, deferred: deferred, task: task))
            }
        }
    }

    /// The parts of a ``NodeSpec`` that few states have.
    struct RareNodeParts: RareSpecParts {
        var histories: [HistorySpec] = []
        var deferred: [EventID] = []
        var task: StateTask?
        var enterName: String?
        var exitName: String?
        var namesWithoutTransition = false

        var isEmpty: Bool {
            histories.isEmpty && deferred.isEmpty && task == nil && enterName == nil && exitName == nil
                && !namesWithoutTransition
        }
    }

    /// What makes a handler fire.
    package enum Trigger: Sendable {
        /// A named event.
        case event(EventID)
        /// Nothing: an eventless (completion) transition, tried after every step.
        case eventless
        /// The time the source state has been active.
        case after(Duration)
        /// The `done.state.<id>` event of the given state (of the source when nil).
        case done(StateID?)
    }

    package struct HandlerSpec: Sendable {
        var trigger: Trigger
        var target: Target
        var kind: StatechartTransitionKind
        var guardBlock: Guard?
        var action: Action?
        /// What few handlers have, boxed (nil when all of it is empty), so that the many
        /// handlers of a large chart do not each carry its inline space.
        private var rare: SpecBox<RareHandlerParts>?

        /// Memberwise, for the whole package: the SCXML layer builds specs from documents.
        package init(
            trigger: Trigger,
            target: Target,
            kind: StatechartTransitionKind,
            guardBlock: Guard?,
            action: Action?,
            guardName: String? = nil,
            extraEvents: [EventID] = [],
            extraTargets: [Target] = []
        ) {
            self.trigger = trigger
            self.target = target
            self.kind = kind
            self.guardBlock = guardBlock
            self.action = action
            if guardName != nil || !extraEvents.isEmpty || !extraTargets.isEmpty {
                let parts = RareHandlerParts(guardName: guardName, extraEvents: extraEvents, extraTargets: extraTargets)
                rare = SpecBox(parts)
            }
        }

        /// The guard's name, shown by diagrams; nil when the guard has none.
        var guardName: String? {
            get { rare?.value.guardName }
            set { rare.updateParts { $0.guardName = newValue } }
        }
        /// The action's name, shown by diagrams and written by the SCXML export; nil when
        /// the action has none.
        var actionName: String? {
            get { rare?.value.actionName }
            set { rare.updateParts { $0.actionName = newValue } }
        }
        /// More events that fire the handler (SCXML's `event="a b"`).
        package var extraEvents: [EventID] {
            get { rare?.value.extraEvents ?? [] }
            set { rare.updateParts { $0.extraEvents = newValue } }
        }
        /// More targets, entered together with `target` (SCXML's `target="a b"`): states
        /// or history pseudo states, in distinct regions of parallel states.
        package var extraTargets: [Target] {
            get { rare?.value.extraTargets ?? [] }
            set { rare.updateParts { $0.extraTargets = newValue } }
        }

        /// The named event, for handlers triggered by one.
        var event: EventID? {
            if case .event(let event) = trigger { event } else { nil }
        }
    }

    /// The parts of a ``HandlerSpec`` that few handlers have.
    struct RareHandlerParts: RareSpecParts {
        var guardName: String?
        var actionName: String?
        var extraEvents: [EventID] = []
        var extraTargets: [Target] = []

        var isEmpty: Bool { guardName == nil && actionName == nil && extraEvents.isEmpty && extraTargets.isEmpty }
    }

    package struct HistorySpec: Sendable {
        var name: String
        var kind: StatechartHistoryKind
        var defaultTarget: StateID?
        /// More default targets (SCXML's `<history><transition target="a b">`).
        var extraDefaultTargets: [StateID] = []
        /// The default transition's executable content, run after the owner's enter block
        /// when the default is taken.
        var defaultAction: Action? = nil

        /// Memberwise, for the whole package: the SCXML layer builds specs from documents.
        package init(
            name: String,
            kind: StatechartHistoryKind,
            defaultTarget: StateID?,
            extraDefaultTargets: [StateID] = [],
            defaultAction: Action? = nil
        ) {
            self.name = name
            self.kind = kind
            self.defaultTarget = defaultTarget
            self.extraDefaultTargets = extraDefaultTargets
            self.defaultAction = defaultAction
        }
    }

    /// A state-scoped task: the work of ``State/task(_:)``.
    package typealias StateTask = @Sendable (Payload?) async -> Event?

    struct ForkSpec: Sendable {
        var name: String
        var region: StateID
        var targets: [StateID]
    }

    struct JoinSpec: Sendable {
        var name: String
        var region: StateID
        var sources: [StateID]
        var target: StateID
    }

    struct JunctionSpec: Sendable {
        var name: String
        var paths: [Junction.Path]
    }

    /// One declaration collected by ``StatesBuilder``: a state, or a fork, join or junction
    /// declared beside the states. Opaque; build it with ``State``, ``Fork``, ``Join`` and ``Junction``.
    public struct Element: Sendable {
        let kind: ElementKind
    }

    enum ElementKind: Sendable {
        case node(NodeSpec)
        case fork(ForkSpec)
        case join(JoinSpec)
        case junction(JunctionSpec)
    }
}

/// The text used for an identifier in paths, logs and error messages.
func statechartName(_ value: some Any) -> String {
    if let string = value as? String { return string }
    return String(describing: value)
}

/// The parts of a spec that few states or handlers have, all empty when made with `init()`.
protocol RareSpecParts: Sendable {
    init()
    /// Whether every part is empty, so that the spec keeps no box.
    var isEmpty: Bool { get }
}

/// An immutable value on the heap: what a spec keeps of the parts few states or handlers
/// have, so that the others carry one nil reference instead (changing a part makes a new box).
final class SpecBox<Value: Sendable>: Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}

extension Optional {
    /// Changes the rare parts this box holds: a new box, or none when they are all empty
    /// again. In code not specialised for the chart's types (the library's builders and
    /// compiler) this costs some thousand instructions, for the generic types' metadata, so
    /// initialisers take the parts and builders set them only when there are some.
    mutating func updateParts<Parts: RareSpecParts>(_ change: (inout Parts) -> Void) where Wrapped == SpecBox<Parts> {
        var parts = self?.value ?? Parts()
        change(&parts)
        self = parts.isEmpty ? nil : SpecBox(parts)
    }
}
