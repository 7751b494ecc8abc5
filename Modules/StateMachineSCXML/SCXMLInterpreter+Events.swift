import StateMachineHierarchy

extension SCXMLDocument {
    /// Every event descriptor of the document's transitions, without duplicates, in
    /// document order; the wildcard `*` is left out (it names no event).
    public var events: [String] {
        var seen = Set<String>()
        return nodes.flatMap { node in node.transitions.flatMap { transitions[$0].events } }
            .filter { $0 != "*" && seen.insert($0).inserted }
    }
}

extension SCXMLDocument {
    /// A transition whose event descriptor matches an event name (see
    /// ``transitions(matching:)``).
    public struct EventMatch: Sendable, Equatable {
        /// The id of the transition's source state.
        public let source: String
        /// The descriptor that matches, as written (`coin` for `coin.dollar`, `coin.*`, `*`).
        public let descriptor: String
        /// The transition's `cond`, as written; nil when it has none.
        public let condition: String?
        /// The line of the `<transition>`.
        public let line: Int
    }

    /// The transitions whose event descriptors match the event `name` as the interpreter
    /// matches them (SCXML 1.0, section 3.12.1: a descriptor matches the names it equals and
    /// those it is a prefix of up to a `.`, so `coin` matches `coin.dollar`; `coin.*` and
    /// `coin.` mean `coin`; `*` matches every name), in document order, each with the first
    /// of its descriptors that matches. Conditions are not evaluated: which of them a step
    /// takes depends on the active states, the conditions and document order. Costs one
    /// pass over the document's transitions.
    public func transitions(matching name: String) -> [EventMatch] {
        var matches: [EventMatch] = []
        for node in nodes {
            for index in node.transitions {
                let transition = transitions[index]
                guard
                    let descriptor = transition.events.first(where: {
                        EventClasses.matches(descriptor: EventClasses.normalized($0), event: name)
                    })
                else { continue }
                matches.append(
                    EventMatch(
                        source: node.id,
                        descriptor: descriptor,
                        condition: transition.condition.map { scripts[$0.index].text },
                        line: transition.line
                    )
                )
            }
        }
        return matches
    }
}

extension SCXMLInterpreter {
    /// The event descriptors of the transitions the active configuration could take: those
    /// of every active atomic state and its ancestors, in the order of
    /// ``SCXMLDocument/events``. Conditions (`In()`) are not evaluated, so a listed event
    /// may still select nothing. Empty when the machine is not running.
    public var acceptedEvents: [String] {
        guard isRunning else { return [] }
        var accepted = Set<String>()
        for id in activeAtomicStates {
            guard let index = document.index(of: id) else { continue }
            for transition in document.selectionChain(of: index) {
                accepted.formUnion(document.transitions[transition].events)
            }
        }
        return document.events.filter(accepted.contains)
    }
}
