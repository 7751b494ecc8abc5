import FoundationEssentials
import StateMachineDurable
import StateMachineHierarchy
import StateMachineSCXML
import StateMachineSupport

extension DurableSCXML {
    /// A running session, on a manual clock whose zero is the store time `base`, owned by
    /// its `DurableMachine`.
    ///
    /// What it reports (``DurableSCXML/state(of:)``, ``DurableSCXML/timers(of:)``, the
    /// stored state) is taken once per step, by `settle()`: the session changes only in
    /// the form's steps (its clock is moved only by them, and its children and outside
    /// sends run inside them, on the step's thread).
    public final class Instance {
        let interpreter: SCXMLInterpreter
        let clock: ManualStatechartClock
        let base: DurableInstant
        let recorder: OutsideRecorder
        let effects: DurableEffects
        /// The session and its children as of the last step, delayed sends included.
        var tree: SCXMLSessionTree
        /// The pending delayed sends to the session and its children, with their timers' ids.
        var sends: [TimedSend] = []
        /// The pending delayed sends to targets outside the process.
        var outgoing: [TimedOutgoing] = []
        /// The number of the next generated timer id (`send:#<n>`), never reused.
        var nextNumber = 1
        /// The timers of `sends` and `outgoing`.
        private(set) var timers: [DurableTimer] = []

        init(
            interpreter: SCXMLInterpreter,
            clock: ManualStatechartClock,
            base: DurableInstant,
            recorder: OutsideRecorder,
            effects: DurableEffects
        ) {
            self.interpreter = interpreter
            self.clock = clock
            self.base = base
            self.recorder = recorder
            self.effects = effects
            tree = SCXMLSessionTree(
                snapshot: StatechartSnapshot(chart: "", isRunning: false, configuration: []),
                generatedInvokeIDs: 0,
                invocations: []
            )
        }

        /// The store time of the session's clock.
        var now: DurableInstant { base + nanoseconds(clock.now) }

        /// Moves the clock to the store time `time`, firing the delayed sends due by then
        /// (those already due too: a reopened session's overdue sends wait at zero).
        func advance(to time: DurableInstant) {
            clock.advance(by: .nanoseconds(max(0, time - now)))
        }

        /// After a step: records its outside sends and cancels, and takes the session's tree
        /// and timers. A delayed send is told apart by its session, event, id, data and due
        /// time (constant on the manual clock), so it keeps its timer id from step to step.
        /// - Throws: ``SCXMLDataError`` when a variable cannot be stored (the step fails).
        func settle() throws {
            takeOutsideRecords()
            tree = try interpreter.sessionTree()
            if !interpreter.isRunning { outgoing = [] }
            var previous: [SendKey: [TimedSend]] = [:]
            for send in sends { previous[send.key, default: []].append(send) }
            // Sends seen before keep their ids (matched first, so that a new send cannot
            // take the id of one listed after it); new ones get free ids.
            var taken = Set(outgoing.map(\.id))
            let found = Self.pendingSends(of: tree)
            let pending = found.map { scope, send in
                SendKey(
                    scope: scope,
                    event: send.event,
                    sendID: send.sendID,
                    data: send.data,
                    due: now + nanoseconds(send.remaining)
                )
            }
            var matched: [TimedSend?] = pending.map { key in
                guard var matches = previous[key], !matches.isEmpty else { return nil }
                let match = matches.removeFirst()
                previous[key] = matches
                taken.insert(match.id)
                return match
            }
            for index in matched.indices where matched[index] == nil {
                let key = pending[index]
                let id = newID(prefix: key.scope.map { "invoke:\($0)/" }.joined(), sendID: key.sendID, taken: &taken)
                matched[index] = TimedSend(id: id, key: key, delay: found[index].send.remaining)
            }
            sends = matched.compactMap { $0 }
            timers =
                sends.map { DurableTimer(id: $0.id, due: $0.key.due, delay: $0.delay, event: nil) }
                + outgoing.map { DurableTimer(id: $0.id, due: $0.due, delay: $0.delay, event: nil) }
        }

