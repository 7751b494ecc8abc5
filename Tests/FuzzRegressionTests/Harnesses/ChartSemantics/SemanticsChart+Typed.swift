import Foundation
import StateMachineHierarchy

/// The typed twin of a ``SemanticsChart``'s SCXML document.
typealias SemanticsTypedChart = Statechart<String, String, Never>

/// What a typed twin's blocks record, and the configuration `In()` reads.
///
/// SCXML's `In()` reads the configuration of the running microstep: a state is in it from
/// the moment it is entered (before its `<onentry>`) until it has been exited (after its
/// `<onexit>`). The typed DSL has no `In()`, so the twin's enter and exit blocks keep that
/// set here and its guards and `<if>`s read it: the W3C meaning, spelled with public API.
final class SemanticsProbe: @unchecked Sendable {
    // Invariant: `entries` and `active` are read and written only while holding `lock`
    // (the chart's blocks run on whichever thread drains it; in the harness, its own).
    private let lock = NSLock()
    private var entries: [String] = []
    private var active: Set<String> = []

    /// Appends `entry` to the trace.
    func record(_ entry: String) {
        lock.withLock { entries.append(entry) }
    }

    /// Appends a macrostep's trace.
    func record(contentsOf trace: [String]) {
        lock.withLock { entries += trace }
    }

    /// `state` is entered: it is active from now on (its enter block sees it).
    func entered(_ state: String) {
        lock.withLock {
            active.insert(state)
            entries.append("enter:\(state)")
        }
    }

    /// `state` has been exited (its exit block has run).
    func exited(_ state: String) {
        lock.withLock { _ = active.remove(state) }
    }

    /// Whether `state` has been entered and not exited since.
    func isActive(_ state: String) -> Bool {
        lock.withLock { active.contains(state) }
    }

    /// The trace recorded since the last call, which it clears.
    func takeTrace() -> [String] {
        lock.withLock {
            defer { entries = [] }
            return entries
        }
    }

    /// Starts over from `configuration` (a chart restored from a snapshot enters nothing).
    func reset(active configuration: [String]) {
        lock.withLock {
            active = Set(configuration)
            entries = []
        }
    }
}

extension SemanticsChart {
    /// The chart in the typed DSL, its blocks recording into `probe`.
    ///
    /// `named` gives every block a name, for the SCXML export (`ExportHarness`), whose
    /// placeholders are `<log label="NAME"/>` and `guard('NAME')`: the enter block of `s1`
    /// is `in.s1` and the exit block `out.s1`, recording `log:in.s1` (or `log:out.s1`) after
    /// the entry (or exit) instead of running the chart's content; transition `n`'s action
    /// is `t<n>`, recording `log:t<n>`; its guard is `g<n>`, holding the constant
    /// ``guardValues`` gives (a block's body is not exported, so `In()`, `<raise>` and
    /// `<if>` have no named form).
    func typedDefinition(probe: SemanticsProbe, named: Bool = false) -> SemanticsTypedChart.Definition {
        SemanticsTypedChart.Definition(name: "semantics", initial: rootInitial.map { states[$0].id }) {
            for child in rootChildren { typedState(child, probe: probe, named: named) }
        }
    }

    /// The value of each named guard (see ``typedDefinition(probe:named:)``): the
    /// condition read as if exactly the even-numbered states were active.
    var guardValues: [String: Bool] {
        var values: [String: Bool] = [:]
        for (number, transition) in transitions.enumerated() {
            if let condition = transition.condition { values["g\(number)"] = condition.holds { $0 % 2 == 0 } }
        }
        return values
    }

