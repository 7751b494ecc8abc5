import FoundationEssentials
import StateMachineDurable
import StateMachineHierarchy
import StateMachineSCXML

/// What a durable SCXML session stores: its tree of sessions without their delayed sends,
/// and what each delayed send carries besides its timer (whose due time the store keeps).
struct StoredSession: Codable {
    /// A delayed send to a session of the tree.
    struct StoredSend: Codable {
        /// Its timer's id.
        var id: String
        /// The invocation ids leading to its session (empty for the top-level session).
        var scope: [String]
        var event: String
        var sendID: String?
        var data: SCXMLValue?
    }

    /// A delayed send to a target outside the process.
    struct StoredOutgoing: Codable {
        /// Its timer's id.
        var id: String
        var send: DurableSCXML.Send
    }

    /// The sessions, their delayed sends left out, in the order they were made.
    var session: SCXMLSessionTree
    var sends: [StoredSend]
    var outgoing: [StoredOutgoing]
    /// The number of the next generated timer id.
    var nextNumber: Int
}

extension DurableSCXML.Instance {
    /// The instance's state to store.
    func stored() -> StoredSession {
        StoredSession(
            session: Self.withoutSends(tree),
            sends: sends.map { send in
                StoredSession.StoredSend(
                    id: send.id,
                    scope: send.key.scope,
                    event: send.key.event,
                    sendID: send.key.sendID,
                    data: send.key.data
                )
            },
            outgoing: outgoing.map { StoredSession.StoredOutgoing(id: $0.id, send: $0.send) },
            nextNumber: nextNumber
        )
    }

    /// Reopens the session at `stored`, with the delayed sends whose timers are among
    /// `timers` (an open's timer policy may have dropped or moved some), each waiting for
    /// what its due time has left.
    func restore(_ stored: StoredSession, timers: [DurableTimer]) throws {
        let timers = Dictionary(timers.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var tree = stored.session
        var restored: [DurableSCXML.TimedSend] = []
        for send in stored.sends {
            guard let timer = timers[send.id] else { continue }
            let remaining = max(0, timer.due - now)
            let pending = StatechartSnapshot.SCXMLSession.PendingSend(
                event: send.event,
                sendID: send.sendID,
                data: send.data,
                remaining: .nanoseconds(remaining)
            )
            guard Self.append(pending, to: &tree, at: send.scope[...]) else {
                throw DurableError.encoding("the stored delayed send '\(send.id)' names no running invocation")
            }
            let key = DurableSCXML.SendKey(
                scope: send.scope,
                event: send.event,
                sendID: send.sendID,
                data: send.data,
                due: now + remaining
            )
            restored.append(DurableSCXML.TimedSend(id: send.id, key: key, delay: timer.delay))
        }
        outgoing = stored.outgoing.compactMap { send in
            timers[send.id].map {
                DurableSCXML.TimedOutgoing(id: send.id, send: send.send, due: $0.due, delay: $0.delay)
            }
        }
        nextNumber = stored.nextNumber
        do {
            try interpreter.restore(tree)
        } catch {
            throw DurableError.encoding("the stored session does not fit the document: \(error)")
        }
        sends = restored
        try settle()
    }

    /// `tree` with no delayed sends in any of its sessions.
    static func withoutSends(_ tree: SCXMLSessionTree) -> SCXMLSessionTree {
        var tree = tree
        tree.snapshot.scxml?.sends = []
        for index in tree.invocations.indices {
            tree.invocations[index].session = withoutSends(tree.invocations[index].session)
        }
        return tree
    }

    /// Appends `send` to the delayed sends of the session at `scope` in `tree`; false when
    /// there is no such session.
    static func append(
        _ send: StatechartSnapshot.SCXMLSession.PendingSend,
        to tree: inout SCXMLSessionTree,
        at scope: ArraySlice<String>
    ) -> Bool {
        guard let first = scope.first else {
            guard tree.snapshot.scxml != nil else { return false }
            tree.snapshot.scxml?.sends.append(send)
            return true
        }
        guard let index = tree.invocations.firstIndex(where: { $0.id == first }) else { return false }
        return append(send, to: &tree.invocations[index].session, at: scope.dropFirst())
    }
}
