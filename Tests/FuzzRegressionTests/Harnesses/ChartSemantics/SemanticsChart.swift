import Foundation

/// A statechart and a script of events, decoded from fuzzer bytes, in a form that renders
/// both as an SCXML document (``scxml``) and as a typed DSL chart (`typedDefinition`): the
/// input of `ChartSemanticsHarness`.
///
/// Only constructs both forms express with the same meaning are generated: compound,
/// parallel and final states, `initial` children, shallow and deep history with a default,
/// external, SCXML-internal (typed `.local`) and targetless transitions, eventless and
/// `done.state.<id>` transitions, event descriptors with prefixes and `*`, `In()`
/// conditions with `!`, `&&` and `||` (typed: a guard reading the states entered and not
/// yet exited), `<log>`, `<raise>` and `<if>`, and delayed transitions (typed `.after`;
/// SCXML: a `<send delay id>` in `<onentry>`, a `<cancel>` in `<onexit>` and a transition on
/// that event). Sizes stay small (at most ``maxStates`` states, ``maxTransitions``
/// transitions, ``maxSteps`` script steps) so that one input runs in a few milliseconds.
///
/// Decoding is total: every byte string gives a well-formed chart (missing bytes read as
/// zero) and no arithmetic can trap.
struct SemanticsChart: Sendable {
    static let maxStates = 12
    static let maxHistories = 3
    static let maxTransitions = 24
    static let maxSteps = 30

    /// The names a script sends. Descriptors (``descriptors``) match some by prefix.
    static let eventNames = ["a", "b", "c", "d", "a.x", "a.y", "b.x", "a.x.q"]
    /// The event descriptors transitions use (`a.*` means `a`; `*` matches every event).
    static let descriptors = ["a", "b", "c", "a.x", "a.y", "b.x", "a.*", "done", "*"]

    /// What a state is.
    enum Kind: Sendable, Equatable {
        case atomic, compound, parallel, final
    }

    /// One state of the tree.
    struct State: Sendable {
        var id: String
        var kind: Kind
        /// The parent state's index; nil for a child of the root.
        var parent: Int?
        /// Child states, in document order.
        var children: [Int] = []
        /// A compound state's `initial` child, when one is named (else its first child).
        var initial: Int?
        /// History pseudo states declared in this state (indices into `histories`).
        var histories: [Int] = []
        var onEntry: [Content] = []
        var onExit: [Content] = []
        /// This state's transitions, in document (and registration) order.
        var transitions: [Int] = []
        /// This state's delayed transitions (indices into `transitions`), in order.
        var timers: [Int] = []
    }

    /// A history pseudo state and its default target (a proper descendant of its owner).
    struct History: Sendable {
        var id: String
        var owner: Int
        var deep: Bool
        var defaultTarget: Int
    }

    /// What triggers a transition.
    enum Trigger: Sendable, Equatable {
        /// An event descriptor.
        case event(String)
        /// No event: taken when the configuration settles and the condition holds.
        case eventless
        /// `done.state.<id>` of the state `of`; typed as `onDone(of:)` when `viaOnDone`,
        /// else as a handler for the event named `done.state.<id>`.
        case done(of: Int, viaOnDone: Bool)
        /// A delayed transition, after `seconds`; `timer` numbers its SCXML event `tm<timer>`.
        case after(seconds: Int, timer: Int)
    }

    /// Where a transition goes.
    enum Target: Sendable, Equatable {
        case state(Int)
        case history(Int)
    }

    /// One transition.
    struct Transition: Sendable {
        var source: Int
        var trigger: Trigger
        /// Nil for a targetless transition (typed: `.internal`).
        var target: Target?
        /// SCXML `type="internal"`; typed `.local` when the source is a compound state that
        /// contains the target, else (as the standard says) an external transition.
        var isInternal: Bool
        var condition: Condition?
        var actions: [Content]
    }

    /// A condition of the null data model: `In()`, constants, `!`, `&&`, `||`.
    indirect enum Condition: Sendable {
        case constant(Bool)
        case inState(Int)
        case not(Condition)
        case and(Condition, Condition)
        case or(Condition, Condition)

        /// The value, with `isActive` telling whether a state (by index) is active.
        func holds(_ isActive: (Int) -> Bool) -> Bool {
            switch self {
            case .constant(let value): value
            case .inState(let state): isActive(state)
            case .not(let inner): !inner.holds(isActive)
            case .and(let left, let right): left.holds(isActive) && right.holds(isActive)
            case .or(let left, let right): left.holds(isActive) || right.holds(isActive)
            }
        }

        /// Whether an `In()` appears anywhere in it.
        var readsConfiguration: Bool {
            switch self {
            case .constant: false
            case .inState: true
            case .not(let inner): inner.readsConfiguration
            case .and(let left, let right), .or(let left, let right):
                left.readsConfiguration || right.readsConfiguration
            }
        }
    }