    /// The typed state `index`, with its children, blocks, histories and handlers.
    private func typedState(_ index: Int, probe: SemanticsProbe, named: Bool) -> SemanticsTypedChart.State {
        let state = states[index]
        var typed: SemanticsTypedChart.State
        switch state.kind {
        case .atomic:
            typed = SemanticsTypedChart.State(state.id)
        case .final:
            typed = SemanticsTypedChart.State(final: state.id)
        case .compound:
            typed = SemanticsTypedChart.State(state.id, initial: state.initial.map { states[$0].id }) {
                for child in state.children { typedState(child, probe: probe, named: named) }
            }
        case .parallel:
            typed = SemanticsTypedChart.State(parallel: state.id) {
                for child in state.children {
                    SemanticsTypedChart.Region { typedState(child, probe: probe, named: named) }
                }
            }
        }
        let id = state.id
        let ids = states.map(\.id)
        let onEntry = state.onEntry
        let onExit = state.onExit
        if named {
            typed = typed.onEnter(named: "in.\(id)") { _ in
                probe.entered(id)
                probe.record("log:in.\(id)")
            }
            typed = typed.onExit(named: "out.\(id)") { _ in
                probe.record("exit:\(id)")
                probe.record("log:out.\(id)")
                probe.exited(id)
            }
        } else {
            typed = typed.onEnter { context in
                probe.entered(id)
                Self.run(onEntry, ids: ids, probe: probe, context: context)
            }
            typed = typed.onExit { context in
                probe.record("exit:\(id)")
                Self.run(onExit, ids: ids, probe: probe, context: context)
                probe.exited(id)
            }
        }
        for number in state.histories {
            let history = histories[number]
            typed = typed.history(
                history.id,
                history.deep ? .deep : .shallow,
                default: states[history.defaultTarget].id
            )
        }
        for number in state.transitions {
            typed =
                named
                ? addingNamed(number, to: typed, probe: probe)
                : adding(transitions[number], to: typed, ids: ids, probe: probe)
        }
        return typed
    }

    /// `state` with `transition` added as the typed handler of the same meaning.
    private func adding(
        _ transition: Transition,
        to state: SemanticsTypedChart.State,
        ids: [String],
        probe: SemanticsProbe
    ) -> SemanticsTypedChart.State {
        let actions = transition.actions
        let action: SemanticsTypedChart.Action? =
            actions.isEmpty ? nil : { @Sendable context in Self.run(actions, ids: ids, probe: probe, context: context) }
        var guardBlock: SemanticsTypedChart.Guard?
        if let condition = transition.condition {
            guardBlock = { @Sendable _ in condition.holds { probe.isActive(ids[$0]) } }
        }
        return adding(transition, to: state, action: action, guard: guardBlock)
    }

    /// `state` with `transition`'s trigger, target and kind added as a handler running
    /// `action` behind `guardBlock`.
    private func adding(
        _ transition: Transition,
        to state: SemanticsTypedChart.State,
        action: SemanticsTypedChart.Action?,
        guard guardBlock: SemanticsTypedChart.Guard?
    ) -> SemanticsTypedChart.State {
        let source = states[transition.source].id
        let target: SemanticsTypedChart.Target =
            switch transition.target {
            case .state(let index): .state(states[index].id)
            case .history(let index): .history(histories[index].id)
            case nil: .state(source)
            }
        let kind: StatechartTransitionKind =
            transition.target == nil ? .internal : (isLocal(transition) ? .local : .external)
        switch transition.trigger {
        case .event(let descriptor):
            return state.on(descriptor, to: target, kind: kind, action: action, guard: guardBlock)
        case .eventless:
            return state.always(to: target, kind: kind, action: action, guard: guardBlock)
        case .done(let of, let viaOnDone):
            if viaOnDone {
                return state.onDone(of: states[of].id, to: target, kind: kind, action: action, guard: guardBlock)
            }
            return state.on("done.state.\(states[of].id)", to: target, kind: kind, action: action, guard: guardBlock)
        case .after(let seconds, _):
            return state.after(.seconds(seconds), to: target, kind: kind, action: action, guard: guardBlock)
        }
    }

    /// `state` with transition `number` added with a named action and guard in place of
    /// its blocks (see ``typedDefinition(probe:named:)``).
    private func addingNamed(
        _ number: Int,
        to state: SemanticsTypedChart.State,
        probe: SemanticsProbe
    ) -> SemanticsTypedChart.State {
        let transition = transitions[number]
        let holds = guardValues["g\(number)"]
        let action: SemanticsTypedChart.Action? =
            transition.actions.isEmpty ? nil : { @Sendable _ in probe.record("log:t\(number)") }
        let guardBlock: SemanticsTypedChart.Guard? = holds.map { value in { @Sendable _ in value } }
        return adding(transition, to: state, action: action, guard: guardBlock)
            .naming(action: action == nil ? nil : "t\(number)", guard: holds == nil ? nil : "g\(number)")
    }

    /// Runs executable content as the SCXML reader does: logs into the trace, raises on
    /// the chart's (internal) queue, `<if>` through the probe's configuration.
    private static func run(
        _ content: [Content],
        ids: [String],
        probe: SemanticsProbe,
        context: SemanticsTypedChart.Context
    ) {
        for element in content {
            switch element {
            case .log(let label):
                probe.record("log:\(label)")
            case .raise(let event):
                context.raise(event)
            case .branch(let condition, let then, let otherwise):
                let holds = condition.holds { probe.isActive(ids[$0]) }
                run(holds ? then : otherwise, ids: ids, probe: probe, context: context)
            }
        }
    }

