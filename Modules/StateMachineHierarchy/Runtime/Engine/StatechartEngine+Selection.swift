// SCXML's transition selection (`ConflictResolution.documentOrder`): which handlers a
// microstep takes together. They are resolved by `choose(_:)` and taken by
// `takePicks()`, as TBStateMachine's dispatch does with one (`StatechartEngine+Step.swift`).

extension StatechartEngine {
    /// W3C SCXML's `selectTransitions` and `microstep`: every active atomic state, in
    /// document order, picks the first enabled handler on its way up; conflicting picks
    /// are resolved; then every pick's exits, actions and entries run together.
    func select(event: Int32) throws(StatechartError) -> Bool {
        // The usual microstep took one pick: `removeLast` drops it in a few instructions,
        // where `removeAll(keepingCapacity:)` is a generic `replaceSubrange` call.
        if picks.count == 1 { picks.removeLast() } else if !picks.isEmpty { picks.removeAll(keepingCapacity: true) }
        try collect(region: 0, event: event)
        guard !picks.isEmpty else { return false }
        removeConflicts()
        takePicks()
        return true
    }

    /// Picks, for every active atomic state below `region` in document order, the first
    /// enabled handler for `event` on its way up (see ``pickFirstEnabled(from:event:)``).
    private func collect(region: Int32, event: Int32) throws(StatechartError) {
        let active = slots.current[Int(region)]
        guard active >= 0 else { return }
        let state = tables.hot[Int(active)]
        if state.kind == .simple {
            try pickFirstEnabled(from: active, event: event)
            return
        }
        for slot in Int(state.regionStart)..<Int(state.regionStart + state.regionCount) {
            try collect(region: tables.childRegions[slot], event: event)
        }
    }

    /// The first enabled handler for `event` of `atomic` or its nearest ancestor that has one.
    private func pickFirstEnabled(from atomic: Int32, event: Int32) throws(StatechartError) {
        var state = atomic
        while true {
            let range = handlerRange(state: state, event: event)
            if !range.isEmpty, let log { logWillHandle(state: state, event: event, log) }
            for slot in range {
                let index = Int(tables.handlerList[slot])
                // Picked already for another atomic state: the same guards pass again.
                if picks.contains(where: { $0.handler == Int32(truncatingIfNeeded: index) }) { return }
                if let pick = try choose(index) {
                    picks.append(pick)
                    return
                }
            }
            let owner = tables.regionParents[Int(tables.hot[Int(state)].parent)]
            guard owner >= 0 else { return }
            state = owner
        }
    }

    /// SCXML's `removeConflictingTransitions`: of two picks whose exit scopes overlap, one
    /// whose source is a descendant of the other's replaces it; otherwise the later goes.
    private func removeConflicts() {
        guard picks.count > 1 else { return }
        var kept: [Pick] = []
        kept.reserveCapacity(picks.count)
        for candidate in picks {
            var preempted = false
            var replaced: [Int] = []
            for (position, earlier) in kept.enumerated() where scopesOverlap(candidate.change, earlier.change) {
                if isState(
                    tables.handlers[Int(candidate.handler)].source,
                    below: tables.handlers[Int(earlier.handler)].source
                ) {
                    replaced.append(position)
                } else {
                    preempted = true
                    break
                }
            }
            guard !preempted else { continue }
            for position in replaced.reversed() { kept.remove(at: position) }
            kept.append(candidate)
        }
        picks = kept
    }

    /// Whether two switches exit states of one region (one scope at or inside the other).
    private func scopesOverlap(_ first: Int32, _ second: Int32) -> Bool {
        guard first >= 0, second >= 0 else { return false }
        let a = tables.switches[Int(first)]
        let b = tables.switches[Int(second)]
        for i in Int(a.scopeStart)..<Int(a.scopeStart + a.scopeCount) {
            let left = tables.scopeRegions[i]
            for j in Int(b.scopeStart)..<Int(b.scopeStart + b.scopeCount) {
                let right = tables.scopeRegions[j]
                if left == right || isRegion(left, inside: right) || isRegion(right, inside: left) { return true }
            }
        }
        return false
    }

    /// Whether `state` is a proper descendant of `ancestor`.
    private func isState(_ state: Int32, below ancestor: Int32) -> Bool {
        var current = state
        while true {
            let owner = tables.regionParents[Int(tables.hot[Int(current)].parent)]
            guard owner >= 0 else { return false }
            if owner == ancestor { return true }
            current = owner
        }
    }

    /// Whether `region` lies (at any depth) inside `outer`.
    private func isRegion(_ region: Int32, inside outer: Int32) -> Bool {
        var current = region
        while true {
            let owner = tables.regionParents[Int(current)]
            guard owner >= 0 else { return false }
            current = tables.hot[Int(owner)].parent
            if current == outer { return true }
        }
    }
}
