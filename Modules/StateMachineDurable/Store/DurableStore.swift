import FoundationEssentials

/// Where durable machines live: their state, journal, outbox and timers, and the clock
/// their timers run on.
///
/// The one storage interface of durable machines. ``SQLiteStore`` implements it on an
/// embedded SQLite file; another database implements the same requirements, and the same
/// machine code runs on it unchanged. Every requirement is one transaction: a machine's
/// runtime (``DurableMachine``) calls them, users call ``open(_:_:options:)``.
///
/// Machines are named by a key, unique in the store. A machine is *claimed* by one
/// process at a time (``claim(_:identity:)``): a second process opening it is refused
/// with ``DurableError/machineInUse(key:owner:)`` until the first closes it or dies.
public protocol DurableStore: AnyObject, Sendable {
    /// The machines this store's program has open, which the store's clock fires timers in.
    var openMachines: DurableMachineRegistry { get }

    /// The clock the store's timers run on.
    var clock: DurableClock { get }

    /// Claims machine `key` for this process and returns what is stored of it, nil when the
    /// store has no machine `key` yet (it is created by its first commit, with `identity`).
    /// - Throws: ``DurableError/machineInUse(key:owner:)`` when a live process (this one
    ///   included) has claimed it; a storage error otherwise.
    func claim(_ key: String, identity: DefinitionIdentity) async throws -> StoredMachine?

    /// Gives up the claim on `key` (nothing else is written).
    func release(_ key: String) async

    /// Writes `commit` in one transaction: its journal entries, the machine's new state
    /// and identity, its timers (replacing the stored ones when `timers` is not nil), its
    /// new outbox entries, the outbox entries it marks delivered, and the removal of the
    /// inbox entries it applied. Nothing is written when it throws.
    func commit(_ commit: DurableCommit) async throws

    /// Whether machine `key` has a journal or inbox entry with idempotency key `idempotencyKey`.
    func knows(_ key: String, idempotencyKey: String) async throws -> Bool

    /// Adds `entry` to machine `key`'s inbox, to be applied after the entries before it;
    /// returns the entry's number, or nil (writing nothing) when its idempotency key is in
    /// the journal or the inbox already.
    func post(_ key: String, _ entry: InboxEntry) async throws -> Int64?

    /// Machine `key`'s inbox: the events accepted and not yet applied, oldest first.
    func inbox(of key: String) async throws -> [InboxEntry]

    /// The inboxes of machines `keys`, as one read: each machine's entries, oldest first
    /// (a machine with an empty inbox may be left out).
    func inboxes(of keys: [String]) async throws -> [String: [InboxEntry]]

    /// Whether machine `key`'s inbox holds the entry numbered `id`, or an entry with
    /// idempotency key `idempotencyKey`: false once the commit that applied it is done.
    func inboxHolds(_ key: String, entry id: Int64?, idempotencyKey: String?) async throws -> Bool

    /// Up to `limit` machines a worker (``MachineWorker``) has something to do for: an
    /// event in the inbox, a timer due by `time` or an effect not yet delivered; machines
    /// another live process has claimed are left out (this process's own are not).
    func machinesWithWork(dueBy time: DurableInstant, limit: Int) async throws -> [String]

    /// Waits until events are posted to the store's machines (by any process), at most
    /// `timeout`; returns the keys of the machines posted to since the last call, empty when
    /// the time passed first, or nil when posts may have gone unnoticed (the store lost its
    /// connection): the caller looks for work with ``machinesWithWork(dueBy:limit:)``.
    ///
    /// One caller at a time (a ``MachineWorker``): the keys a call returns are not returned
    /// again. A store that is not told of posts waits `timeout` and returns an empty set.
    /// The wait ends early when the calling task is cancelled.
    func awaitPosts(timeout: Duration) async -> Set<String>?

    /// Marks machine `key`'s outbox entries `effects` delivered.
    func markDelivered(_ key: String, effects: [String]) async throws

    /// What is stored of machine `key`, without claiming it; nil when there is none.
    /// Works on a read-only store.
    func inspect(_ key: String) async throws -> StoredMachine?

    /// Machine `key`'s journal, oldest first: the events it applied, in order.
    func journal(of key: String) async throws -> [JournalEntry]