    /// Executable content: `<log label>`, `<raise event>`, `<if cond><else/></if>`.
    indirect enum Content: Sendable {
        case log(String)
        case raise(String)
        case branch(Condition, then: [Content], otherwise: [Content])

        /// Whether an `In()` appears anywhere in it.
        var readsConfiguration: Bool {
            switch self {
            case .log, .raise: false
            case .branch(let condition, let then, let otherwise):
                condition.readsConfiguration || (then + otherwise).contains { $0.readsConfiguration }
            }
        }
    }

    /// One step of the script.
    enum Step: Sendable, Equatable {
        /// An external event.
        case event(String)
        /// The manual clock moves on (delayed transitions fall due).
        case advance(seconds: Int)
    }

    var states: [State] = []
    var histories: [History] = []
    var transitions: [Transition] = []
    /// The root's children, in document order.
    var rootChildren: [Int] = []
    /// The root's `initial` child, when one is named (else its first child).
    var rootInitial: Int?
    var script: [Step] = []
    /// The snapshot is taken after this many script steps (0: right after `start`).
    var snapshotAfter = 0

    // MARK: Decoding

    /// Decodes `data`; see the type's documentation.
    init(decoding data: Data) {
        var reader = SemanticsByteReader(data)
        let usesTimers = reader.chance(1, in: 3)

        // The tree: each state's parent is the root or an earlier container.
        let count = reader.inRange(1...Self.maxStates)
        var declared: [Kind] = []
        for index in 0..<count {
            let containers = declared.indices.filter { declared[$0] == .compound || declared[$0] == .parallel }
            let choice = index == 0 ? 0 : reader.below(containers.count + 1)
            let parent: Int? = choice == 0 ? nil : containers[choice - 1]
            var kind: Kind =
                switch reader.below(8) {
                case 0, 1, 2: .compound
                case 3: .parallel
                case 4: .final
                default: .atomic
                }
            // A final state is no region of a parallel state (SCXML allows none there).
            if kind == .final, let parent, declared[parent] == .parallel { kind = .atomic }
            declared.append(kind)
            states.append(State(id: "s\(index)", kind: kind, parent: parent))
            if let parent { states[parent].children.append(index) } else { rootChildren.append(index) }
        }
        for index in states.indices where states[index].children.isEmpty && states[index].kind != .final {
            states[index].kind = .atomic
        }
        if reader.chance(1, in: 3) { rootInitial = rootChildren[reader.below(rootChildren.count)] }
        for index in states.indices where states[index].kind == .compound && reader.chance(1, in: 3) {
            states[index].initial = states[index].children[reader.below(states[index].children.count)]
        }

        // Histories, each with a default inside its owner.
        let containers = states.indices.filter { states[$0].kind == .compound || states[$0].kind == .parallel }
        if !containers.isEmpty {
            for number in 0..<reader.inRange(0...Self.maxHistories) {
                let owner = containers[reader.below(containers.count)]
                let inside = descendants(of: owner)
                let history = History(
                    id: "h\(number)",
                    owner: owner,
                    deep: reader.chance(1, in: 2),
                    defaultTarget: inside[reader.below(inside.count)]
                )
                states[owner].histories.append(histories.count)
                histories.append(history)
            }
        }

        // Enter and exit content.
        var labels = 0
        for index in states.indices {
            states[index].onEntry = reader.content(labels: &labels, states: states.count, depth: 0)
            states[index].onExit = reader.content(labels: &labels, states: states.count, depth: 0)
        }

        // Transitions.
        let sources = states.indices.filter { states[$0].kind != .final }
        var timers = 0
        for _ in 0..<(sources.isEmpty ? 0 : reader.inRange(0...Self.maxTransitions)) {
            let source = sources[reader.below(sources.count)]
            let trigger: Trigger
            let choice = reader.below(16)
            if choice >= 10 && choice < 12 {
                trigger = .eventless
            } else if choice >= 12 && choice < 14 && !containers.isEmpty {
                trigger = .done(of: containers[reader.below(containers.count)], viaOnDone: reader.chance(1, in: 2))
            } else if choice >= 14 && usesTimers {
                trigger = .after(seconds: reader.inRange(1...3), timer: timers)
                timers += 1
            } else {
                // A delayed transition's SCXML event would match `*`: charts with timers use none.
                let names = usesTimers ? Self.descriptors.dropLast() : Self.descriptors[...]
                trigger = .event(names[names.startIndex + reader.below(names.count)])
            }
            let target: Target? =
                switch reader.below(8) {
                case 0: nil
                case 1 where !histories.isEmpty: .history(reader.below(histories.count))
                default: .state(reader.below(states.count))
                }
            // The typed DSL makes every transition to a history external (a pseudo state
            // target), so SCXML's `type="internal"` is generated for state targets only.
            let isInternal =
                reader.chance(1, in: 4) && target.map { if case .state = $0 { true } else { false } } == true
            let condition: Condition? = reader.chance(1, in: 2) ? reader.condition(states: states.count, depth: 0) : nil
            let actions = reader.content(labels: &labels, states: states.count, depth: 0)
            if case .after = trigger { states[source].timers.append(transitions.count) }
            states[source].transitions.append(transitions.count)
            transitions.append(
                Transition(
                    source: source,
                    trigger: trigger,
                    target: target,
                    isInternal: isInternal,
                    condition: condition,
                    actions: actions
                )
            )
        }

        // The script.
        for _ in 0..<reader.inRange(0...Self.maxSteps) {
            if reader.chance(1, in: 6) {
                script.append(.advance(seconds: reader.inRange(1...2)))
            } else {
                script.append(.event(Self.eventNames[reader.below(Self.eventNames.count)]))
            }
        }
        snapshotAfter = reader.inRange(0...script.count)
    }

