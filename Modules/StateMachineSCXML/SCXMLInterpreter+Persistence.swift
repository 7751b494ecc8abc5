import StateMachineHierarchy

/// A `<send>` the SCXML event I/O processor cannot deliver inside the process (a target
/// URI, or a `#_scxml_<id>` session that does not run here), handed to a session's
/// ``SCXMLOutside`` instead of raising an error.
package struct SCXMLOutgoingSend: Sendable, Hashable {
    /// The evaluated `target`/`targetexpr`.
    package var target: String?
    /// The evaluated `type`/`typeexpr`, if any.
    package var type: String?
    /// The evaluated `event`/`eventexpr`.
    package var event: String
    /// The send's id (`id`, or generated for `idlocation`), which `<cancel>` names.
    package var sendID: String?
    /// The event's data (`<param>`s, `namelist` or `<content>`).
    package var data: SCXMLValue?
    /// The evaluated `delay`/`delayexpr` (zero when none).
    package var delay: Duration

    package init(target: String?, type: String?, event: String, sendID: String?, data: SCXMLValue?, delay: Duration) {
        self.target = target
        self.type = type
        self.event = event
        self.sendID = sendID
        self.data = data
        self.delay = delay
    }
}

/// Where a session's sends to targets outside the process go: what durable sessions record
/// in their outbox. Both are called on the thread running the step, inside it, in the
/// order of the session's executable content; they must not call back into the session.
package struct SCXMLOutside: Sendable {
    /// A `<send>` the session cannot deliver itself (``SCXMLOutgoingSend``).
    package let send: @Sendable (SCXMLOutgoingSend) -> Void
    /// A `<cancel>` of the send id given (also run for sends the session delivers itself).
    package let cancel: @Sendable (String) -> Void

    package init(send: @escaping @Sendable (SCXMLOutgoingSend) -> Void, cancel: @escaping @Sendable (String) -> Void) {
        self.send = send
        self.cancel = cancel
    }
}

/// A session with the sessions it invoked, as plain `Codable` values: what a durable
/// session stores, since ``SCXMLInterpreter/snapshot()`` leaves running invocations out.
package struct SCXMLSessionTree: Codable, Sendable, Hashable {
    /// A running invocation.
    package struct Invocation: Codable, Sendable, Hashable {
        /// The invocation's id (`#_<id>` targets it).
        package var id: String
        /// The invoking state.
        package var state: String
        /// Which of the state's `<invoke>`s it is, from 0.
        package var invoke: Int
        /// The evaluated `srcexpr` or `<content expr>` text the child was made from.
        package var source: String?
        /// The child session.
        package var session: SCXMLSessionTree
    }

    /// The session's own snapshot (with its pending delayed sends and variables).
    package var snapshot: StatechartSnapshot
    /// How many invocation ids the session generated (so that reopened ones stay unique).
    package var generatedInvokeIDs: Int
    /// Its running invocations, in the order they started.
    package var invocations: [Invocation]

    package init(snapshot: StatechartSnapshot, generatedInvokeIDs: Int, invocations: [Invocation]) {
        self.snapshot = snapshot
        self.generatedInvokeIDs = generatedInvokeIDs
        self.invocations = invocations
    }
}

extension SCXMLInterpreter {
    /// The session and, recursively, the sessions it invoked; taken between macrosteps.
    /// - Throws: ``SCXMLDataError`` when a variable of one of them cannot be kept.
    package func sessionTree() throws(SCXMLDataError) -> SCXMLSessionTree {
        let snapshot = try snapshot()
        let (generated, invocations) = state.withLock { ($0.generatedInvokeIDs, $0.invocations) }
        var children: [SCXMLSessionTree.Invocation] = []
        for invocation in invocations {
            children.append(
                SCXMLSessionTree.Invocation(
                    id: invocation.id,
                    state: invocation.state,
                    invoke: invocation.invoke,
                    source: invocation.source,
                    session: try invocation.child.sessionTree()
                )
            )
        }
        return SCXMLSessionTree(snapshot: snapshot, generatedInvokeIDs: generated, invocations: children)
    }

    /// Replaces this session's state with `tree`'s, as ``restore(_:)`` does, and reopens
    /// the sessions it had invoked, each at its own stored state (no `<onentry>` runs again).
    /// - Throws: `StatechartError/invalidSnapshot(reason:)` when the tree does not fit the
    ///   document (a state or invocation it names is not there, a child's document does not
    ///   load again); the session is then at `tree`'s own state, without invocations.
    package func restore(_ tree: SCXMLSessionTree) throws {
        try restore(tree.snapshot)
        var children: [Invocation] = []
        do {
            for stored in tree.invocations {
                guard let index = document.index(of: stored.state),
                    document.nodes[index].invokes.indices.contains(stored.invoke)
                else {
                    throw StatechartError.invalidSnapshot(
                        reason:
                            "state '\(stored.state)' has no <invoke> number \(stored.invoke) (invocation '\(stored.id)')"
                    )
                }
                let invoke = document.nodes[index].invokes[stored.invoke]
                let childDocument: SCXMLDocument
                do {
                    childDocument = try document(of: invoke, source: stored.source)
                } catch {
                    throw StatechartError.invalidSnapshot(reason: "invocation '\(stored.id)': \(error)")
                }
                let child = SCXMLInterpreter(
                    document: childDocument,
                    options: options,
                    clock: clock,
                    recordsTrace: false,
                    onMacrostep: nil,
                    parent: (self, stored.id),
                    outside: outside
                )
                children.append(
                    Invocation(
                        id: stored.id,
                        state: stored.state,
                        autoforward: invoke.autoforward,
                        finalize: invoke.finalize,
                        invoke: stored.invoke,
                        source: stored.source,
                        child: child
                    )
                )
                try child.restore(stored.session)
            }
        } catch {
            for invocation in children { invocation.child.cancel() }
            throw error
        }
        state.withLock { session in
            session.generatedInvokeIDs = tree.generatedInvokeIDs
            session.invocations = children
        }
    }
}