    /// Machine `key`'s outbox, in the order its effects were recorded.
    func outbox(of key: String) async throws -> [OutboxEntry]

    /// The time on the store's clock: the wall clock, or the time kept in the store for a
    /// ``DurableClock/manual`` clock.
    func now() async throws -> DurableInstant

    /// Sets the time a ``DurableClock/manual`` clock keeps (never backwards); throws for a
    /// store on the wall clock. Use ``advanceClock(by:)``, which also fires the timers of
    /// the machines open on the store.
    func setManualTime(_ time: DurableInstant) async throws
}

extension DurableStore {
    /// Reads each machine's inbox in turn (a store that reads many in one statement
    /// implements it itself).
    public func inboxes(of keys: [String]) async throws -> [String: [InboxEntry]] {
        var inboxes: [String: [InboxEntry]] = [:]
        for key in keys { inboxes[key] = try await inbox(of: key) }
        return inboxes
    }

    /// A store that is not told of posts (``SQLiteStore``): waits `timeout` and returns an
    /// empty set, so that a ``MachineWorker`` looks for work every poll interval.
    public func awaitPosts(timeout: Duration) async -> Set<String>? {
        try? await Task.sleep(for: timeout)
        return []
    }
}

/// A point on a store's clock, in nanoseconds: since 1970 on the wall clock, since the
/// store was created on a manual one.
public typealias DurableInstant = Int64

/// What identifies a machine's definition: the user's version and a fingerprint of the
/// compiled chart, table or machine.
public struct DefinitionIdentity: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The version the user gave the definition.
    public var version: String
    /// A fingerprint of the definition's structure (its states, events and transitions):
    /// two definitions with the same structure have the same fingerprint.
    public var fingerprint: String

    /// An identity from a version and a fingerprint.
    public init(version: String, fingerprint: String) {
        self.version = version
        self.fingerprint = fingerprint
    }

    /// `version 2 (fingerprint 1a2b…)`.
    public var description: String { "version \(version) (fingerprint \(fingerprint))" }
}

/// What a store holds of one machine.
public struct StoredMachine: Sendable, Equatable {
    /// The definition the machine was last committed with.
    public var identity: DefinitionIdentity
    /// The machine's state as of its last commit, in its form's encoding.
    public var state: Data
    /// The sequence number of the machine's last journal entry (0 when none).
    public var lastSequence: Int64
    /// The machine's pending timers and scheduled events.
    public var timers: [DurableTimer]
    /// The inbox: events accepted and not yet applied, oldest first.
    public var unapplied: [InboxEntry]
    /// The outbox entries not yet delivered, in the order they were recorded.
    public var undelivered: [OutboxEntry]

    /// A stored machine.
    public init(
        identity: DefinitionIdentity,
        state: Data,
        lastSequence: Int64,
        timers: [DurableTimer],
        unapplied: [InboxEntry],
        undelivered: [OutboxEntry]
    ) {
        self.identity = identity
        self.state = state
        self.lastSequence = lastSequence
        self.timers = timers
        self.unapplied = unapplied
        self.undelivered = undelivered
    }
}

/// What brought an event to a machine.
public enum DurableEventKind: Int64, Sendable {
    /// Sent with ``DurableMachine/send(_:idempotencyKey:)``.
    case sent = 0
    /// Posted with ``DurableMachine/post(_:idempotencyKey:)``: journaled in the inbox first.
    case posted = 1
    /// A timer or scheduled event that fell due; the payload is the ``DurableTimer``'s
    /// identifier (a form's own timer) or its event.
    case timer = 2
    /// Returned by a delivered effect: applied in the transaction that marks the effect delivered.
    case feedback = 3
}

/// One applied event in a machine's journal.
public struct JournalEntry: Sendable, Equatable {
    /// The entry's position in the machine's journal, from 1: the order events were applied.
    public var sequence: Int64
    /// What brought the event.
    public var kind: DurableEventKind
    /// The event, in its form's encoding (for a form's own timer: the timer's identifier).
    public var payload: Data
    /// The key the sender gave to have the event applied at most once.
    public var idempotencyKey: String?
    /// When the event was applied, on the store's clock.
    public var time: DurableInstant

