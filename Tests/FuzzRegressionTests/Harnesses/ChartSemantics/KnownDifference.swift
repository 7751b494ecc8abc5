import Foundation

/// The chart shapes of the five semantic differences issue 29 lists (and of those this
/// fuzzer found since), for skipping them
/// *while developing* (environment variable `CHART_SEMANTICS_SKIP`, comma-separated names
/// or `all`). Nothing is skipped unless that variable is set: the committed harness, the
/// regression tests and CI check every input.
///
/// Each shape is a static over-approximation: an input whose chart has it is not run at all.
enum KnownDifference: String, CaseIterable, Sendable {
    /// 1: `In()` sees a state the microstep already left. Shape: an `In()` in executable
    /// content (a guard's `In()` is evaluated before anything exits, and stays checked).
    case staleIn = "stale-in"
    /// 2: a typed transition whose scope is a region of a parallel state is not widened to
    /// the parallel state's own parent region. Shape: such a transition.
    case regionWidening = "region-widening"
    /// 3: a typed transition from inside a state to that state's own history leaves the
    /// state. Shape: a history target whose owner contains the source.
    case ownHistory = "own-history"
    /// 4: a typed history transition ignores the record its own exit makes. Shape: a
    /// history target whose owner can be active together with the source.
    case historyRecord = "history-record"
    /// 5: a typed `.scxml` chart raises no `done.state.<id>` for a parallel state. Shape: a
    /// final state inside a parallel state.
    case parallelDone = "parallel-done"
    /// Found by this fuzzer (not in issue 29's list): in a typed `.scxml` chart, an
    /// `onDone(of: x)` handler hides every descriptor handler (`done`, `*`,
    /// `on("done.state.x")`) from `done.state.x`. Shape: `onDone(of: x)` and a descriptor
    /// that matches `done.state.x`.
    case onDoneHidesDescriptors = "ondone-hides-descriptors"

    /// The differences named by `setting` (`all` for every one); empty when it is nil.
    static func skipped(_ setting: String?) -> Set<KnownDifference> {
        guard let setting else { return [] }
        let names = setting.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if names.contains("all") { return Set(allCases) }
        return Set(names.compactMap(KnownDifference.init(rawValue:)))
    }
}

extension SemanticsChart {
    /// The shapes of known differences this chart has.
    var knownDifferences: Set<KnownDifference> {
        var found = Set<KnownDifference>()
        let content =
            documentOrder.flatMap { states[$0].onEntry + states[$0].onExit } + liveTransitions.flatMap(\.actions)
        if content.contains(where: \.readsConfiguration) { found.insert(.staleIn) }
        for transition in liveTransitions {
            guard let target = transition.target, !isLocal(transition) else { continue }
            let source = transition.source
            let goal: Int
            switch target {
            case .state(let state):
                goal = state
            case .history(let number):
                goal = histories[number].owner
                if isDescendant(source, of: goal) { found.insert(.ownHistory) }
                let common = commonAncestor(source, goal)
                if common == source || common == goal || common.map({ states[$0].kind == .parallel }) == true {
                    found.insert(.historyRecord)
                }
            }
            // A history transition goes where the record or the default says: any state inside.
            let goals = if case .history = target { [goal] + descendants(of: goal) } else { [goal] }
            if goals.contains(where: { scopeOwner(source, $0).map { states[$0].kind == .parallel } == true }) {
                found.insert(.regionWidening)
            }
        }
        for case .done(let state, true) in liveTransitions.map(\.trigger) {
            let matching = ["*", "done", "done.state", "done.state.\(states[state].id)"]
            if liveTransitions.contains(where: {
                eventName(of: $0.trigger).map(matching.contains) == true
                    && $0.trigger != .done(of: state, viaOnDone: true)
            }) {
                found.insert(.onDoneHidesDescriptors)
            }
        }
        if documentOrder.contains(where: {
            states[$0].kind == .final && chain($0).dropFirst().contains { states[$0].kind == .parallel }
        }) {
            found.insert(.parallelDone)
        }
        return found
    }

    /// The state owning the least common region of an external transition from `source`
    /// to `target` (nil for the root region), before SCXML's widening.
    private func scopeOwner(_ source: Int, _ target: Int) -> Int? {
        guard let common = commonAncestor(source, target) else { return nil }
        if common == source || common == target { return states[common].parent }
        return states[common].kind == .parallel ? states[common].parent : common
    }
}
