import StateMachineCore

/// The default bounds of an exploration.
public enum StateGraphLimits {
    /// The default `maxDepth`: states at most 32 events from the initial one.
    public static let defaultMaxDepth = 32
    /// The default `maxNodes`: at most 1,000 states.
    public static let defaultMaxNodes = 1_000
}

extension StateMachine {
    /// The graph of the states this machine reaches from its initial state when sent the
    /// events of `events`, found by resolving every (state, event) pair through
    /// `resolveTransition(state:event:)`.
    ///
    /// Only the route's new state is taken: outputs are never started, so exploring runs
    /// no side effect. Guards run, since they decide which route applies (an async guard is
    /// awaited); keep them free of side effects. A route that produces only an output is
    /// not a transition and makes no edge. Events an output would send are not explored
    /// unless they are in `events`.
    ///
    /// A machine whose states carry counters can reach infinitely many states: exploration
    /// stops at `maxDepth` events from the initial state or at `maxNodes` states, and the
    /// graph's ``StateGraph/truncation`` says which bound stopped it and how many
    /// transitions it left out.
    ///
    /// - Parameters:
    ///   - events: the event alphabet, in the order edges are listed; an event may appear
    ///     with different values (`DidRequestToAddCredits(credits: 10)`, `(credits: 5)`).
    ///   - maxDepth: the most events from the initial state (default
    ///     ``StateGraphLimits/defaultMaxDepth``).
    ///   - maxNodes: the most states (default ``StateGraphLimits/defaultMaxNodes``).
    ///   - key: what states are compared by; by default the state itself, which must then
    ///     be `Hashable`.
    /// - Throws: ``StateGraphError/emptyAlphabet(machine:)``,
    ///   ``StateGraphError/invalidBound(name:value:)``, or
    ///   ``StateGraphError/unhashableState(typeName:)`` for a state that is not `Hashable`
    ///   when no `key` is given.
    public func stateGraph(
        events: [any Event<SuperEvent>],
        maxDepth: Int = StateGraphLimits.defaultMaxDepth,
        maxNodes: Int = StateGraphLimits.defaultMaxNodes,
        key: (@Sendable (any State<SuperState>) -> any Hashable & Sendable)? = nil
    ) async throws -> StateGraph<any State<SuperState>, any Event<SuperEvent>> {
        let machineName = String(describing: SuperState.self)
        guard !events.isEmpty else { throw StateGraphError.emptyAlphabet(machine: machineName) }
        let identify: @Sendable (any State<SuperState>) throws -> StateKey =
            key.map { key in { @Sendable state in StateKey(key(state)) } } ?? { try Self.hashableKey($0) }
        var explorer = try GraphExplorer<any State<SuperState>, any Event<SuperEvent>>(
            initial: initial,
            maxDepth: maxDepth,
            maxNodes: maxNodes,
            key: identify,
            name: { describe($0) }
        )
        let labels = events.map { describe($0) }
        while let node = explorer.nextNode() {
            for (event, label) in zip(events, labels) {
                guard let resolved = await resolveTransition(state: node.state, event: event),
                    let transition = resolved.transition.transition
                else { continue }
                try explorer.addEdge(from: node, event: event, label: label, to: await transition.state())
            }
        }
        return explorer.graph(named: machineName)
    }

    /// The state as a key when its type is `Hashable`.
    private static func hashableKey(_ state: any State<SuperState>) throws -> StateKey {
        guard let key = StateKey(hashing: state) else {
            throw StateGraphError.unhashableState(typeName: String(reflecting: type(of: state)))
        }
        return key
    }
}
