extension Statechart {
    /// The chart's state as of the last completed step, ready to be encoded.
    ///
    /// Pending delayed transitions are saved with the time they still have to wait on the
    /// chart's clock. Cheap: it reads what the last step published and runs no step.
    public func snapshot() -> StatechartSnapshot {
        let (configuration, started, extras) = engine.publishedSnapshot()
        let now = engine.clock.now
        var active: [StateID] = []
        collect(region: 0, snapshot: configuration, into: &active)
        var history: [String: [String]] = [:]
        for (index, record) in extras.historyRecords.enumerated() where !record.isEmpty {
            history[topology.histories[index].name] = record.filter { $0 >= 0 }.map { topology.states[Int($0)].path }
        }
        var joins: [String: [String]] = [:]
        for (index, progress) in extras.joinProgress.enumerated() where progress.contains(true) {
            joins[topology.joins[index].name] = progress.indices.filter { progress[$0] }.map {
                topology.states[Int(topology.joins[index].sources[$0])].path
            }
        }
        var timers: [StatechartSnapshot.PendingTimer] = []
        for (index, deadline) in extras.timerDeadlines.enumerated() {
            guard let deadline else { continue }
            let node = topology.timers[index]
            timers.append(
                StatechartSnapshot.PendingTimer(
                    state: topology.states[Int(node.state)].path,
                    delayedTransition: topology.states[Int(node.state)].timers.firstIndex(of: Int32(index))!,
                    remaining: max(deadline - now, .zero)
                )
            )
        }
        return StatechartSnapshot(
            chart: topology.name,
            isRunning: started,
            configuration: active.map { model.topology.states[Int(model.stateIndex[$0]!)].path },
            history: history,
            joins: joins,
            timers: timers,
            scxml: extras.sends.map { published in
                StatechartSnapshot.SCXMLSession(
                    sends: published.sends.map {
                        .init(event: $0.name, sendID: $0.id, data: $0.data, remaining: max($0.deadline - now, .zero))
                    },
                    data: nil,
                    idSlots: [:],
                    generatedIDs: published.generatedSendIDCount
                )
            }
        )
    }

    /// Compiles `definition` and resumes it from `snapshot` so that it behaves as the
    /// chart it was taken from would have: the same active states (no enter blocks run),
    /// histories and partial joins as they were, delayed transitions firing after the
    /// time they still had to wait (on `clock`), and the tasks of active states started
    /// afresh (a task's work cannot be saved).
    /// - Throws: ``StatechartError/invalidSnapshot(reason:)`` naming the path, history,
    ///   join or timer that does not fit this chart, or any error of ``init(_:options:clock:)``.
    @inlinable
    public convenience init(
        _ definition: Definition,
        options: StatechartOptions = StatechartOptions(),
        clock: any StatechartClock = .continuous,
        restoring snapshot: StatechartSnapshot
    ) throws {
        // Inlinable, as the other initialisers: see `init(_:options:clock:)`.
        try self.init(definition, options: options, clock: clock)
        try restore(snapshot)
    }

