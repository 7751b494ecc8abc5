/// The state of one ``SCXMLInterpreter`` and the W3C algorithm (Appendix D) that moves
/// it: configuration, history values, both event queues, the pending delayed sends and
/// the `idlocation` slots. A value type with no locking and no callbacks: the
/// interpreter owns it behind its lock, runs one macrostep at a time on it, and arms the
/// timers of new delayed sends (``takeUnarmedSends()``) before releasing the lock.
struct SCXMLMachine {
    /// A delayed `<send>` waiting for its timer.
    struct PendingSend {
        var event: String
        var sendID: String?
        /// When it is due, on the machine's clock (``StatechartClock/now``).
        var deadline: Duration
        /// The clock's timer, once armed; nil between the send and the arming.
        var timer: StatechartTimer?
    }

    let document: SCXMLDocument
    let options: SCXMLInterpreter.Options
    let clock: any StatechartClock

    var active: [Bool]
    var historyValue: [Int: [Int]] = [:]
    var internalQueue: [String] = []
    var queueHead = 0
    /// Events waiting for their own macrostep: sent by callers, zero-delay `<send>`s and
    /// fired timers, in arrival order.
    var externalQueue: [String] = []
    var externalHead = 0
    /// True from `start()` until a top-level `<final>` or a failed macrostep.
    var isRunning = false
    /// True once a top-level `<final>` was entered.
    var isDone = false
    /// `start()` was called and its macrostep has not run yet.
    var startRequested = false
    /// What the last macrostep did (see ``SCXMLInterpreter/trace``).
    var trace: [String] = []
    /// The error that stopped the machine, if any.
    var failure: SCXMLError?
    /// `idlocation` slots: slot name to the last generated send id stored there.
    var locations: [String: String] = [:]
    /// How many send ids were generated (for `idlocation`); keeps them unique.
    var generatedSendIDCount = 0
    /// Delayed sends not yet fired or cancelled, by sequence number. A sequence is never
    /// reused, so a timer whose sequence is gone is stale and delivers nothing.
    var pendingSends: [UInt64: PendingSend] = [:]
    var nextSequence: UInt64 = 0
    /// Sequences of pending sends whose timer the interpreter has not armed yet.
    var unarmed: [UInt64] = []

    init(document: SCXMLDocument, options: SCXMLInterpreter.Options, clock: any StatechartClock) {
        self.document = document
        self.options = options
        self.clock = clock
        active = [Bool](repeating: false, count: document.nodes.count)
    }

    // MARK: Queues

    /// Whether a macrostep is waiting to run.
    var hasWork: Bool {
        startRequested || (isRunning && (externalHead < externalQueue.count || !internalQueue.isEmpty))
    }

    /// Appends an external event; ignored unless the machine is running or starting.
    mutating func enqueue(_ event: String) -> Bool {
        guard isRunning || startRequested else { return false }
        externalQueue.append(event)
        return true
    }

    /// What ``runNextMacrostep()`` did.
    enum MacrostepResult {
        /// There was nothing to do.
        case idle
        /// A macrostep ran.
        case ran
        /// A macrostep ran and stopped the machine with this error.
        case failed(SCXMLError)
    }

    /// Runs the next macrostep: the pending start, the internal queue left by a restored
    /// snapshot, or the next external event.
    mutating func runNextMacrostep() -> MacrostepResult {
        if startRequested {
            startRequested = false
            guard !isRunning, !isDone else { return .idle }
            // After a failure, a start begins a new session: nothing of the old one stays active.
            active = [Bool](repeating: false, count: active.count)
            historyValue = [:]
            trace = []
            isRunning = true
            failure = nil
            guard let initial = document.nodes[0].initialTransition else { return .ran }
            return run { (machine: inout SCXMLMachine) throws(SCXMLError) in
                machine.enterStates([initial])
                try machine.settle()
            }
        }
        if isRunning, !internalQueue.isEmpty {
            trace = []
            return run { (machine: inout SCXMLMachine) throws(SCXMLError) in try machine.settle() }
        }
        guard isRunning, externalHead < externalQueue.count else { return .idle }
        let event = externalQueue[externalHead]
        externalHead += 1
        if externalHead == externalQueue.count {
            externalQueue.removeAll(keepingCapacity: true)
            externalHead = 0
        } else if externalHead >= 1024, externalHead * 2 >= externalQueue.count {
            // Senders keep the queue from emptying: drop the consumed half, amortised O(1).
            externalQueue.removeFirst(externalHead)
            externalHead = 0
        }
        trace = ["event:\(event)"]
        return run { (machine: inout SCXMLMachine) throws(SCXMLError) in
            let enabled = machine.selectTransitions(event: event)
            if !enabled.isEmpty { machine.microstep(enabled) }
            try machine.settle()
        }
    }

