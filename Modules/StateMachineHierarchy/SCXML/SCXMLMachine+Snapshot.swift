extension SCXMLMachine {
    /// The machine's state, pending sends measured against the clock's `now`.
    func snapshot() -> SCXMLSnapshot {
        let now = clock.now
        let sends = pendingSends.sorted { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }
        var history: [String: [String]] = [:]
        for (node, states) in historyValue {
            history[document.nodes[node].id] = states.map { document.nodes[$0].id }
        }
        return SCXMLSnapshot(
            configuration: document.nodes.indices.filter { $0 > 0 && active[$0] }.map { document.nodes[$0].id },
            history: history,
            internalQueue: Array(internalQueue[queueHead...]),
            externalQueue: Array(externalQueue[externalHead...]),
            locations: locations,
            generatedSendIDCount: generatedSendIDCount,
            pendingSends: sends.map { _, send in
                SCXMLSnapshot.PendingSend(
                    event: send.event,
                    sendID: send.sendID,
                    remaining: max(send.deadline - now, .zero)
                )
            },
            isRunning: isRunning,
            isDone: isDone
        )
    }

    /// Replaces this fresh machine's state with `snapshot`'s, after checking that it fits
    /// the document. Pending sends are due at `clock.now + remaining`, in the snapshot's
    /// order; their timers are armed by the interpreter.
    mutating func restore(_ snapshot: SCXMLSnapshot) throws(SCXMLError) {
        var configuration = [Bool](repeating: false, count: document.nodes.count)
        for id in snapshot.configuration {
            let index = try stateIndex(id, "in the configuration")
            if document.isHistory(index) {
                throw .invalidSnapshot(id: id, reason: "a history state cannot be active")
            }
            configuration[index] = true
        }
        try checkLegal(configuration, snapshot)

        var history: [Int: [Int]] = [:]
        for (id, remembered) in snapshot.history {
            let index = try stateIndex(id, "in the history values")
            guard case let .history(deep) = document.nodes[index].kind else {
                throw .invalidSnapshot(id: id, reason: "has a history value but is not a <history> state")
            }
            let parent = document.nodes[index].parent
            var states: [Int] = []
            for stateID in remembered {
                let state = try stateIndex(stateID, "in the value of history '\(id)'")
                let fits =
                    deep
                    ? document.isAtomic(state) && document.isDescendant(state, of: parent)
                    : document.nodes[state].parent == parent && !document.isHistory(state)
                guard fits else {
                    throw .invalidSnapshot(
                        id: stateID,
                        reason:
                            "cannot be remembered by the \(deep ? "deep" : "shallow") history '\(id)' of '\(document.nodes[parent].id)'"
                    )
                }
                states.append(state)
            }
            history[index] = states
        }
        for send in snapshot.pendingSends where send.event.isEmpty || send.event.contains(where: \.isWhitespace) {
            throw .invalidSnapshot(id: send.event, reason: "a pending send needs an event name without spaces")
        }
        guard snapshot.generatedSendIDCount >= 0 else {
            throw .invalidSnapshot(id: "", reason: "generatedSendIDCount is negative")
        }

        active = configuration
        historyValue = history
        internalQueue = snapshot.internalQueue
        queueHead = 0
        externalQueue = snapshot.externalQueue
        externalHead = 0
        locations = snapshot.locations
        generatedSendIDCount = snapshot.generatedSendIDCount
        isRunning = snapshot.isRunning
        isDone = snapshot.isDone
        trace = []
        let now = clock.now
        for send in snapshot.pendingSends where isRunning {
            addPendingSend(
                PendingSend(event: send.event, sendID: send.sendID, deadline: now + max(send.remaining, .zero))
            )
        }
    }

    private func stateIndex(_ id: String, _ place: String) throws(SCXMLError) -> Int {
        guard let index = document.index(of: id) else {
            throw .invalidSnapshot(id: id, reason: "no state has this id (\(place))")
        }
        return index
    }

    /// A configuration SCXML can reach: the root and every active compound state have
    /// exactly one active child, every active parallel state all of its children, and
    /// every active state an active parent. Empty only for a machine never started.
    private func checkLegal(_ configuration: [Bool], _ snapshot: SCXMLSnapshot) throws(SCXMLError) {
        let isEmpty = !configuration.contains(true)
        if isEmpty {
            guard !snapshot.isRunning, !snapshot.isDone else {
                throw .invalidSnapshot(id: "", reason: "the configuration is empty but the machine was started")
            }
            return
        }
        if snapshot.isRunning, snapshot.isDone {
            throw .invalidSnapshot(id: "", reason: "a machine cannot be both running and done")
        }
        for index in document.nodes.indices where configuration[index] {
            let parent = document.nodes[index].parent
            if parent > 0, !configuration[parent] {
                throw .invalidSnapshot(
                    id: document.nodes[index].id,
                    reason: "is active but its parent '\(document.nodes[parent].id)' is not"
                )
            }
        }
        for index in document.nodes.indices where index == 0 || configuration[index] {
            let node = document.nodes[index]
            let name = index == 0 ? "scxml" : node.id
            switch node.kind {
            case .root, .compound:
                let activeChildren = node.children.filter { configuration[$0] }
                guard activeChildren.count == 1 else {
                    let names = activeChildren.map { "'\(document.nodes[$0].id)'" }.joined(separator: ", ")
                    throw .invalidSnapshot(
                        id: index == 0 ? "" : node.id,
                        reason:
                            "\(index == 0 ? "<scxml>" : "compound state '\(name)'") needs exactly one active child, has \(activeChildren.isEmpty ? "none" : names)"
                    )
                }
            case .parallel:
                if let missing = node.children.first(where: { !configuration[$0] }) {
                    throw .invalidSnapshot(
                        id: document.nodes[missing].id,
                        reason: "is a region of the active parallel state '\(name)' but is not active"
                    )
                }
            default:
                break
            }
        }
        if snapshot.isDone {
            let top = document.nodes[0].children.first { configuration[$0] }
            guard let top, document.nodes[top].kind == .final else {
                throw .invalidSnapshot(id: "", reason: "the machine is done but no top-level <final> is active")
            }
        }
    }
}
