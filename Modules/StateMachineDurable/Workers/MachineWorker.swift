import FoundationEssentials

/// Serves the machines of a store that have work, in one process of many: run one in each
/// of several processes on one shared store (a ``DurableStore`` on a server) and they share
/// the machines.
///
/// Each round (every `pollInterval`) the worker asks the store for machines with work (an
/// event in the inbox, a timer due, an effect not delivered) that no other live process has
/// claimed, opens those it does not hold (claiming them: one worker per machine at a time),
/// and has the ones it holds apply their inbox and fire their due timers. Between rounds it
/// waits for posts (``DurableStore/awaitPosts(timeout:)``): a store that is told of them
/// (a PostgreSQL store LISTENs for its inbox's notifications) wakes it at once, and the
/// machines it holds apply the events posted to them without waiting for the next round;
/// a machine it does not hold is taken in the next round. Under load, the worker pulls at
/// most once every `gatherWindow`: posts told of meanwhile join the next pull, so that one
/// inbox read and one round trip of commits serve many events: a post to a busy worker waits
/// up to the window, and a worker that has not pulled for a window pulls at once.
/// A machine it held without work for `idleTimeout` is closed, so that another worker may
/// take it.
///
/// A worker that dies (killed, its host gone) loses its claims with its connection, and the
/// other workers take its machines over in their next round: within `pollInterval` plus the
/// time the server takes to see the connection gone. Events posted to a machine are applied in
/// the order its inbox accepted them, once: a machine is driven by one worker at a time, and
/// its inbox entry is removed by the commit that applies it.
///
/// ```swift
/// let worker = MachineWorker(store: store) { key in try orderForm() }
/// let serving = Task { await worker.run() }
/// // … until the process should stop:
/// serving.cancel()
/// await serving.value
/// ```
public actor MachineWorker<Form: DurableForm> {
    /// What the worker reports: a machine it could not open or drive, and why. The others go on.
    public struct Failure: Sendable, CustomStringConvertible {
        /// The machine.
        public let key: String
        /// What went wrong.
        public let error: any Error

        /// `machine 'KEY': ERROR`.
        public var description: String { "machine '\(key)': \(error)" }
    }

    let store: any DurableStore
    let form: @Sendable (String) throws -> Form
    let options: DurableOptions
    let pollInterval: Duration
    let idleTimeout: Duration
    let gatherWindow: Duration
    let batch: Int
    let onFailure: @Sendable (Failure) -> Void

    /// The machines the worker holds, and when each last had work.
    var held: [String: (machine: DurableMachine<Form>, worked: ContinuousClock.Instant)] = [:]
    /// Machines that failed to open: the round from which to try again, the rounds waited
    /// last (doubling up to a hundred) and the error reported.
    var failed: [String: (retry: Int, wait: Int, message: String)] = [:]
    var round = 0

    /// A worker for `store`'s machines, each opened as the form `form` returns for its key.
    /// - Parameters:
    ///   - store: the store whose machines the worker serves (shared with other processes).
    ///   - options: how each machine is opened (its timer policy, a migration).
    ///   - pollInterval: how often the worker asks the store for work.
    ///   - idleTimeout: how long a held machine may go without work before it is closed.
    ///   - gatherWindow: the least time between two pulls for posts the worker is told of:
    ///     a post told of sooner after the last pull waits at most this long, with the others
    ///     told of meanwhile (zero: every wakeup pulls at once).
    ///   - batch: the most machines with work taken from the store in one round.
    ///   - onFailure: told of each machine that could not be opened or driven (a malformed
    ///     stored row, a definition that changed); the worker tries it again after a while.
    ///   - form: the form machine `key` is opened as.
    public init(
        store: any DurableStore,
        options: DurableOptions = DurableOptions(),
        pollInterval: Duration = .milliseconds(50),
        idleTimeout: Duration = .seconds(1),
        gatherWindow: Duration = .milliseconds(10),
        batch: Int = 256,
        onFailure: @escaping @Sendable (Failure) -> Void = { _ in },
        form: @escaping @Sendable (String) throws -> Form
    ) {
        self.store = store
        self.form = form
        self.options = options
        self.pollInterval = pollInterval
        self.idleTimeout = idleTimeout
        self.gatherWindow = gatherWindow
        self.batch = batch
        self.onFailure = onFailure
    }

    /// The keys of the machines the worker holds.
    public var heldMachines: [String] { held.keys.sorted() }

    /// Serves until the calling task is cancelled, then closes the machines it holds.
    /// It notices the cancellation once the round or pull under way is done.
    public func run() async {
        var lastPull = ContinuousClock.now - gatherWindow
        while !Task.isCancelled {
            await serveOneRound()
            let nextRound = ContinuousClock.now + pollInterval
            while !Task.isCancelled, ContinuousClock.now < nextRound {
                // nil: posts may have gone unnoticed; look for work now.
                guard var keys = await store.awaitPosts(timeout: nextRound - .now) else { break }
                guard !keys.isEmpty else { continue }
                let missed = await gather(into: &keys, until: lastPull + gatherWindow)
                await pull(keys.sorted(), advancingTo: nil)
                lastPull = .now
                if missed { break }
            }
        }
        await closeAll()
    }

    /// Adds the keys of the posts told of until `deadline` to `keys`; returns whether posts
    /// may have gone unnoticed meanwhile. It sleeps until then and takes them all at once,
    /// rather than waking for each; with the deadline past (an idle worker), nothing to add.
    func gather(into keys: inout Set<String>, until deadline: ContinuousClock.Instant) async -> Bool {
        guard deadline > .now else { return false }
        try? await Task.sleep(until: deadline)
        guard let more = await store.awaitPosts(timeout: .zero) else { return true }
        keys.formUnion(more)
        return false
    }

    /// One round: takes the machines with work and has each apply what it has.
    public func serveOneRound() async {
        round += 1
        let now: DurableInstant
        let keys: [String]
        do {
            now = try await store.now()
            keys = try await store.machinesWithWork(dueBy: now, limit: batch)
        } catch {
            // The store is unreachable (it reports and retries itself): try next round.
            return
        }
        var busy: Set<String> = []
        var known: [String] = []
        for key in keys {
            if let retry = failed[key]?.retry, retry > round { continue }
            busy.insert(key)
            // A machine it opens applies its inbox as it opens.
            if held[key] == nil { await take(key) } else { known.append(key) }
        }
        await pull(known, advancingTo: now)
        let idleSince = ContinuousClock.now - idleTimeout
        for (key, entry) in held where !busy.contains(key) && entry.worked <= idleSince {
            held[key] = nil
            await entry.machine.close()
        }
    }

    /// Has the held machines among `keys` apply their inboxes, read in one go (and, on a
    /// manual clock, the timers due by `now`); closes a machine after an error.
    func pull(_ keys: [String], advancingTo now: DurableInstant?) async {
        let machines = keys.compactMap { key in held[key].map { (key: key, machine: $0.machine) } }
        guard !machines.isEmpty else { return }
        // Each machine's inbox generation before the read: a machine whose generation moved
        // since (a commit consumed entries) reads its inbox itself.
        var generations: [String: Int] = [:]
        for (key, machine) in machines { generations[key] = await machine.inboxGeneration }
        let inboxes = try? await store.inboxes(of: machines.map(\.key))
        // The machines apply their inboxes side by side, so that a store can write their
        // commits together.
        let manual = store.clock == .manual
        let failures = await withTaskGroup(of: (String, (any Error)?).self) { group in
            for (key, machine) in machines {
                let read = inboxes.map { (entries: $0[key] ?? [], generation: generations[key] ?? -1) }
                group.addTask {
                    do {
                        if manual, let now { await machine.clockAdvanced(to: now) }
                        try await machine.pullInbox(read: read)
                        return (key, await machine.hasLostClaim ? DurableError.claimLost(key: key) : nil)
                    } catch {
                        return (key, error)
                    }
                }
            }
            var failures: [(String, any Error)] = []
            for await (key, error) in group {
                if let error { failures.append((key, error)) }
            }
            return failures
        }
        for (key, machine) in machines where held[key]?.machine === machine { held[key]?.worked = .now }
        for (key, error) in failures { await drop(key, after: error) }
    }

    /// Opens machine `key`: its inbox, due timers and undelivered effects are taken up by the open.
    func take(_ key: String) async {
        do {
            let machine = try await store.open(key, try form(key), options: options)
            held[key] = (machine, .now)
            failed[key] = nil
        } catch DurableError.machineInUse {
            // Another worker took it first.
        } catch {
            // Back off: try again in a few rounds, doubling up to a hundred; report an error
            // once, not on every try.
            let message = "\(error)"
            let wait = min(100, 2 * (failed[key]?.wait ?? 1))
            if failed[key]?.message != message { onFailure(Failure(key: key, error: error)) }
            failed[key] = (round + wait, wait, message)
        }
    }

    /// Closes machine `key` after `error` (its claim lost, its commit refused).
    func drop(_ key: String, after error: any Error) async {
        guard let entry = held.removeValue(forKey: key) else { return }
        await entry.machine.close()
        onFailure(Failure(key: key, error: error))
    }

    func closeAll() async {
        let machines = held.values.map(\.machine)
        held = [:]
        for machine in machines { await machine.close() }
    }
}
