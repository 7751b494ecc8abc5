import StateMachineHierarchy

// Resolving targets and initial states once every element is read, and the document-wide checks.
extension SCXMLBuilder {
    mutating func resolveInitial(of node: Int) throws(SCXMLError) {
        if initialTransition[node] != nil { return }
        let targets: [String]
        let line: Int
        if let attribute = initialAttribute[node] {
            targets = attribute.ids
            line = attribute.line
        } else {
            guard let first = nodes[node].children.first else { return }
            targets = [nodes[first].id]
            line = nodes[node].line
        }
        pending.append(
            PendingTransition(
                source: node,
                events: [],
                condition: nil,
                targets: targets,
                isInternal: true,
                actions: [],
                line: line,
                element: node == 0 ? "scxml" : "state"
            )
        )
        initialTransition[node] = pending.count - 1
    }

    /// `transition` with its targets looked up in `indexByID` (every state's id, the root's aside).
    func resolve(
        _ transition: PendingTransition,
        indexByID: [String: Int]
    ) throws(SCXMLError) -> SCXMLDocument.Transition {
        var targets: [Int] = []
        targets.reserveCapacity(transition.targets.count)
        for id in transition.targets {
            guard let index = indexByID[id] else {
                throw .unknownState(id: id, element: transition.element, line: transition.line)
            }
            targets.append(index)
        }
        return SCXMLDocument.Transition(
            source: transition.source,
            events: CompactList(transition.events),
            condition: transition.condition,
            targets: CompactList(targets),
            isInternal: transition.isInternal,
            actions: transition.actions,
            line: transition.line
        )
    }

    /// Checks the rules that need the whole tree: default entries and history defaults
    /// must target descendants; multiple targets must not be ancestors of one another.
    func validate(_ document: SCXMLDocument) throws(SCXMLError) {
        for (index, node) in document.nodes.enumerated() {
            if let initial = node.initialTransition {
                let transition = document.transitions[initial]
                for target in transition.targets where !document.isDescendant(target, of: index) {
                    throw .invalidStructure(
                        reason:
                            "the initial state '\(document.nodes[target].id)' is not inside '\(node.id.isEmpty ? "scxml" : node.id)'",
                        line: transition.line
                    )
                }
            }
            if case .history = node.kind, let transitionIndex = node.transitions.first {
                let transition = document.transitions[transitionIndex]
                for target in transition.targets where !document.isDescendant(target, of: node.parent) {
                    throw .invalidStructure(
                        reason:
                            "the default of history '\(node.id)' must be inside '\(document.nodes[node.parent].id)'",
                        line: transition.line
                    )
                }
                // A default that targets a history state could loop forever on entry.
                for target in transition.targets where document.isHistory(target) {
                    throw .invalidStructure(
                        reason:
                            "the default of history '\(node.id)' targets the history state '\(document.nodes[target].id)'",
                        line: transition.line
                    )
                }
            }
        }
        for transition in document.transitions {
            for a in transition.targets {
                for b in transition.targets where a != b && document.isDescendant(a, of: b) {
                    throw .invalidStructure(
                        reason: "targets '\(document.nodes[a].id)' and '\(document.nodes[b].id)' are nested",
                        line: transition.line
                    )
                }
            }
        }
    }
}