    /// Resumes a chart that has not started from `snapshot` (see ``init(_:options:clock:restoring:)``).
    @usableFromInline
    package func restore(_ snapshot: StatechartSnapshot) throws {
        guard snapshot.chart == topology.name else {
            throw StatechartError.invalidSnapshot(
                reason: "it was taken from chart '\(snapshot.chart)', not '\(topology.name)'"
            )
        }
        guard snapshot.isRunning else { return }
        var configuration = [Int32](repeating: -1, count: topology.regions.count)
        for path in snapshot.configuration {
            let state = try snapshotState(path)
            let region = topology.states[Int(state)].parent
            guard configuration[Int(region)] < 0 else {
                throw StatechartError.invalidSnapshot(
                    reason:
                        "'\(path)' and '\(topology.states[Int(configuration[Int(region)])].path)' are both active in region '\(topology.regions[Int(region)].name)'"
                )
            }
            configuration[Int(region)] = state
        }
        try checkConfiguration(configuration, region: 0, required: true)

        var records = [[Int32]](repeating: [], count: topology.histories.count)
        for (name, paths) in snapshot.history {
            guard let index = topology.histories.firstIndex(where: { $0.name == name }) else {
                throw StatechartError.invalidSnapshot(reason: "the chart has no history named '\(name)'")
            }
            let regions = topology.histories[index].regions
            var record = [Int32](repeating: -1, count: regions.count)
            for path in paths {
                let state = try snapshotState(path)
                guard let position = regions.firstIndex(of: topology.states[Int(state)].parent) else {
                    throw StatechartError.invalidSnapshot(
                        reason: "history '\(name)' cannot remember '\(path)', which lies outside what it records"
                    )
                }
                record[position] = state
            }
            records[index] = record
        }

        var joins = topology.joins.map { [Bool](repeating: false, count: $0.sourceCount) }
        for (name, paths) in snapshot.joins {
            guard let index = topology.joins.firstIndex(where: { $0.name == name }) else {
                throw StatechartError.invalidSnapshot(reason: "the chart has no join named '\(name)'")
            }
            for path in paths {
                let state = try snapshotState(path)
                guard let slot = topology.joins[index].sources.firstIndex(of: state) else {
                    throw StatechartError.invalidSnapshot(reason: "'\(path)' is not a source of join '\(name)'")
                }
                joins[index][slot] = true
            }
        }

        var remaining: [Int32: Duration] = [:]
        for timer in snapshot.timers {
            let state = try snapshotState(timer.state)
            let timers = topology.states[Int(state)].timers
            guard timers.indices.contains(timer.transition),
                configuration[Int(topology.states[Int(state)].parent)] == state
            else {
                throw StatechartError.invalidSnapshot(
                    reason: "'\(timer.state)' has no active delayed transition number \(timer.transition)"
                )
            }
            remaining[timers[timer.transition]] = max(timer.remaining, .zero)
        }
        let session = snapshot.scxml ?? StatechartSnapshot.SCXMLSession()
        if engine.sends == nil, session != StatechartSnapshot.SCXMLSession() {
            throw StatechartError.invalidSnapshot(
                reason: "it holds an SCXML session's sends, and the chart was not read from SCXML"
            )
        }
        guard session.sends.count <= StatechartLimits.maxPendingSends else {
            throw StatechartError.invalidSnapshot(
                reason:
                    "it holds \(session.sends.count) pending sends; a chart holds at most \(StatechartLimits.maxPendingSends)"
            )
        }
        guard session.generatedSendIDCount >= 0 else {
            throw StatechartError.invalidSnapshot(reason: "generatedSendIDCount is negative")
        }
        let sends = try session.sends.map { send in
            guard let request = try? hooks.request(for: Event(try eventID(named: send.event))) else {
                throw StatechartError.invalidSnapshot(reason: "a pending send has the empty event name")
            }
            let payload: (any Sendable)? = SCXMLEventFields(
                name: send.event,
                type: "external",
                sendID: send.sendID,
                data: send.data
            )
            return (
                request: request, payload: payload, name: send.event, id: send.sendID,
                remaining: max(send.remaining, .zero)
            )
        }
        engine.restore(
            configuration: configuration,
            historyRecords: records,
            joinProgress: joins,
            remaining: remaining,
            sends: sends,
            generatedSendIDCount: session.generatedSendIDCount
        )
    }

    /// The event identifier whose name is `name`: one of the chart's, or `name` itself when
    /// identifiers are strings.
    private func eventID(named name: String) throws -> EventID {
        if let index = topology.eventNames.prefix(topology.userEventCount).firstIndex(of: name) {
            return model.eventIDs[index]
        }
        if let id = name as? EventID { return id }
        throw StatechartError.invalidSnapshot(reason: "the chart has no event named '\(name)' for a pending send")
    }

    private func snapshotState(_ path: String) throws -> Int32 {
        do {
            return try stateIndex(atPath: path)
        } catch {
            throw StatechartError.invalidSnapshot(reason: "\(error)")
        }
    }

    /// Every active composite state has an active child, every parallel state all its
    /// regions, and nothing is active below an inactive state.
    private func checkConfiguration(_ configuration: [Int32], region: Int32, required: Bool) throws {
        let active = configuration[Int(region)]
        guard active >= 0 else {
            if required {
                throw StatechartError.invalidSnapshot(
                    reason: "region '\(topology.regions[Int(region)].name)' has no active state"
                )
            }
            for state in topology.regions[Int(region)].states {
                for inner in topology.states[Int(state)].regions {
                    try checkConfiguration(configuration, region: inner, required: false)
                }
            }
            return
        }
        for state in topology.regions[Int(region)].states {
            for inner in topology.states[Int(state)].regions {
                try checkConfiguration(configuration, region: inner, required: state == active)
            }
        }
        if !required {
            throw StatechartError.invalidSnapshot(
                reason: "'\(topology.states[Int(active)].path)' is active but its parent is not"
            )
        }
    }
}