    /// Runs `body`; records its error as the failure; cleans up when the machine stopped.
    private mutating func run(_ body: (inout SCXMLMachine) throws(SCXMLError) -> Void) -> MacrostepResult {
        var result = MacrostepResult.ran
        do {
            try body(&self)
        } catch {
            failure = error
            result = .failed(error)
        }
        if !isRunning { stopped() }
        return result
    }

    /// A stopped machine keeps no queue and no timer.
    private mutating func stopped() {
        internalQueue = []
        queueHead = 0
        externalQueue = []
        externalHead = 0
        cancelPendingSends { _ in true }
    }

    /// Removes the pending sends `matching` accepts and cancels their timers.
    mutating func cancelPendingSends(matching: (PendingSend) -> Bool) {
        for (sequence, send) in pendingSends where matching(send) {
            send.timer?.cancel()
            pendingSends[sequence] = nil
        }
        unarmed.removeAll { pendingSends[$0] == nil }
    }

    /// The pending sends whose timers must be armed, with their remaining delays, in
    /// deadline order; they count as armed from now on.
    mutating func takeUnarmedSends() -> [(sequence: UInt64, delay: Duration)] {
        let now = clock.now
        let result = unarmed.compactMap { sequence -> (sequence: UInt64, delay: Duration)? in
            guard let send = pendingSends[sequence] else { return nil }
            return (sequence, max(send.deadline - now, .zero))
        }
        unarmed = []
        return result.sorted { ($0.delay, $0.sequence) < ($1.delay, $1.sequence) }
    }

    /// Called when the timer of `sequence` fires: moves its event to the external queue.
    /// False when the send is stale (cancelled, already delivered, machine stopped or
    /// restored elsewhere).
    mutating func deliver(_ sequence: UInt64) -> Bool {
        guard let send = pendingSends.removeValue(forKey: sequence) else { return false }
        return enqueue(send.event)
    }

    // MARK: Macrostep

    private mutating func settle() throws(SCXMLError) {
        var steps = 0
        var recent: [Int] = []
        while isRunning {
            var enabled = selectTransitions(event: nil)
            if enabled.isEmpty {
                guard queueHead < internalQueue.count else { break }
                let event = internalQueue[queueHead]
                queueHead += 1
                trace.append("event:\(event)")
                enabled = selectTransitions(event: event)
            }
            guard !enabled.isEmpty else { continue }
            steps += 1
            recent.append(contentsOf: enabled)
            if recent.count > 64 { recent.removeFirst(recent.count - 64) }
            if steps > options.maxMicrosteps {
                isRunning = false
                var seen = Set<Int>()
                let cycle = recent.filter { seen.insert($0).inserted }.map(describe)
                throw .microstepLimit(limit: options.maxMicrosteps, cycle: cycle)
            }
            microstep(enabled)
        }
        internalQueue.removeAll(keepingCapacity: true)
        queueHead = 0
    }

    private func describe(_ transition: Int) -> String {
        let t = document.transitions[transition]
        let targets = t.targets.map { document.nodes[$0].id }.joined(separator: " ")
        let event = t.events.isEmpty ? "" : " [\(t.events.joined(separator: " "))]"
        return "\(document.nodes[t.source].id)\(event) -> \(targets.isEmpty ? "(targetless)" : targets)"
    }

    // MARK: Selection

    private static func matches(_ descriptors: [String], _ event: String) -> Bool {
        for descriptor in descriptors {
            if descriptor == "*" || descriptor == event { return true }
            if event.count > descriptor.count, event.hasPrefix(descriptor),
                event[event.index(event.startIndex, offsetBy: descriptor.count)] == "."
            {
                return true
            }
        }
        return false
    }

    private func conditionHolds(_ transition: SCXMLDocument.Transition) -> Bool {
        guard let states = transition.inStates else { return true }
        return states.allSatisfy { active[$0] }
    }

