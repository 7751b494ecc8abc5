// A definition as plain values, every identifier as text and every block reduced to its
// name: what the SCXML export (StateMachineSCXML's `SCXMLDocument.export`) writes a
// document from, without that module reading the specs (or Hierarchy knowing SCXML).

/// A definition's tree for the SCXML export (see `Statechart.Definition.exportOutline`).
package struct StatechartExportOutline: Sendable {
    /// A block: none, one with a name, or one given without a name (which SCXML cannot show).
    package enum Block: Sendable, Equatable {
        case none
        case named(String)
        case unnamed
    }

    /// A region: its states, the initial state's name (nil: the first), and the initial
    /// transition an SCXML document may give instead (targets, and whether it has content).
    package struct Region: Sendable {
        package var states: [State]
        package var initial: String?
        package var initialTargets: [Target]
        package var initialAction: Block
    }

    /// What a state holds.
    package indirect enum Content: Sendable {
        case simple
        case composite(Region)
        case parallel([Region])
    }

    /// What makes a transition fire.
    package enum Trigger: Sendable, Equatable {
        case event(String)
        case eventless
        case after(Duration)
        /// The done event of the named state (the source when nil).
        case done(String?)
    }

    /// A transition's target, by name.
    package enum Target: Sendable, Equatable {
        case state(String)
        case history(String)
        case fork(String)
        case join(String)
        case junction(String)
    }

    /// A transition (a handler), in the order the state tries them.
    package struct Transition: Sendable {
        package var trigger: Trigger
        /// More events that fire it (SCXML's `event="a b"`).
        package var extraEvents: [String]
        package var targets: [Target]
        package var kind: StatechartTransitionKind
        package var guardBlock: Block
        package var action: Block
    }

    /// A history pseudo state.
    package struct History: Sendable {
        package var name: String
        package var deep: Bool
        /// The default targets; empty when the history has no default (its owner's initial
        /// states are entered).
        package var defaults: [String]
        package var defaultAction: Block
    }

    /// A state.
    package struct State: Sendable {
        package var id: String
        package var content: Content
        package var isFinal: Bool
        package var enter: Block
        package var exit: Block
        package var transitions: [Transition]
        package var histories: [History]
        package var deferred: [String]
        package var hasTask: Bool
    }

    /// A fork: its parallel state and the states it enters there.
    package struct Fork: Sendable {
        package var name: String
        package var region: String
        package var targets: [String]
    }

    package var name: String
    package var root: Region
    package var forks: [Fork]
    /// The names of the joins and junctions, which SCXML has no element for.
    package var joins: [String]
    package var junctions: [String]
}

extension Statechart.Definition {
    /// The definition as plain values for the SCXML export.
    package var exportOutline: StatechartExportOutline {
        StatechartExportOutline(
            name: name,
            root: Self.outline(root),
            forks: forks.map {
                .init(name: $0.name, region: statechartName($0.region), targets: $0.targets.map(statechartName))
            },
            joins: joins.map(\.name),
            junctions: junctions.map(\.name)
        )
    }

    private static func outline(_ region: Statechart.RegionSpec) -> StatechartExportOutline.Region {
        StatechartExportOutline.Region(
            states: region.states.map(outline),
            initial: region.initial.map(statechartName),
            initialTargets: region.initialTargets.map(outline),
            initialAction: block(region.initialAction, named: nil)
        )
    }

    private static func outline(_ node: Statechart.NodeSpec) -> StatechartExportOutline.State {
        let content: StatechartExportOutline.Content =
            switch node.content {
            case .simple: .simple
            case .composite(let inner): .composite(outline(inner))
            case .parallel(let regions): .parallel(regions.map(outline))
            }
        return StatechartExportOutline.State(
            id: statechartName(node.id),
            content: content,
            isFinal: node.isFinal,
            enter: block(node.enter, named: node.enterName),
            exit: block(node.exit, named: node.exitName),
            transitions: node.handlers.map(outline),
            histories: node.histories.map { history in
                StatechartExportOutline.History(
                    name: history.name,
                    deep: history.kind == .deep,
                    defaults: (history.defaultTarget.map { [$0] } ?? []).map(statechartName)
                        + history.extraDefaultTargets.map(statechartName),
                    defaultAction: block(history.defaultAction, named: nil)
                )
            },
            deferred: node.deferred.map(statechartName),
            hasTask: node.task != nil
        )
    }

    private static func outline(_ handler: Statechart.HandlerSpec) -> StatechartExportOutline.Transition {
        let trigger: StatechartExportOutline.Trigger =
            switch handler.trigger {
            case .event(let event): .event(statechartName(event))
            case .eventless: .eventless
            case .after(let delay): .after(delay)
            case .done(let state): .done(state.map(statechartName))
            }
        return StatechartExportOutline.Transition(
            trigger: trigger,
            extraEvents: handler.extraEvents.map(statechartName),
            targets: ([handler.target] + handler.extraTargets).map(outline),
            kind: handler.kind,
            guardBlock: handler.guardBlock == nil ? .none : handler.guardName.map { .named($0) } ?? .unnamed,
            action: block(handler.action, named: handler.actionName)
        )
    }

    private static func outline(_ target: Statechart.Target) -> StatechartExportOutline.Target {
        switch target {
        case .state(let state): .state(statechartName(state))
        case .history(let name): .history(name)
        case .fork(let name): .fork(name)
        case .join(let name): .join(name)
        case .junction(let name): .junction(name)
        }
    }

    private static func block(_ block: Statechart.Action?, named name: String?) -> StatechartExportOutline.Block {
        guard block != nil else { return .none }
        return name.map { .named($0) } ?? .unnamed
    }
}
