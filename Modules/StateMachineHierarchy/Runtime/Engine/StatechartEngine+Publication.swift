import Synchronization

// Publishing each step for readers on other threads: the configuration through
// `PublishedConfiguration` (a sequence lock the drainer writes without locking), and with it
// what a snapshot reads besides the configuration, only when it changed.

extension StatechartEngine {
    /// Publishes the configuration, and what a snapshot reads besides it when that changed,
    /// for readers on other threads (see `PublishedConfiguration`). Called by the drainer
    /// after every step.
    func publish() {
        guard started != isRunning || (hasSnapshotExtras && !dirtyExtras.isEmpty) else {
            configuration.publish(slots.current.buffer(count: slots.regionCount))
            return
        }
        configuration.publish(slots.current.buffer(count: slots.regionCount)) { publishExtras() }
    }

    /// Publishes the parts of `dirtyExtras`, inside the configuration's write: the plain
    /// numbers as words (see `SnapshotWords`), an SCXML session's sends under their lock.
    private func publishExtras() {
        runState.store((started ? 1 : 0) | (finished ? 2 : 0), ordering: .releasing)
        guard hasSnapshotExtras, !dirtyExtras.isEmpty else { return }
        if dirtyExtras.contains(.histories) {
            for history in snapshotWords.historyStart.indices {
                let start = snapshotWords.historyStart[history]
                let recorded = slots.historyRecorded[history]
                configuration.store(word: start, recorded ? 1 : 0)
                guard recorded else { continue }
                let regions = topology.historyRegionSlots(history)
                for slot in regions {
                    configuration.store(word: start + 1 + slot - regions.lowerBound, Int64(slots.historyStates[slot]))
                }
            }
        }
        if dirtyExtras.contains(.joins) {
            for join in snapshotWords.joinStart.indices {
                let start = snapshotWords.joinStart[join]
                let sources = slots.sources(ofJoin: join)
                for slot in sources {
                    configuration.store(word: start + slot - sources.lowerBound, slots.joinArrived[slot] ? 1 : 0)
                }
            }
        }
        if dirtyExtras.contains(.timers) {
            for timer in 0..<slots.timerCount {
                let start = snapshotWords.timerStart[timer]
                if let deadline = slots.timerDeadlines[timer] {
                    // The attoseconds as two halves: `components` would divide by 10^18.
                    let attoseconds = deadline.attoseconds
                    configuration.store(word: start, 1)
                    configuration.store(word: start + 1, Int64(truncatingIfNeeded: attoseconds >> 64))
                    configuration.store(word: start + 2, Int64(truncatingIfNeeded: attoseconds))
                } else {
                    configuration.store(word: start, 0)
                }
            }
        }
        if dirtyExtras.contains(.sends) { sends?.publish() }
        dirtyExtras = []
    }

    /// What `publishExtras` published; only inside the configuration's read.
    private func readExtras() -> PublishedExtras {
        let words = snapshotWords
        return PublishedExtras(
            historyRecords: words.historyStart.indices.map { history in
                let start = words.historyStart[history]
                guard configuration.load(word: start) != 0 else { return [] }
                return (0..<topology.historyRegionSlots(history).count).map {
                    Int32(truncatingIfNeeded: configuration.load(word: start + 1 + $0))
                }
            },
            joinProgress: words.joinStart.indices.map { join in
                (0..<topology.joins[join].sourceCount).map { configuration.load(word: words.joinStart[join] + $0) != 0 }
            },
            timerDeadlines: words.timerStart.map { start in
                guard configuration.load(word: start) != 0 else { return nil }
                let high = Int128(configuration.load(word: start + 1))
                let low = Int128(UInt64(bitPattern: configuration.load(word: start + 2)))
                return Duration(attoseconds: high << 64 | low)
            },
            sends: sends?.read()
        )
    }

    /// Marks the SCXML session's sends as changed since the last publication.
    func sendsChanged() {
        dirtyExtras.insert(.sends)
    }

    /// Whether the chart runs, as of the last completed step.
    var isRunning: Bool { runState.load(ordering: .acquiring) & 1 != 0 }

    /// Whether a final state of the root region is active, as of the last completed step.
    var isFinished: Bool { runState.load(ordering: .acquiring) & 2 != 0 }

    /// The configuration as of the last completed step.
    func publishedConfiguration() -> [Int32] { configuration.read() }

    /// The active state of `region` as of the last completed step, -1 when inactive.
    func publishedState(ofRegion region: Int32) -> Int32 { configuration.state(ofRegion: Int(region)) }

    /// The configuration, whether the chart runs, and the rest of a snapshot, all as of
    /// the same completed step.
    func publishedSnapshot() -> (configuration: [Int32], started: Bool, extras: PublishedExtras) {
        let (configuration, (started, extras)) = configuration.read { (isRunning, readExtras()) }
        return (configuration, started, extras)
    }
}

/// What a snapshot reads besides the configuration, as of the same completed step.
struct PublishedExtras: Sendable {
    var historyRecords: [[Int32]] = []
    var joinProgress: [[Bool]] = []
    var timerDeadlines: [Duration?] = []
    /// An SCXML session's sends and send ids; nil for other charts.
    var sends: PublishedSends?
}

/// The delayed sends of an SCXML session as of the last step that changed them: strings,
/// so published under a lock rather than as words (see `SnapshotWords`).
struct PublishedSends: Sendable {
    /// Pending delayed sends in the order they were made: event name, send id, data, deadline.
    var sends: [(name: String, id: String?, data: SCXMLValue?, deadline: Duration)] = []
    var generatedSendIDCount = 0
}

/// Where the plain-number parts of a snapshot are among `PublishedConfiguration`'s words,
/// so that a step publishes them with a few atomic stores and no lock.
struct SnapshotWords {
    /// Per history: a word that is 1 when it has a record, then one word per region it
    /// remembers (the state recorded for it).
    let historyStart: [Int]
    /// Per join: one word per source, 1 when that source has arrived.
    let joinStart: [Int]
    /// Per delayed transition: a word that is 1 while its timer is pending, then its
    /// deadline in attoseconds, high half then low half.
    let timerStart: [Int]
    let count: Int

    init(topology: Topology) {
        var count = 0
        historyStart = topology.histories.map { history in
            defer { count += 1 + history.regions.count }
            return count
        }
        joinStart = topology.joins.map { join in
            defer { count += join.sourceCount }
            return count
        }
        timerStart = topology.timers.map { _ in
            defer { count += 3 }
            return count
        }
        self.count = count
    }
}

/// The parts of a snapshot besides the configuration, as flags of what changed.
struct ExtrasParts: OptionSet {
    let rawValue: UInt8

    /// Whether a final state of the root region is active (published in `runState`).
    static let finished = ExtrasParts(rawValue: 1 << 0)
    static let histories = ExtrasParts(rawValue: 1 << 1)
    static let joins = ExtrasParts(rawValue: 1 << 2)
    static let timers = ExtrasParts(rawValue: 1 << 3)
    /// Delayed sends, `idlocation` slots and the count of generated send ids.
    static let sends = ExtrasParts(rawValue: 1 << 4)
    static let all: ExtrasParts = [.finished, .histories, .joins, .timers, .sends]
}