    /// Transitions enabled by `event` (eventless ones when nil), one per atomic state
    /// at most, conflicts removed.
    func selectTransitions(event: String?) -> [Int] {
        var enabled: [Int] = []
        for state in document.nodes.indices where active[state] && document.isAtomic(state) {
            for index in document.selectionChains[state] {
                let transition = document.transitions[index]
                let eventMatches: Bool
                if let event {
                    eventMatches = !transition.events.isEmpty && Self.matches(transition.events, event)
                } else {
                    eventMatches = transition.events.isEmpty
                }
                if eventMatches, conditionHolds(transition) {
                    if !enabled.contains(index) { enabled.append(index) }
                    break
                }
            }
        }
        return removeConflicts(enabled)
    }

    private func removeConflicts(_ enabled: [Int]) -> [Int] {
        var filtered: [Int] = []
        var exitSets: [Int: Set<Int>] = [:]
        for t1 in enabled {
            let exit1 = exitSet([t1])
            exitSets[t1] = exit1
            var preempted = false
            var toRemove = Set<Int>()
            for t2 in filtered where !(exitSets[t2] ?? []).isDisjoint(with: exit1) {
                if document.isDescendant(document.transitions[t1].source, of: document.transitions[t2].source) {
                    toRemove.insert(t2)
                } else {
                    preempted = true
                    break
                }
            }
            if !preempted {
                filtered.removeAll { toRemove.contains($0) }
                filtered.append(t1)
            }
        }
        return filtered
    }

    // MARK: Microstep

    mutating func microstep(_ enabled: [Int]) {
        exitStates(enabled)
        for index in enabled { execute(document.transitions[index].actions) }
        enterStates(enabled)
    }

    private mutating func execute(_ actions: [SCXMLDocument.Action]) {
        for action in actions {
            switch action {
            case let .raise(event):
                internalQueue.append(event)
            case .log:
                break
            case let .send(send):
                execute(send)
            case let .cancel(cancel):
                let id: String?
                switch cancel.reference {
                case let .id(given): id = given
                case let .location(slot): id = locations[slot]
                }
                if let id { cancelPendingSends { $0.sendID == id } }
            }
        }
    }

    private mutating func execute(_ send: SCXMLDocument.Send) {
        var id = send.id
        if let slot = send.idLocation {
            generatedSendIDCount += 1
            let generated = "send.\(generatedSendIDCount)"
            locations[slot] = generated
            id = generated
        }
        switch send.target {
        case .internal:
            internalQueue.append(send.event)
        case .external where send.delay <= .zero:
            externalQueue.append(send.event)
        case .external:
            addPendingSend(PendingSend(event: send.event, sendID: id, deadline: clock.now + send.delay))
        }
    }

    /// Records a delayed send; its timer is armed by the interpreter after the macrostep.
    mutating func addPendingSend(_ send: PendingSend) {
        let sequence = nextSequence
        nextSequence += 1
        pendingSends[sequence] = send
        unarmed.append(sequence)
    }

    private func exitSet(_ transitions: [Int]) -> Set<Int> {
        var result = Set<Int>()
        for index in transitions {
            let transition = document.transitions[index]
            guard !transition.targets.isEmpty, let domain = transitionDomain(transition) else { continue }
            for state in (domain + 1)..<document.subtreeEnd[domain] where active[state] {
                result.insert(state)
            }
        }
        return result
    }

    private mutating func exitStates(_ enabled: [Int]) {
        let states = exitSet(enabled).sorted(by: >)
        for state in states {
            for history in document.nodes[state].histories {
                guard case let .history(deep) = document.nodes[history].kind else { continue }
                historyValue[history] = document.nodes.indices.filter { candidate in
                    guard active[candidate] else { return false }
                    return deep
                        ? document.isAtomic(candidate) && document.isDescendant(candidate, of: state)
                        : document.nodes[candidate].parent == state
                }
            }
        }
        for state in states {
            execute(document.nodes[state].onExit)
            active[state] = false
            trace.append("exit:\(document.nodes[state].id)")
        }
    }

    private struct EntrySet {
        var states = Set<Int>()
        var defaultEntry = Set<Int>()
        var historyContent: [Int: Int] = [:]
    }

