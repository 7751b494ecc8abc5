/// Runs an ``SCXMLDocument`` with W3C SCXML semantics (the algorithm of the
/// specification's Appendix D, null data model): event-name prefix matching and `*`,
/// eventless transitions taken until the configuration is stable, an internal queue for
/// events raised during a step (processed before the next external event), SCXML
/// conflict resolution between parallel regions (document order; a transition whose
/// source is a descendant preempts), shallow and deep history, final states and
/// `done.state.<id>` events.
///
/// These semantics differ from ``Statechart``'s TBStateMachine semantics on purpose:
/// regions are exited in reverse document order, and transitions selected in several
/// regions are resolved by exit-set conflicts rather than "inner region handles first".
///
/// A value type: each call runs one complete macrostep on the caller's thread, so a
/// machine shared between threads must be guarded by its owner.
///
/// ```swift
/// var machine = SCXMLInterpreter(document: try SCXMLDocument(xml: text))
/// try machine.start()
/// try machine.send("t")
/// print(machine.activeAtomicStates)
/// ```
public struct SCXMLInterpreter: Sendable {
    /// Per-machine settings.
    public struct Options: Sendable, Equatable {
        /// The most microsteps one macrostep may take before it fails with
        /// ``SCXMLError/microstepLimit(limit:cycle:)`` (the loop guard against eventless
        /// transitions or raised events that never settle). Default 1000; at least 1.
        public var maxMicrosteps: Int

        /// Options with the given loop guard (values below 1 count as 1).
        public init(maxMicrosteps: Int = 1000) {
            self.maxMicrosteps = max(1, maxMicrosteps)
        }
    }

    /// The chart being run.
    public let document: SCXMLDocument
    /// The settings given at creation.
    public let options: Options

    private var active: [Bool]
    private var historyValue: [Int: [Int]] = [:]
    private var internalQueue: [String] = []
    private var queueHead = 0
    /// True between `start()` and reaching a top-level `<final>` (or a failed macrostep).
    public private(set) var isRunning = false
    /// True once the machine reached a top-level `<final>` state.
    public private(set) var isDone = false
    /// What the last macrostep did, in order: `event:<name>` for each event processed
    /// (the external one first, then raised and `done.state` events), `exit:<id>` and
    /// `enter:<id>` for each state left and entered.
    public private(set) var trace: [String] = []

    /// A machine for `document`, not started.
    public init(document: SCXMLDocument, options: Options = Options()) {
        self.document = document
        self.options = options
        active = [Bool](repeating: false, count: document.nodes.count)
    }

    // MARK: Configuration

    /// Ids of every active state (atomic and compound), in document order.
    public var activeStates: [String] {
        document.nodes.indices.filter { $0 > 0 && active[$0] }.map { document.nodes[$0].id }
    }

    /// Ids of the active atomic states (`<state>` without children and `<final>`).
    public var activeAtomicStates: Set<String> {
        Set(
            document.nodes.indices.filter { $0 > 0 && active[$0] && document.isAtomic($0) }.map {
                document.nodes[$0].id
            }
        )
    }

    /// Whether the state with `id` is active.
    public func isActive(_ id: String) -> Bool {
        guard let index = document.index(of: id) else { return false }
        return active[index]
    }

    // MARK: Running

    /// Enters the initial configuration and settles it (eventless transitions and raised
    /// events). Does nothing if the machine is already running or done.
    /// - Throws: ``SCXMLError/microstepLimit(limit:cycle:)`` if it never settles; the
    ///   machine then stops.
    public mutating func start() throws(SCXMLError) {
        guard !isRunning, !isDone else { return }
        trace = []
        isRunning = true
        guard let initial = document.nodes[0].initialTransition else { return }
        enterStates([initial])
        try settle()
    }

    /// Processes the external event `name` as one macrostep: its transitions, then every
    /// eventless transition and raised event until the configuration is stable.
    /// Ignored when the machine is not running.
    /// - Throws: ``SCXMLError/microstepLimit(limit:cycle:)`` if it never settles; the
    ///   machine then stops.
    public mutating func send(_ name: String) throws(SCXMLError) {
        guard isRunning else { return }
        trace = ["event:\(name)"]
        let enabled = selectTransitions(event: name)
        if !enabled.isEmpty { microstep(enabled) }
        try settle()
    }

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
                internalQueue = []
                queueHead = 0
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
    private func selectTransitions(event: String?) -> [Int] {
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

    private mutating func microstep(_ enabled: [Int]) {
        exitStates(enabled)
        for index in enabled { execute(document.transitions[index].actions) }
        enterStates(enabled)
    }

    private mutating func execute(_ actions: [SCXMLDocument.Action]) {
        for action in actions {
            if case let .raise(event) = action { internalQueue.append(event) }
        }
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

    private mutating func enterStates(_ enabled: [Int]) {
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
