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