    mutating func enterStates(_ enabled: [Int]) {
        var entry = EntrySet()
        for index in enabled {
            let transition = document.transitions[index]
            for target in transition.targets { addDescendants(target, &entry) }
            let domain = transitionDomain(transition)
            for target in effectiveTargets(transition) { addAncestors(target, upTo: domain, &entry) }
        }
        for state in entry.states.sorted() {
            active[state] = true
            trace.append("enter:\(document.nodes[state].id)")
            execute(document.nodes[state].onEntry)
            if entry.defaultEntry.contains(state), let initial = document.nodes[state].initialTransition {
                execute(document.transitions[initial].actions)
            }
            if let history = entry.historyContent[state] {
                execute(document.transitions[history].actions)
            }
            guard document.nodes[state].kind == .final else { continue }
            let parent = document.nodes[state].parent
            if parent == 0 {
                isRunning = false
                isDone = true
                continue
            }
            internalQueue.append("done.state.\(document.nodes[parent].id)")
            let grandparent = document.nodes[parent].parent
            if grandparent > 0, document.nodes[grandparent].kind == .parallel,
                document.nodes[grandparent].children.allSatisfy(isInFinalState)
            {
                internalQueue.append("done.state.\(document.nodes[grandparent].id)")
            }
        }
    }

    private func isInFinalState(_ state: Int) -> Bool {
        switch document.nodes[state].kind {
        case .compound:
            document.nodes[state].children.contains { active[$0] && document.nodes[$0].kind == .final }
        case .parallel:
            document.nodes[state].children.allSatisfy(isInFinalState)
        default:
            false
        }
    }

    private func addDescendants(_ state: Int, _ entry: inout EntrySet) {
        let node = document.nodes[state]
        if case .history = node.kind {
            if let stored = historyValue[state] {
                for target in stored { addDescendants(target, &entry) }
                for target in stored { addAncestors(target, upTo: node.parent, &entry) }
            } else if let defaultIndex = node.transitions.first {
                entry.historyContent[node.parent] = defaultIndex
                let targets = document.transitions[defaultIndex].targets
                for target in targets { addDescendants(target, &entry) }
                for target in targets { addAncestors(target, upTo: node.parent, &entry) }
            }
            return
        }
        entry.states.insert(state)
        switch node.kind {
        case .compound:
            entry.defaultEntry.insert(state)
            if let initial = node.initialTransition {
                let targets = document.transitions[initial].targets
                for target in targets { addDescendants(target, &entry) }
                for target in targets { addAncestors(target, upTo: state, &entry) }
            }
        case .parallel:
            addMissingRegions(of: state, &entry)
        default:
            break
        }
    }

    private func addMissingRegions(of parallel: Int, _ entry: inout EntrySet) {
        for child in document.nodes[parallel].children
        where !entry.states.contains(where: { $0 == child || document.isDescendant($0, of: child) }) {
            addDescendants(child, &entry)
        }
    }

    /// Adds the proper ancestors of `state` below `ancestor` (all of them when nil).
    private func addAncestors(_ state: Int, upTo ancestor: Int?, _ entry: inout EntrySet) {
        for candidate in document.ancestors[state] {
            if candidate == ancestor || candidate == 0 { break }
            entry.states.insert(candidate)
            if document.nodes[candidate].kind == .parallel { addMissingRegions(of: candidate, &entry) }
        }
    }

    private func effectiveTargets(_ transition: SCXMLDocument.Transition) -> [Int] {
        var result: [Int] = []
        for target in transition.targets {
            if case .history = document.nodes[target].kind {
                if let stored = historyValue[target] {
                    result += stored
                } else if let defaultIndex = document.nodes[target].transitions.first {
                    result += effectiveTargets(document.transitions[defaultIndex])
                }
            } else {
                result.append(target)
            }
        }
        var seen = Set<Int>()
        return result.filter { seen.insert($0).inserted }
    }

    private func transitionDomain(_ transition: SCXMLDocument.Transition) -> Int? {
        let targets = effectiveTargets(transition)
        if targets.isEmpty { return nil }
        let source = transition.source
        let sourceIsCompound = document.nodes[source].kind == .compound || source == 0
        if transition.isInternal, sourceIsCompound, targets.allSatisfy({ document.isDescendant($0, of: source) }) {
            return source
        }
        return leastCommonCompoundAncestor([source] + targets)
    }

    private func leastCommonCompoundAncestor(_ states: [Int]) -> Int {
        for ancestor in document.ancestors[states[0]] {
            let kind = document.nodes[ancestor].kind
            guard kind == .compound || kind == .root else { continue }
            if states.dropFirst().allSatisfy({ document.isDescendant($0, of: ancestor) }) { return ancestor }
        }
        return 0
    }
}