        /// Records what the step sent outside, in order: an undelayed send as an outbox
        /// effect, a delayed one as a timer; a cancel removes the delayed ones with its id.
        private func takeOutsideRecords() {
            var taken = Set(outgoing.map(\.id) + sends.map(\.id))
            for record in recorder.take() {
                switch record {
                case .send(let outgoing):
                    let send = Send(
                        target: outgoing.target,
                        type: outgoing.type,
                        event: outgoing.event,
                        sendID: outgoing.sendID,
                        data: outgoing.data
                    )
                    if outgoing.delay <= .zero {
                        effects.emit(DurableSCXML.sendEffect, send)
                    } else {
                        let id = newID(prefix: "", sendID: outgoing.sendID, taken: &taken)
                        let delay = nanoseconds(outgoing.delay)
                        self.outgoing.append(TimedOutgoing(id: id, send: send, due: now + delay, delay: outgoing.delay))
                    }
                case .cancel(let sendID):
                    outgoing.removeAll { $0.send.sendID == sendID }
                }
            }
        }

        /// Fires the delayed outside send `id`, if it is still pending: into the outbox.
        func fireOutgoing(_ id: String) throws {
            takeOutsideRecords()
            guard let position = outgoing.firstIndex(where: { $0.id == id }) else { return }
            effects.emit(DurableSCXML.sendEffect, outgoing.remove(at: position).send)
        }

        /// A timer id not in `taken`: `send:<sendID>` when free, else `send:#<n>`.
        private func newID(prefix: String, sendID: String?, taken: inout Set<String>) -> String {
            var id = sendID.map { "\(prefix)send:\($0)" }
            if id == nil || taken.contains(id!) {
                repeat {
                    id = "\(prefix)send:#\(nextNumber)"
                    nextNumber += 1
                } while taken.contains(id!)
            }
            taken.insert(id!)
            return id!
        }

        /// The pending delayed sends of `tree`'s sessions, each with the invocation ids
        /// leading to its session, parent first.
        static func pendingSends(
            of tree: SCXMLSessionTree,
            scope: [String] = []
        ) -> [(scope: [String], send: StatechartSnapshot.SCXMLSession.PendingSend)] {
            var found = (tree.snapshot.scxml?.sends ?? []).map { (scope, $0) }
            for invocation in tree.invocations {
                found += pendingSends(of: invocation.session, scope: scope + [invocation.id])
            }
            return found
        }
    }

    /// A delayed send to a session of the tree, by what tells it apart.
    struct SendKey: Hashable {
        /// The invocation ids leading to its session (empty for the top-level session).
        var scope: [String]
        var event: String
        var sendID: String?
        var data: SCXMLValue?
        var due: DurableInstant
    }

    /// A delayed send of the tree and its timer.
    struct TimedSend {
        var id: String
        var key: SendKey
        /// The delay it was made with (what ``DurableTimerPolicy/restart`` waits again).
        var delay: Duration
    }

    /// A delayed send to a target outside the process, and its timer.
    struct TimedOutgoing {
        var id: String
        var send: Send
        var due: DurableInstant
        var delay: Duration
    }
}

/// What a session's steps sent outside the process, in order, until the form takes it.
/// The session calls it on the thread running its step.
final class OutsideRecorder: Sendable {
    enum Record: Sendable {
        case send(SCXMLOutgoingSend)
        case cancel(String)
    }

    private let records = Lock<[Record]>([])

    /// The hooks the session calls.
    var outside: SCXMLOutside {
        SCXMLOutside(
            send: { [records] send in records.withLock { $0.append(.send(send)) } },
            cancel: { [records] id in records.withLock { $0.append(.cancel(id)) } }
        )
    }

    /// What was recorded since the last call, in order.
    func take() -> [Record] {
        records.withLock { records in
            defer { records.removeAll(keepingCapacity: true) }
            return records
        }
    }
}

/// `duration` in whole nanoseconds.
func nanoseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
}