    // MARK: Structure

    /// The proper descendants of `state`, in document order.
    func descendants(of state: Int) -> [Int] {
        states[state].children.flatMap { [$0] + descendants(of: $0) }
    }

    /// Whether `state` lies strictly inside `ancestor`.
    func isDescendant(_ state: Int, of ancestor: Int) -> Bool {
        var current = states[state].parent
        while let parent = current {
            if parent == ancestor { return true }
            current = states[parent].parent
        }
        return false
    }

    /// `state` and its ancestors, innermost first.
    func chain(_ state: Int) -> [Int] {
        var result = [state]
        var current = states[state].parent
        while let parent = current {
            result.append(parent)
            current = states[parent].parent
        }
        return result
    }

    /// The innermost state containing (or being) both `first` and `second`; nil for the root.
    func commonAncestor(_ first: Int, _ second: Int) -> Int? {
        let others = Set(chain(second))
        return chain(first).first(where: others.contains)
    }

    /// The states in document order (pre-order).
    var documentOrder: [Int] {
        rootChildren.flatMap { [$0] + descendants(of: $0) }
    }

    /// Whether the transition is a typed `.local` one: SCXML `type="internal"` from a
    /// compound state to a state inside it (W3C: otherwise it behaves as external).
    func isLocal(_ transition: Transition) -> Bool {
        guard transition.isInternal, states[transition.source].kind == .compound,
            case .state(let target) = transition.target
        else { return false }
        return isDescendant(target, of: transition.source)
    }

    /// The SCXML event of a transition's trigger (nil for an eventless one).
    func eventName(of trigger: Trigger) -> String? {
        switch trigger {
        case .event(let descriptor): descriptor
        case .eventless: nil
        case .done(let state, _): "done.state.\(states[state].id)"
        case .after(_, let timer): "tm\(timer)"
        }
    }
}

/// Reads the fuzzer's bytes as small choices; past the end every byte reads as zero.
struct SemanticsByteReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ data: Data) {
        bytes = Array(data.prefix(4096))
    }

    /// The next byte, or zero past the end.
    mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// A number in `0..<bound` (0 when `bound` is 1 or less).
    mutating func below(_ bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        return Int(byte()) % bound
    }

    /// A number in `range`.
    mutating func inRange(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.count)
    }

    /// True `chances` times in `outOf`; false for a zero byte, so that a minimised input
    /// (whose bytes a fuzzer zeroes) decodes to the simpler chart.
    mutating func chance(_ chances: Int, in outOf: Int) -> Bool {
        below(outOf) >= outOf - chances
    }

    /// A condition over `states` states, nesting at most two operators deep.
    mutating func condition(states: Int, depth: Int) -> SemanticsChart.Condition {
        switch below(depth < 2 ? 8 : 4) {
        case 0: .constant(chance(1, in: 2))
        case 1, 2, 3: .inState(below(states))
        case 4, 5: .not(condition(states: states, depth: depth + 1))
        case 6: .and(condition(states: states, depth: depth + 1), condition(states: states, depth: depth + 1))
        default: .or(condition(states: states, depth: depth + 1), condition(states: states, depth: depth + 1))
        }
    }

    /// Executable content: at most two elements, `<if>` nested at most once.
    mutating func content(labels: inout Int, states: Int, depth: Int) -> [SemanticsChart.Content] {
        var result: [SemanticsChart.Content] = []
        for _ in 0..<below(3) {
            switch below(depth == 0 ? 6 : 4) {
            case 0, 1:
                labels += 1
                result.append(.log("L\(labels)"))
            case 2, 3:
                result.append(.raise(SemanticsChart.eventNames[below(SemanticsChart.eventNames.count)]))
            default:
                let condition = condition(states: states, depth: 1)
                let then = content(labels: &labels, states: states, depth: depth + 1)
                let otherwise = content(labels: &labels, states: states, depth: depth + 1)
                result.append(.branch(condition, then: then, otherwise: otherwise))
            }
        }
        return result
    }
}