    /// A journal entry.
    public init(sequence: Int64, kind: DurableEventKind, payload: Data, idempotencyKey: String?, time: DurableInstant) {
        self.sequence = sequence
        self.kind = kind
        self.payload = payload
        self.idempotencyKey = idempotencyKey
        self.time = time
    }
}

/// An event accepted by a machine's inbox and not yet applied.
public struct InboxEntry: Sendable, Equatable {
    /// The entry's number, in the order entries were accepted (set by the store).
    public var id: Int64
    /// What brought the event: ``DurableEventKind/posted``.
    public var kind: DurableEventKind
    /// The event, in its form's encoding.
    public var payload: Data
    /// The key the sender gave to have the event applied at most once.
    public var idempotencyKey: String?
    /// When the entry was accepted, on the store's clock.
    public var time: DurableInstant

    /// An inbox entry.
    public init(id: Int64 = 0, kind: DurableEventKind, payload: Data, idempotencyKey: String?, time: DurableInstant) {
        self.id = id
        self.kind = kind
        self.payload = payload
        self.idempotencyKey = idempotencyKey
        self.time = time
    }
}

/// An effect recorded by a step, delivered after its commit.
public struct OutboxEntry: Sendable, Equatable {
    /// The effect's stable key, `machine/sequence/index` (the journal entry whose step
    /// recorded it, and its position in that step): the same on every delivery, for the
    /// receiver to deduplicate on.
    public var key: String
    /// The order of delivery within the machine.
    public var position: Int64
    /// The name the effect was registered or emitted under.
    public var name: String
    /// The effect's payload, in JSON.
    public var payload: Data
    /// Whether the effect has been delivered.
    public var delivered: Bool

    /// An outbox entry.
    public init(key: String, position: Int64, name: String, payload: Data, delivered: Bool) {
        self.key = key
        self.position = position
        self.name = name
        self.payload = payload
        self.delivered = delivered
    }
}

/// A pending timer of a machine, by its absolute due time on the store's clock.
public struct DurableTimer: Sendable, Hashable {
    /// Unique among the machine's timers.
    public var id: String
    /// When it falls due, on the store's clock.
    public var due: DurableInstant
    /// The delay it was armed with (what ``DurableTimerPolicy/restart`` waits again).
    public var delay: Duration
    /// For an event scheduled by an effect: the event, in its form's encoding. Nil for a
    /// timer of the machine's own (a statechart's delayed transition or an SCXML delayed send).
    public var event: Data?

    /// A timer.
    public init(id: String, due: DurableInstant, delay: Duration, event: Data?) {
        self.id = id
        self.due = due
        self.delay = delay
        self.event = event
    }
}

/// What one transaction writes for a machine: see ``DurableStore/commit(_:)``.
public struct DurableCommit: Sendable {
    /// The machine.
    public var key: String
    /// The definition the machine now runs (written on its first commit and after a migration).
    public var identity: DefinitionIdentity
    /// The journal entries of the events applied, in order.
    public var entries: [JournalEntry]
    /// The inbox entries among them, removed from the inbox.
    public var consumedInbox: [Int64]
    /// Outbox entries delivered (by the effects whose feedback events this commit applies).
    public var delivered: [String]
    /// The machine's state after the entries' steps.
    public var state: Data
    /// The machine's timers after the steps; nil when they did not change.
    public var timers: [DurableTimer]?
    /// The effects the steps recorded.
    public var effects: [OutboxEntry]

    /// A commit.
    public init(
        key: String,
        identity: DefinitionIdentity,
        entries: [JournalEntry],
        consumedInbox: [Int64],
        delivered: [String],
        state: Data,
        timers: [DurableTimer]?,
        effects: [OutboxEntry]
    ) {
        self.key = key
        self.identity = identity
        self.entries = entries
        self.consumedInbox = consumedInbox
        self.delivered = delivered
        self.state = state
        self.timers = timers
        self.effects = effects
    }
}

/// The clock a store's timers run on.
public enum DurableClock: Sendable, Equatable {
    /// The wall clock: a timer armed for an hour falls due an hour later, whether or not its
    /// program ran in between.
    case system
    /// A clock kept in the store, which moves only when a program calls
    /// ``DurableStore/advanceClock(by:)``: runs that repeat exactly (tests, simulations).
    case manual
}
