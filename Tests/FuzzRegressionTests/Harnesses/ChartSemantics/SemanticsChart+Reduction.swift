extension SemanticsChart {
    /// A smaller chart and script that still fail `check` (a developer's aid, see
    /// `CHART_SEMANTICS_REDUCE`): parts are deleted one at a time, keeping each deletion
    /// after which the same check still fails, until no single deletion does.
    func reduced(failing check: String) -> SemanticsChart {
        var best = self
        var attempts = 0
        var improved = true
        while improved, attempts < 5_000 {
            improved = false
            for candidate in best.smallerCandidates {
                attempts += 1
                if ChartSemanticsHarness.findings(in: candidate)?.check == check {
                    best = candidate
                    improved = true
                    break
                }
            }
        }
        return best
    }

    /// The charts one deletion smaller: a script step, a transition, a condition, an
    /// action, an enter or exit element, an `<if>` (kept branch), a `type="internal"`, an
    /// `initial`, an unused history or an unreferenced leaf state.
    private var smallerCandidates: [SemanticsChart] {
        var result: [SemanticsChart] = []
        for index in script.indices.reversed() {
            var candidate = self
            candidate.script.remove(at: index)
            if candidate.snapshotAfter > index { candidate.snapshotAfter -= 1 }
            result.append(candidate)
        }
        for state in documentOrder {
            for (position, transition) in states[state].transitions.enumerated() {
                var candidate = self
                candidate.states[state].transitions.remove(at: position)
                candidate.states[state].timers.removeAll { $0 == transition }
                result.append(candidate)
            }
        }
        for state in documentOrder
        where states[state].parent.map({ states[$0].children.count > 1 }) ?? (rootChildren.count > 1) {
            guard states[state].children.isEmpty, !isReferenced(state) else { continue }
            var candidate = self
            if let parent = states[state].parent {
                candidate.states[parent].children.removeAll { $0 == state }
            } else {
                candidate.rootChildren.removeAll { $0 == state }
            }
            result.append(candidate)
        }
        for state in documentOrder {
            for (position, history) in states[state].histories.enumerated()
            where !liveTransitions.contains(where: { $0.target == .history(history) }) {
                var candidate = self
                candidate.states[state].histories.remove(at: position)
                result.append(candidate)
            }
            for smaller in Self.smaller(states[state].onEntry) {
                var candidate = self
                candidate.states[state].onEntry = smaller
                result.append(candidate)
            }
            for smaller in Self.smaller(states[state].onExit) {
                var candidate = self
                candidate.states[state].onExit = smaller
                result.append(candidate)
            }
            if states[state].initial != nil {
                var candidate = self
                candidate.states[state].initial = nil
                result.append(candidate)
            }
        }
        if rootInitial != nil {
            var candidate = self
            candidate.rootInitial = nil
            result.append(candidate)
        }
        for number in documentOrder.flatMap({ states[$0].transitions }) {
            if transitions[number].condition != nil {
                var candidate = self
                candidate.transitions[number].condition = nil
                result.append(candidate)
            }
            if transitions[number].isInternal {
                var candidate = self
                candidate.transitions[number].isInternal = false
                result.append(candidate)
            }
            for smaller in Self.smaller(transitions[number].actions) {
                var candidate = self
                candidate.transitions[number].actions = smaller
                result.append(candidate)
            }
        }
        return result
    }

    /// `content` with one element deleted, or one `<if>` replaced by either branch.
    private static func smaller(_ content: [Content]) -> [[Content]] {
        var result: [[Content]] = []
        for index in content.indices {
            var deleted = content
            deleted.remove(at: index)
            result.append(deleted)
            if case .branch(_, let then, let otherwise) = content[index] {
                for branch in [then, otherwise] {
                    var replaced = content
                    replaced.replaceSubrange(index...index, with: branch)
                    result.append(replaced)
                }
            }
        }
        return result
    }

    /// The transitions of the states in the tree, in document order.
    var liveTransitions: [Transition] {
        documentOrder.flatMap { states[$0].transitions }.map { transitions[$0] }
    }

    /// Whether anything in the tree names `state`: a target, a history default, an
    /// `initial`, an `In()` or a done trigger.
    private func isReferenced(_ state: Int) -> Bool {
        if rootInitial == state || documentOrder.contains(where: { states[$0].initial == state }) { return true }
        let liveHistories = documentOrder.flatMap { states[$0].histories }
        if liveHistories.contains(where: { histories[$0].defaultTarget == state }) { return true }
        func names(_ condition: Condition?) -> Bool {
            switch condition {
            case nil, .constant: false
            case .inState(let named): named == state
            case .not(let inner): names(inner)
            case .and(let left, let right), .or(let left, let right): names(left) || names(right)
            }
        }
        func names(_ content: [Content]) -> Bool {
            content.contains { element in
                if case .branch(let condition, let then, let otherwise) = element {
                    return names(condition) || names(then) || names(otherwise)
                }
                return false
            }
        }
        for transition in liveTransitions {
            if transition.target == .state(state) || names(transition.condition) || names(transition.actions) {
                return true
            }
            if case .done(let of, _) = transition.trigger, of == state { return true }
        }
        return documentOrder.contains { names(states[$0].onEntry) || names(states[$0].onExit) }
    }
}