    // MARK: Outline

    /// The typed chart as the Swift a regression test would write (`In("x")` stands for
    /// the probe's configuration, `log("L1")` for a trace entry).
    var typedOutline: String {
        var lines = [
            "Chart(name: \"semantics\"\(rootInitial.map { ", initial: \"\(states[$0].id)\"" } ?? ""), options: .scxml) {"
        ]
        for child in rootChildren { appendOutline(of: child, indent: "    ", to: &lines) }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// Appends the Swift of state `index` (and its children) to `lines`.
    private func appendOutline(of index: Int, indent: String, to lines: inout [String]) {
        let state = states[index]
        let inner = indent + "    "
        switch state.kind {
        case .atomic: lines.append("\(indent)State(\"\(state.id)\")")
        case .final: lines.append("\(indent)State(final: \"\(state.id)\")")
        case .compound:
            let initial = state.initial.map { ", initial: \"\(states[$0].id)\"" } ?? ""
            lines.append("\(indent)State(\"\(state.id)\"\(initial)) {")
            for child in state.children { appendOutline(of: child, indent: inner, to: &lines) }
            lines.append("\(indent)}")
        case .parallel:
            lines.append("\(indent)State(parallel: \"\(state.id)\") {")
            for child in state.children {
                lines.append("\(inner)Region {")
                appendOutline(of: child, indent: inner + "    ", to: &lines)
                lines.append("\(inner)}")
            }
            lines.append("\(indent)}")
        }
        if !state.onEntry.isEmpty { lines.append("\(inner).onEnter { \(outline(state.onEntry)) }") }
        if !state.onExit.isEmpty { lines.append("\(inner).onExit { \(outline(state.onExit)) }") }
        for number in state.histories {
            let history = histories[number]
            lines.append(
                "\(inner).history(\"\(history.id)\", .\(history.deep ? "deep" : "shallow"), default: \"\(states[history.defaultTarget].id)\")"
            )
        }
        for number in state.transitions { lines.append(inner + outline(transitions[number])) }
    }

    /// A handler modifier (`.on`, `.always`, `.onDone`, `.after`) as Swift.
    private func outline(_ transition: Transition) -> String {
        let target =
            switch transition.target {
            case .state(let index): "\"\(states[index].id)\""
            case .history(let index): ".history(\"\(histories[index].id)\")"
            case nil: "\"\(states[transition.source].id)\""
            }
        var arguments = ["to: \(target)"]
        if transition.target == nil {
            arguments.append("kind: .internal")
        } else if isLocal(transition) {
            arguments.append("kind: .local")
        }
        if !transition.actions.isEmpty { arguments.append("action: { \(outline(transition.actions)) }") }
        if let condition = transition.condition { arguments.append("guard: { \(outline(condition)) }") }
        let rest = arguments.joined(separator: ", ")
        switch transition.trigger {
        case .event(let descriptor): return ".on(\"\(descriptor)\", \(rest))"
        case .eventless: return ".always(\(rest))"
        case .done(let of, true): return ".onDone(of: \"\(states[of].id)\", \(rest))"
        case .done(let of, false): return ".on(\"done.state.\(states[of].id)\", \(rest))"
        case .after(let seconds, _): return ".after(.seconds(\(seconds)), \(rest))"
        }
    }

    /// A guard's body as Swift.
    private func outline(_ condition: Condition) -> String {
        switch condition {
        case .constant(let value): "\(value)"
        case .inState(let state): "In(\"\(states[state].id)\")"
        case .not(let inner): "!(\(outline(inner)))"
        case .and(let left, let right): "(\(outline(left)) && \(outline(right)))"
        case .or(let left, let right): "(\(outline(left)) || \(outline(right)))"
        }
    }

    /// An action's body as Swift.
    private func outline(_ content: [Content]) -> String {
        content.map { element in
            switch element {
            case .log(let label): "log(\"\(label)\")"
            case .raise(let event): "$0.raise(\"\(event)\")"
            case .branch(let condition, let then, let otherwise):
                "if \(outline(condition)) { \(outline(then)) } else { \(outline(otherwise)) }"
            }
        }.joined(separator: "; ")
    }
}
